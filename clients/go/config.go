package memoryd

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// Defaults of Config.
const (
	DefaultAddress        = "localhost:50051"
	DefaultTimeout        = 5 * time.Second
	DefaultMaxAttempts    = 4
	DefaultInitialBackoff = 100 * time.Millisecond
	DefaultMaxBackoff     = time.Second
)

// serviceName is the fully qualified service the retry policy applies to.
const serviceName = "memoryd.v1.MemoryService"

// maxAttemptsCap is gRPC's cap on attempts, the first one included.
const maxAttemptsCap = 5

// Config says how a Client connects to memoryd. The zero value is usable: a
// plaintext connection to localhost:50051 without credentials.
type Config struct {
	// Address is the server's host:port (default "localhost:50051"). Any
	// gRPC target works ("dns:///memoryd.internal:50051").
	Address string

	// TLS, when set, connects with TLS (default: plaintext, for loopback and
	// sidecars).
	TLS *TLSConfig

	// Token is a bearer token or API key, sent as "authorization: Bearer
	// <token>" on every call. Empty sends none.
	Token string

	// DefaultTimeout is the deadline of every call whose context has none,
	// retries included (default 5s). A context deadline overrides it for
	// that call. For Preload it bounds the whole stream, and for ListAll each
	// page.
	DefaultTimeout time.Duration

	// MaxAttempts is how often a call is tried on UNAVAILABLE, the first
	// attempt included: 1 (no retries) to 5 (gRPC's cap); 0 means 4. Retries
	// follow gRPC's retry policy in the service config; every write carries
	// a request_id, so a retried write is never applied twice.
	MaxAttempts int

	// InitialBackoff and MaxBackoff bound the pause between retries
	// (defaults 100ms and 1s), growing exponentially with gRPC's jitter.
	InitialBackoff time.Duration
	MaxBackoff     time.Duration

	// DialOptions are extra gRPC dial options, applied after the client's
	// own (interceptors added here run after the client's).
	DialOptions []grpc.DialOption
}

// TLSConfig holds the PEM material of a TLS connection.
type TLSConfig struct {
	// CACert is the PEM of the certificate authorities that sign the
	// server's certificate; empty means the system roots.
	CACert []byte
	// ClientCert and ClientKey are the PEM certificate chain and private key
	// of mutual TLS; give both or neither.
	ClientCert []byte
	ClientKey  []byte
	// ServerName overrides the name checked in the server's certificate
	// (default: the host of Address).
	ServerName string
}

