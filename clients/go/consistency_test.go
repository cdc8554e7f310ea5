package memoryd

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// The keys are exactly the Python client's (memoryd_client/_scope_keys.py).
func TestScopeKeys(t *testing.T) {
	scope := func(user, agent, app string) *memorydv1.Scope {
		return &memorydv1.Scope{UserId: user, AgentId: agent, AppId: app, ThreadId: "t"}
	}
	cases := []struct {
		name              string
		scope             *memorydv1.Scope
		write, forget, rd []string
	}{
		{"user", scope("u", "a", "p"), []string{"user\x1fu"}, []string{"user\x1fu"}, []string{"user\x1fu"}},
		{"agent", scope("", "a", ""), []string{"agent\x1fa"}, []string{"agent\x1fa", "app\x1f*"}, []string{"agent\x1fa", "agent\x1f*"}},
		{"app", scope("", "", "p"), []string{"app\x1fp"}, []string{"app\x1fp", "agent\x1f*"}, []string{"app\x1fp", "app\x1f*"}},
		{"agent+app", scope("", "a", "p"), []string{"agent\x1fa", "app\x1fp"}, []string{"agent\x1fa", "app\x1fp"}, []string{"agent\x1fa", "app\x1fp"}},
		{"own", scope("", "", ""), []string{"self"}, []string{"self"}, []string{"self"}},
		{"nil", nil, []string{"self"}, []string{"self"}, []string{"self"}},
	}
	for _, c := range cases {
		if got := scopeKeys(c.scope); !slices.Equal(got, c.write) {
			t.Errorf("%s: scopeKeys = %q, want %q", c.name, got, c.write)
		}
		if got := forgetKeys(c.scope); !slices.Equal(got, c.forget) {
			t.Errorf("%s: forgetKeys = %q, want %q", c.name, got, c.forget)
		}
		if got := readKeys(c.scope); !slices.Equal(got, c.rd) {
			t.Errorf("%s: readKeys = %q, want %q", c.name, got, c.rd)
		}
	}
	// A forget of an agent's memory across apps reaches a read of that agent's
	// memory with any app: they share the agent key.
	forget := writeKeysOf(&memorydv1.ForgetMemoriesRequest{Scope: scope("", "a", "")})
	read := readKeysOf(&memorydv1.SearchMemoriesRequest{Scope: scope("", "a", "p")})
	if !overlaps(forget, read) {
		t.Error("forget of agent a should reach reads of agent a in app p")
	}
	preload := readKeysOf(&memorydv1.PreloadRequest{UserScope: scope("u", "", ""), AgentScope: scope("", "a", "")})
	if !slices.Equal(preload, []string{"agent\x1f*", "agent\x1fa", "user\x1fu"}) {
		t.Errorf("preload keys = %q", preload)
	}
	batch := writeKeysOf(&memorydv1.BatchCreateMemoriesRequest{Requests: []*memorydv1.CreateMemoryRequest{
		{Memory: &memorydv1.Memory{Scope: scope("u", "", "")}},
		{Memory: &memorydv1.Memory{Scope: scope("v", "", "")}},
		{Memory: &memorydv1.Memory{Scope: scope("u", "", "")}},
	}})
	if !slices.Equal(batch, []string{"user\x1fu", "user\x1fv"}) {
		t.Errorf("batch keys = %q", batch)
	}
}

func TestTokensNewestPerKeyAndBounded(t *testing.T) {
	w := newScopeWrites(2)
	w.note([]string{"a"}, "t1")
	w.note([]string{"b"}, "t2")
	if got := w.tokenOf([]string{"a", "b"}); got != "t2" {
		t.Errorf("newest of a, b = %q, want t2", got)
	}
	w.note([]string{"a"}, "t3")
	if got := w.tokenOf([]string{"a", "b"}); got != "t3" {
		t.Errorf("newest of a, b = %q, want t3", got)
	}
	w.note([]string{"c"}, "t4") // evicts a, the least recently used (b was read after it)
	if got := w.tokenOf([]string{"a"}); got != "" {
		t.Errorf("a should be forgotten, has %q", got)
	}
	w.forgetToken("t2")
	if got := w.tokenOf([]string{"b"}); got != "" {
		t.Errorf("b should be forgotten, has %q", got)
	}
	if got := w.tokenOf([]string{"c"}); got != "t4" {
		t.Errorf("c = %q", got)
	}
}

func TestWaitForWritesInFlight(t *testing.T) {
	w := newScopeWrites(10)
	write := w.begin([]string{"user\x1fu"})

	// Another scope does not wait.
	if err := w.wait(context.Background(), []string{"user\x1fv"}); err != nil {
		t.Fatal(err)
	}
	// The same scope waits until the deadline, then fails with WRITE_IN_FLIGHT.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := w.wait(ctx, []string{"user\x1fu"})
	if !errors.Is(err, ErrWriteInFlight) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait = %v, want ErrWriteInFlight", err)
	}
	// Once answered, it is waited for no more, and its token is kept.
	go func() { time.Sleep(10 * time.Millisecond); w.finish(write, "tok") }()
	if err := w.wait(context.Background(), []string{"user\x1fu"}); err != nil {
		t.Fatal(err)
	}
	if got := w.tokenOf([]string{"user\x1fu"}); got != "tok" {
		t.Errorf("token = %q", got)
	}
}
