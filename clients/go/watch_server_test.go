package memoryd

import (
	"context"
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// Watch against a real memoryd: changes made through the same client arrive
// as events, a watch resumes after a sequence, and a resume outside the kept
// history is ErrChangeHistoryExpired.
func TestWatchAgainstARealServer(t *testing.T) {
	server := startServer(t)
	client, err := NewClient(Config{Address: server.Address, DefaultTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("sees a memory created after started, then resumes with only later changes", func(t *testing.T) {
		scope := &memorydv1.Scope{UserId: "watch-" + uuid.NewString()}
		next, stop := iter.Pull2(client.Watch(ctx, &memorydv1.WatchMemoriesRequest{Scope: scope}))
		defer stop()
		started := nextEvent(t, next).GetStarted()
		if started == nil {
			t.Fatal("the first event is not started")
		}
		first := store(t, client, ctx, scope, "The user lives in Lisbon and works remotely")
		created := nextEvent(t, next).GetChange()
		stop() // ends the call
		if created.GetType() != memorydv1.ChangeType_CHANGE_TYPE_CREATED || created.GetMemory().GetId() != first ||
			created.GetSequence() <= started.GetAfterSequence() || created.GetChangeTime() == nil {
			t.Fatalf("change %v after started %v, want CREATED of %s with a later sequence", created, started, first)
		}

		second := store(t, client, ctx, scope, "The user's favourite editor is Emacs")
		third := store(t, client, ctx, scope, "The user is allergic to peanuts")
		next, stop = iter.Pull2(client.Watch(ctx, &memorydv1.WatchMemoriesRequest{
			Scope: scope, StartAfterSequence: proto.Int64(created.GetSequence()),
		}))
		defer stop()
		if got := nextEvent(t, next).GetStarted().GetAfterSequence(); got != created.GetSequence() {
			t.Fatalf("resumed watch started after %d, want %d", got, created.GetSequence())
		}
		previous := created.GetSequence()
		for _, id := range []string{second, third} {
			change := nextEvent(t, next).GetChange()
			if change.GetType() != memorydv1.ChangeType_CHANGE_TYPE_CREATED || change.GetMemory().GetId() != id ||
				change.GetSequence() <= previous {
				t.Fatalf("change %v, want CREATED of %s after sequence %d", change, id, previous)
			}
			previous = change.GetSequence()
		}
	})

	t.Run("a resume far past the end of the history is ErrChangeHistoryExpired", func(t *testing.T) {
		scope := &memorydv1.Scope{UserId: "watch-" + uuid.NewString()}
		req := &memorydv1.WatchMemoriesRequest{Scope: scope, StartAfterSequence: proto.Int64(1 << 60)}
		var failures []error
		for event, err := range client.Watch(ctx, req) {
			if err == nil {
				t.Fatalf("unexpected event %v", event)
			}
			failures = append(failures, err)
		}
		var e *Error
		if len(failures) != 1 || !errors.Is(failures[0], ErrChangeHistoryExpired) ||
			!errors.As(failures[0], &e) || e.Code != codes.OutOfRange {
			t.Fatalf("failures = %v, want one OUT_OF_RANGE (CHANGE_HISTORY_EXPIRED)", failures)
		}
	})
}

func nextEvent(t *testing.T, next func() (*memorydv1.WatchMemoriesResponse, error, bool)) *memorydv1.WatchMemoriesResponse {
	t.Helper()
	event, err, ok := next()
	if !ok {
		t.Fatal("the watch ended early")
	}
	if err != nil {
		t.Fatal(err)
	}
	return event
}

func store(t *testing.T, client *Client, ctx context.Context, scope *memorydv1.Scope, content string) string {
	t.Helper()
	created, err := client.CreateMemory(ctx, &memorydv1.CreateMemoryRequest{
		Memory: &memorydv1.Memory{Content: content, Scope: scope}, Mode: memorydv1.WriteMode_WRITE_MODE_SYNC,
	})
	if err != nil {
		t.Fatal(err)
	}
	return created.GetMemory().GetId()
}
