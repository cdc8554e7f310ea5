package memoryd

import (
	"context"
	"errors"
	"io"
	"iter"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// Watch streams the changes to the memories of a scope, as the events of the
// WatchMemories RPC in the order they arrive. Each WatchMemoriesResponse holds
// one event:
//
//   - GetStarted(): the first event; AfterSequence is the sequence the stream
//     continues after;
//   - GetChange(): an applied change (Sequence, Type CREATED, UPDATED, DELETED
//     or EXPIRED, Memory, ChangeTime), in sequence order;
//   - GetFellBehind(): the last event of a consumer that read too slowly;
//     resume with StartAfterSequence set to its ResumeAfterSequence.
//
// Events this client does not know (a newer server's) are skipped. Set
// req.StartAfterSequence (proto.Int64(n)) to resume after the last sequence
// received; unset means from now on. A sequence outside the change history
// the server keeps fails with ErrChangeHistoryExpired.
//
// Watch has no deadline of its own (Config.DefaultTimeout does not apply): it
// runs until ctx ends, the caller breaks out of the loop (which cancels the
// call), or the server ends the stream (after fell_behind, or when it shuts
// down). A failed call, a cancelled ctx included (errors.Is(err,
// context.Canceled)), yields one final (nil, *Error). UNAVAILABLE before the
// first event is retried by the retry policy, as for every call.
//
//	for event, err := range client.Watch(ctx, &memorydv1.WatchMemoriesRequest{Scope: scope}) {
//		if err != nil { return err }
//		if change := event.GetChange(); change != nil { last = change.GetSequence() }
//	}
func (c *Client) Watch(ctx context.Context, req *memorydv1.WatchMemoriesRequest) iter.Seq2[*memorydv1.WatchMemoriesResponse, error] {
	return func(yield func(*memorydv1.WatchMemoriesResponse, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel() // also ends the stream when the caller stops early
		stream, err := c.stub.WatchMemories(ctx, req)
		if err != nil {
			yield(nil, asError(err))
			return
		}
		for {
			event, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(nil, asError(err))
				return
			}
			if event.GetEvent() == nil {
				continue
			}
			if !yield(event, nil) {
				return
			}
		}
	}
}
