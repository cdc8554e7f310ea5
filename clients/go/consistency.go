package memoryd

// Read-your-writes in the client: a read of a scope waits for this client's
// writes into it.
//
// memoryd makes every read wait until the writes already acknowledged in its
// scope are indexed. What no server can see is a write still on its way: one
// whose RPC is sent but not yet answered. So a Client keeps, per scope key:
//
//   - the writes in flight: a read of the scope first waits until each of them
//     is answered, bounded by the read's own deadline (past it the read fails
//     with ErrWriteInFlight rather than return stale results);
//   - the newest acknowledged write_token: a read of the scope carries it as
//     consistency_token, so the server waits for that very write as well.
//
// Scopes are keyed as the server keys them, and exactly as the Python client
// does (memoryd_client/_scope_keys.py): a user's memory by user_id alone, shared
// memory by its agent_id and by its app_id, a forget of shared memory that
// leaves out the app (or the agent) also by a wildcard that the reads it reaches
// consult, and a scope with no ids at all (the credential's own user, filled in
// by the server) by a key of its own.
//
// Memory stays bounded: one token per key, and beyond maxScopeKeys keys the
// least recently used are forgotten; the server's own per-scope wait still
// covers their writes. A token the server refuses (one of another server, or
// of a data directory that was replaced) is forgotten and the read is sent
// again without it.

