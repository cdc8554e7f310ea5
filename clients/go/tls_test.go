package memoryd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// authority is a throwaway CA for the tests.
type authority struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
}

func newAuthority(t *testing.T, name string) *authority {
	t.Helper()
	key := newKey(t)
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &authority{cert: cert, key: key, certPEM: pemOf("CERTIFICATE", der)}
}

// issue returns the PEM certificate and key of a leaf the authority signs:
// a server certificate naming 127.0.0.1 and localhost, or a client one.
func (a *authority) issue(t *testing.T, name string, server bool) (certPEM, keyPEM []byte) {
	t.Helper()
	key := newKey(t)
	template := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		DNSNames:     []string{name},
	}
	if server {
		template.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		template.DNSNames = []string{"localhost"}
		template.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der, err := x509.CreateCertificate(rand.Reader, template, a.cert, &key.PublicKey, a.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pemOf("CERTIFICATE", der), pemOf("PRIVATE KEY", keyDER)
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func pemOf(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}

// tlsServer serves a fakeServer over TLS on a loopback port, requiring a
// client certificate from clientCA when it is given, and records the common
// name of each caller's certificate ("" for none).
type tlsServer struct {
	address string
	mu      sync.Mutex
	callers []string
}

func (s *tlsServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.callers...)
}

func startTLSServer(t *testing.T, ca *authority, clientCA *authority) *tlsServer {
	t.Helper()
	certPEM, keyPEM := ca.issue(t, "memoryd.test", true)
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	config := &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	if clientCA != nil {
		pool := x509.NewCertPool()
		pool.AddCert(clientCA.cert)
		config.ClientCAs = pool
		config.ClientAuth = tls.RequireAndVerifyClientCert
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &tlsServer{address: listener.Addr().String()}
	record := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		caller := ""
		if p, ok := peer.FromContext(ctx); ok {
			if info, ok := p.AuthInfo.(credentials.TLSInfo); ok && len(info.State.PeerCertificates) > 0 {
				caller = info.State.PeerCertificates[0].Subject.CommonName
			}
		}
		s.mu.Lock()
		s.callers = append(s.callers, caller)
		s.mu.Unlock()
		return handler(ctx, req)
	}
	server := grpc.NewServer(grpc.Creds(credentials.NewTLS(config)), grpc.UnaryInterceptor(record))
	memorydv1.RegisterMemoryServiceServer(server, &fakeServer{})
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return s
}

// tlsCall makes one CreateMemory through a new client of config.
func tlsCall(t *testing.T, config Config) error {
	t.Helper()
	config.MaxAttempts = 1
	config.DefaultTimeout = 5 * time.Second
	client, err := NewClient(config)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	_, err = client.CreateMemory(context.Background(), create("fact", userScope("u")))
	return err
}

func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: got %v, want a *Error with code %v", what, err, code)
	}
}

func TestTLSRoundTrip(t *testing.T) {
	ca, other := newAuthority(t, "test CA"), newAuthority(t, "another CA")
	server := startTLSServer(t, ca, nil)
	_, port, _ := net.SplitHostPort(server.address)

	for _, address := range []string{server.address, "localhost:" + port} {
		if err := tlsCall(t, Config{Address: address, TLS: &TLSConfig{CACert: ca.certPEM}}); err != nil {
			t.Errorf("%s trusting the server's CA: %v", address, err)
		}
	}
	err := tlsCall(t, Config{Address: server.address, TLS: &TLSConfig{CACert: other.certPEM}})
	wantCode(t, "trusting another CA", err, codes.Unavailable)
	err = tlsCall(t, Config{Address: server.address, TLS: &TLSConfig{CACert: ca.certPEM, ServerName: "elsewhere.test"}})
	wantCode(t, "a name the certificate does not have", err, codes.Unavailable)
	err = tlsCall(t, Config{Address: server.address})
	wantCode(t, "plaintext against TLS", err, codes.Unavailable)
	if got := server.seen(); len(got) != 2 || got[0] != "" || got[1] != "" {
		t.Errorf("the server served %q, want two calls without a client certificate", got)
	}
}

func TestMutualTLSPresentsTheClientCertificate(t *testing.T) {
	ca := newAuthority(t, "test CA")
	server := startTLSServer(t, ca, ca)
	cert, key := ca.issue(t, "alice.clients.test", false)

	err := tlsCall(t, Config{Address: server.address, TLS: &TLSConfig{CACert: ca.certPEM, ClientCert: cert, ClientKey: key}})
	if err != nil {
		t.Fatalf("mutual TLS: %v", err)
	}
	if got := server.seen(); len(got) != 1 || got[0] != "alice.clients.test" {
		t.Errorf("the server saw callers %q, want [alice.clients.test]", got)
	}
	var e *Error
	if err := tlsCall(t, Config{Address: server.address, TLS: &TLSConfig{CACert: ca.certPEM}}); !errors.As(err, &e) {
		t.Errorf("without a client certificate: got %v, want a *Error", err)
	} else {
		t.Logf("without a client certificate: %v", err)
	}
	if got := server.seen(); len(got) != 1 {
		t.Errorf("a client without a certificate was served: %q", got)
	}
}

func TestTLSConfigValidation(t *testing.T) {
	ca := newAuthority(t, "test CA")
	cert, key := ca.issue(t, "alice.clients.test", false)
	_, otherKey := ca.issue(t, "bob.clients.test", false)
	cases := []struct {
		name string
		tls  TLSConfig
		says []string
	}{
		{"a path instead of PEM", TLSConfig{CACert: []byte("/etc/memoryd/ca.pem")}, []string{"TLS.CACert holds no PEM certificate"}},
		{"a key as the CA", TLSConfig{CACert: key}, []string{"TLS.CACert holds no PEM certificate"}},
		{"a certificate without its key", TLSConfig{ClientCert: cert}, []string{"both TLS.ClientCert and TLS.ClientKey"}},
		{"a key without its certificate", TLSConfig{ClientKey: key}, []string{"both TLS.ClientCert and TLS.ClientKey"}},
		{"another certificate's key", TLSConfig{ClientCert: cert, ClientKey: otherKey}, []string{"not a PEM certificate and its private key"}},
		{"certificate and key swapped", TLSConfig{ClientCert: key, ClientKey: cert}, []string{"not a PEM certificate and its private key"}},
		{"a server name with spaces", TLSConfig{ServerName: "memoryd .test"}, []string{"TLS.ServerName"}},
		{"every mistake at once", TLSConfig{CACert: []byte("x"), ClientCert: cert}, []string{"TLS.CACert", "TLS.ClientKey"}},
	}
	for _, c := range cases {
		config := Config{TLS: &c.tls, MaxAttempts: 9}
		_, err := NewClient(config)
		if err == nil {
			t.Errorf("%s: NewClient succeeded", c.name)
			continue
		}
		for _, says := range append(c.says, "MaxAttempts") {
			if !strings.Contains(err.Error(), says) {
				t.Errorf("%s: %v, want it to say %q", c.name, err, says)
			}
		}
	}
	valid := []TLSConfig{
		{},
		{CACert: ca.certPEM},
		{CACert: ca.certPEM, ClientCert: cert, ClientKey: key, ServerName: "localhost"},
	}
	for _, material := range valid {
		client, err := NewClient(Config{TLS: &material})
		if err != nil {
			t.Errorf("NewClient(%+v): %v", material, err)
			continue
		}
		client.Close()
	}
}