// withDefaults returns c with every unset field at its default, or an error
// saying what to fix.
func (c Config) withDefaults() (Config, error) {
	if c.Address == "" {
		c.Address = DefaultAddress
	}
	if c.DefaultTimeout == 0 {
		c.DefaultTimeout = DefaultTimeout
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.InitialBackoff == 0 {
		c.InitialBackoff = DefaultInitialBackoff
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	var problems []string
	if strings.TrimSpace(c.Address) != c.Address || strings.ContainsAny(c.Address, " \t\n") {
		problems = append(problems, fmt.Sprintf("Address %q contains spaces; pass host:port, e.g. %q", c.Address, DefaultAddress))
	}
	if c.DefaultTimeout < 0 {
		problems = append(problems, fmt.Sprintf("DefaultTimeout is %v; use a positive duration, or 0 for %v", c.DefaultTimeout, DefaultTimeout))
	}
	if c.MaxAttempts < 1 || c.MaxAttempts > maxAttemptsCap {
		problems = append(problems, fmt.Sprintf("MaxAttempts is %d; use 1 (no retries) to %d (gRPC's cap), or 0 for %d", c.MaxAttempts, maxAttemptsCap, DefaultMaxAttempts))
	}
	if c.InitialBackoff < 0 || c.MaxBackoff < 0 {
		problems = append(problems, "InitialBackoff and MaxBackoff must be positive durations, or 0 for their defaults")
	} else if c.MaxBackoff < c.InitialBackoff {
		problems = append(problems, fmt.Sprintf("MaxBackoff (%v) is less than InitialBackoff (%v); raise MaxBackoff", c.MaxBackoff, c.InitialBackoff))
	}
	if c.Token != "" && (strings.TrimSpace(c.Token) != c.Token || strings.ContainsAny(c.Token, "\r\n")) {
		problems = append(problems, "Token must be a single line without surrounding spaces; did you read it from a file without trimming it?")
	}
	if c.TLS != nil {
		problems = append(problems, c.TLS.problems()...)
	}
	if len(problems) > 0 {
		return c, fmt.Errorf("memoryd: invalid Config: %s", strings.Join(problems, "; "))
	}
	return c, nil
}

// problems says what is wrong with the PEM material, one entry per mistake.
func (t *TLSConfig) problems() []string {
	var problems []string
	if len(t.CACert) > 0 && !x509.NewCertPool().AppendCertsFromPEM(t.CACert) {
		problems = append(problems, "TLS.CACert holds no PEM certificate; pass the CA file's contents, not its path")
	}
	switch {
	case (len(t.ClientCert) == 0) != (len(t.ClientKey) == 0):
		problems = append(problems, "mutual TLS needs both TLS.ClientCert and TLS.ClientKey (PEM); set both or neither")
	case len(t.ClientCert) > 0:
		if _, err := tls.X509KeyPair(t.ClientCert, t.ClientKey); err != nil {
			problems = append(problems, fmt.Sprintf("TLS.ClientCert and TLS.ClientKey are not a PEM certificate and its private key: %v", err))
		}
	}
	if strings.ContainsAny(t.ServerName, " \t\r\n") {
		problems = append(problems, fmt.Sprintf("TLS.ServerName %q contains spaces; pass the name in the server's certificate", t.ServerName))
	}
	return problems
}

// serviceConfig returns the gRPC service config (JSON) with the retry policy
// for UNAVAILABLE, as the Python client builds it.
func (c Config) serviceConfig() string {
	methodConfig := map[string]any{"name": []map[string]string{{"service": serviceName}}}
	if c.MaxAttempts > 1 {
		methodConfig["retryPolicy"] = map[string]any{
			"maxAttempts":          c.MaxAttempts,
			"initialBackoff":       seconds(c.InitialBackoff),
			"maxBackoff":           seconds(c.MaxBackoff),
			"backoffMultiplier":    2,
			"retryableStatusCodes": []string{"UNAVAILABLE"},
		}
	}
	out, err := json.Marshal(map[string]any{"methodConfig": []any{methodConfig}})
	if err != nil {
		panic(err) // only plain values above
	}
	return string(out)
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.9gs", d.Seconds())
}

// transportCredentials returns the credentials of the connection.
func (c Config) transportCredentials() (credentials.TransportCredentials, error) {
	if c.TLS == nil {
		return insecure.NewCredentials(), nil
	}
	config := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: c.TLS.ServerName}
	if len(c.TLS.CACert) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(c.TLS.CACert) {
			return nil, errors.New("memoryd: invalid Config: TLS.CACert holds no PEM certificate; pass the CA file's contents")
		}
		config.RootCAs = pool
	}
	if len(c.TLS.ClientCert) > 0 {
		pair, err := tls.X509KeyPair(c.TLS.ClientCert, c.TLS.ClientKey)
		if err != nil {
			return nil, fmt.Errorf("memoryd: invalid Config: TLS.ClientCert/ClientKey: %w", err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return credentials.NewTLS(config), nil
}

// dialOptions returns the options of the client's channel.
func (c Config) dialOptions() ([]grpc.DialOption, error) {
	creds, err := c.transportCredentials()
	if err != nil {
		return nil, err
	}
	meta := metadataInterceptor{token: c.Token}
	options := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultServiceConfig(c.serviceConfig()),
		// The service config above is the only one; never take one from DNS.
		grpc.WithDisableServiceConfig(),
		// The server's MEMORYD_MAX_MESSAGE_BYTES bounds what it sends; gRPC's
		// 4 MiB default would refuse answers the server allows.
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32)),
		grpc.WithChainUnaryInterceptor(meta.unary),
		grpc.WithChainStreamInterceptor(meta.stream),
	}
	return append(options, c.DialOptions...), nil
}