import (
	"container/list"
	"context"
	"slices"
	"sync"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// maxScopeKeys is how many scope keys a client remembers tokens for.
const maxScopeKeys = 10_000

const (
	keySep   = "\x1f"
	ownScope = "self"
	// A forget of shared memory without an app_id (agent_id) reaches every
	// app's (agent's) shared memory.
	everyApp   = "app" + keySep + "*"
	everyAgent = "agent" + keySep + "*"
)

// scopeKeys returns the keys a write to scope touches.
func scopeKeys(s *memorydv1.Scope) []string {
	if s.GetUserId() != "" {
		return []string{"user" + keySep + s.GetUserId()}
	}
	var keys []string
	if s.GetAgentId() != "" {
		keys = append(keys, "agent"+keySep+s.GetAgentId())
	}
	if s.GetAppId() != "" {
		keys = append(keys, "app"+keySep+s.GetAppId())
	}
	if len(keys) == 0 {
		return []string{ownScope}
	}
	return keys
}

func isShared(s *memorydv1.Scope) bool {
	return s.GetUserId() == "" && (s.GetAgentId() != "" || s.GetAppId() != "")
}

// forgetKeys returns the keys a ForgetMemories of scope touches.
func forgetKeys(s *memorydv1.Scope) []string {
	keys := scopeKeys(s)
	if !isShared(s) {
		return keys
	}
	if s.GetAppId() == "" {
		keys = append(keys, everyApp)
	}
	if s.GetAgentId() == "" {
		keys = append(keys, everyAgent)
	}
	return keys
}

// readKeys returns the keys a read of scope consults: its own, and the
// wildcards of the forgets that reach it.
func readKeys(s *memorydv1.Scope) []string {
	keys := scopeKeys(s)
	if !isShared(s) {
		return keys
	}
	if s.GetAppId() != "" && s.GetAgentId() == "" {
		keys = append(keys, everyApp)
	}
	if s.GetAgentId() != "" && s.GetAppId() == "" {
		keys = append(keys, everyAgent)
	}
	return keys
}

func dedup(keys []string) []string {
	slices.Sort(keys)
	return slices.Compact(keys)
}

// readKeysOf returns the keys a read request (Get, List, Search, Preload) consults.
func readKeysOf(request any) []string {
	switch r := request.(type) {
	case *memorydv1.GetMemoryRequest:
		return dedup(readKeys(r.GetScope()))
	case *memorydv1.ListMemoriesRequest:
		return dedup(readKeys(r.GetScope()))
	case *memorydv1.SearchMemoriesRequest:
		return dedup(readKeys(r.GetScope()))
	case *memorydv1.PreloadRequest:
		keys := readKeys(r.GetUserScope())
		if r.GetAgentScope() != nil {
			keys = append(keys, readKeys(r.GetAgentScope())...)
		}
		return dedup(keys)
	}
	return nil
}

// writeKeysOf returns the keys a write request (Create, BatchCreate, Update,
// Delete, Forget) touches.
func writeKeysOf(request any) []string {
	var keys []string
	switch r := request.(type) {
	case *memorydv1.CreateMemoryRequest:
		keys = scopeKeys(r.GetMemory().GetScope())
	case *memorydv1.BatchCreateMemoriesRequest:
		for _, item := range r.GetRequests() {
			keys = append(keys, scopeKeys(item.GetMemory().GetScope())...)
		}
	case *memorydv1.UpdateMemoryRequest:
		keys = scopeKeys(r.GetMemory().GetScope())
	case *memorydv1.DeleteMemoryRequest:
		keys = scopeKeys(r.GetScope())
	case *memorydv1.ForgetMemoriesRequest:
		keys = forgetKeys(r.GetScope())
	}
	return dedup(keys)
}

func overlaps(a, b []string) bool {
	for _, key := range a {
		if slices.Contains(b, key) {
			return true
		}
	}
	return false
}

// inFlightWrite is one write RPC that has been sent and not yet answered.
type inFlightWrite struct {
	keys []string
	done chan struct{}
}

type tokenEntry struct {
	key   string
	order uint64 // the order the token arrived in: higher is newer
	token string
}

// scopeWrites holds a client's writes in flight and the newest write_token per
// scope key. Safe for concurrent use.
type scopeWrites struct {
	mu       sync.Mutex
	maxKeys  int
	order    uint64
	tokens   map[string]*list.Element // of *tokenEntry, in lru
	lru      *list.List               // least recently used first
	inFlight map[*inFlightWrite]struct{}
}

func newScopeWrites(maxKeys int) *scopeWrites {
	return &scopeWrites{
		maxKeys:  maxKeys,
		tokens:   map[string]*list.Element{},
		lru:      list.New(),
		inFlight: map[*inFlightWrite]struct{}{},
	}
}

// begin records a write about to be sent; call finish once it is answered.
func (w *scopeWrites) begin(keys []string) *inFlightWrite {
	write := &inFlightWrite{keys: keys, done: make(chan struct{})}
	w.mu.Lock()
	w.inFlight[write] = struct{}{}
	w.mu.Unlock()
	return write
}

// finish marks a write answered, with its write_token ("" if it failed).
func (w *scopeWrites) finish(write *inFlightWrite, writeToken string) {
	w.mu.Lock()
	delete(w.inFlight, write)
	if writeToken != "" {
		w.remember(write.keys, writeToken)
	}
	w.mu.Unlock()
	close(write.done)
}

// note makes later reads of keys carry writeToken.
func (w *scopeWrites) note(keys []string, writeToken string) {
	if writeToken == "" {
		return
	}
	w.mu.Lock()
	w.remember(keys, writeToken)
	w.mu.Unlock()
}

// remember needs w.mu held.
func (w *scopeWrites) remember(keys []string, writeToken string) {
	w.order++
	for _, key := range keys {
		if element, ok := w.tokens[key]; ok {
			entry := element.Value.(*tokenEntry)
			entry.order, entry.token = w.order, writeToken
			w.lru.MoveToBack(element)
			continue
		}
		w.tokens[key] = w.lru.PushBack(&tokenEntry{key: key, order: w.order, token: writeToken})
	}
	for w.lru.Len() > w.maxKeys {
		oldest := w.lru.Front()
		delete(w.tokens, oldest.Value.(*tokenEntry).key)
		w.lru.Remove(oldest)
	}
}

// tokenOf returns the newest write_token of a write into any of keys; "" if none.
func (w *scopeWrites) tokenOf(keys []string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var newest *tokenEntry
	for _, key := range keys {
		if element, ok := w.tokens[key]; ok {
			w.lru.MoveToBack(element)
			if entry := element.Value.(*tokenEntry); newest == nil || entry.order > newest.order {
				newest = entry
			}
		}
	}
	if newest == nil {
		return ""
	}
	return newest.token
}

// forgetToken forgets a token wherever it is kept (the server refused it).
func (w *scopeWrites) forgetToken(writeToken string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for key, element := range w.tokens {
		if element.Value.(*tokenEntry).token == writeToken {
			delete(w.tokens, key)
			w.lru.Remove(element)
		}
	}
}

// wait blocks until the writes in flight into any of keys are answered, or ctx
// ends (then it returns an *Error with ReasonWriteInFlight).
func (w *scopeWrites) wait(ctx context.Context, keys []string) error {
	w.mu.Lock()
	var pending []*inFlightWrite
	for write := range w.inFlight {
		if overlaps(write.keys, keys) {
			pending = append(pending, write)
		}
	}
	w.mu.Unlock()
	for _, write := range pending {
		select {
		case <-write.done:
		case <-ctx.Done():
			return writeInFlight(ctx)
		}
	}
	return nil
}
