package memoryd

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestConfigDefaults(t *testing.T) {
	c, err := Config{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.Address != "localhost:50051" || c.DefaultTimeout != 5*time.Second || c.MaxAttempts != 4 ||
		c.InitialBackoff != 100*time.Millisecond || c.MaxBackoff != time.Second {
		t.Errorf("defaults: %+v", c)
	}
}

func TestConfigValidation(t *testing.T) {
	cases := []struct {
		config Config
		says   string
	}{
		{Config{Address: " localhost:1"}, "host:port"},
		{Config{DefaultTimeout: -time.Second}, "DefaultTimeout"},
		{Config{MaxAttempts: 6}, "1 (no retries) to 5"},
		{Config{MaxAttempts: -1}, "MaxAttempts"},
		{Config{InitialBackoff: time.Second, MaxBackoff: time.Millisecond}, "raise MaxBackoff"},
		{Config{Token: "abc\n"}, "single line"},
		{Config{TLS: &TLSConfig{ClientCert: []byte("x")}}, "both TLS.ClientCert and TLS.ClientKey"},
	}
	for _, c := range cases {
		_, err := NewClient(c.config)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("NewClient(%+v) = %v, want an error saying %q", c.config, err, c.says)
		}
	}
	if _, err := NewClient(Config{TLS: &TLSConfig{CACert: []byte("not pem")}}); err == nil ||
		!strings.Contains(err.Error(), "TLS.CACert") {
		t.Errorf("bad CA: %v", err)
	}
}

func TestServiceConfigRetriesUnavailable(t *testing.T) {
	c, _ := Config{}.withDefaults()
	var parsed struct {
		MethodConfig []struct {
			Name        []map[string]string
			RetryPolicy *struct {
				MaxAttempts          int
				InitialBackoff       string
				MaxBackoff           string
				BackoffMultiplier    float64
				RetryableStatusCodes []string
			}
		}
	}
	if err := json.Unmarshal([]byte(c.serviceConfig()), &parsed); err != nil {
		t.Fatal(err)
	}
	m := parsed.MethodConfig[0]
	if m.Name[0]["service"] != "memoryd.v1.MemoryService" || m.RetryPolicy == nil ||
		m.RetryPolicy.MaxAttempts != 4 || m.RetryPolicy.InitialBackoff != "0.1s" || m.RetryPolicy.MaxBackoff != "1s" ||
		m.RetryPolicy.BackoffMultiplier != 2 || len(m.RetryPolicy.RetryableStatusCodes) != 1 ||
		m.RetryPolicy.RetryableStatusCodes[0] != "UNAVAILABLE" {
		t.Errorf("service config: %s", c.serviceConfig())
	}
	c.MaxAttempts = 1
	if strings.Contains(c.serviceConfig(), "retryPolicy") {
		t.Errorf("MaxAttempts 1 should have no retry policy: %s", c.serviceConfig())
	}
}
