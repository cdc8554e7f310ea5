package memoryd

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// realServer is a memoryd server process for the tests that need one.
type realServer struct {
	Address string
	cmd     *exec.Cmd
	mu      sync.Mutex
	log     strings.Builder
}

func (s *realServer) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

var listening = regexp.MustCompile(`memoryd listening on [^\s:]+:(\d+)`)

// startServer runs `memoryd serve` (the repository's .venv/bin/memoryd, or
// MEMORYD_BIN) on a free loopback port with a data directory of its own, and
// stops it (SIGTERM, expecting exit code 0) when the test ends.
func startServer(t *testing.T) *realServer {
	t.Helper()
	bin := os.Getenv("MEMORYD_BIN")
	if bin == "" {
		bin = filepath.Join("..", "..", ".venv", "bin", "memoryd")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no memoryd at %s: run 'make install' at the repository root, or set MEMORYD_BIN", bin)
	}
	server := &realServer{}
	server.cmd = exec.Command(bin, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", t.TempDir())
	server.cmd.Env = append(os.Environ(), "MEMORYD_LOG_LEVEL=INFO")
	out, err := server.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	server.cmd.Stderr = server.cmd.Stdout
	if err := server.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	port := make(chan string, 1)
	go server.read(out, port)
	t.Cleanup(func() {
		_ = server.cmd.Process.Signal(syscall.SIGTERM)
		if err := server.cmd.Wait(); err != nil {
			t.Errorf("memoryd did not stop cleanly: %v\n%s", err, server.output())
		}
	})
	select {
	case p, ok := <-port:
		if !ok {
			t.Fatalf("memoryd exited before it listened:\n%s", server.output())
		}
		server.Address = "127.0.0.1:" + p
	case <-time.After(2 * time.Minute):
		t.Fatalf("memoryd did not start in time:\n%s", server.output())
	}
	return server
}

// read keeps the server's log and sends the port it listens on; it closes
// port when the output ends without one.
func (s *realServer) read(out io.Reader, port chan<- string) {
	found := false
	scanner := bufio.NewScanner(out)
	for scanner.Scan() {
		line := scanner.Text()
		s.mu.Lock()
		s.log.WriteString(line + "\n")
		s.mu.Unlock()
		if match := listening.FindStringSubmatch(line); match != nil && !found {
			found = true
			port <- match[1]
		}
	}
	if !found {
		close(port)
	}
}
