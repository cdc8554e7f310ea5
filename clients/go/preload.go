package memoryd

import (
	"context"
	"errors"
	"io"
	"iter"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// ErrNotModified is PreloadContext's error when the request's if_none_match
// still holds: nothing was searched, and the context block of that etag is
// still current.
var ErrNotModified = errors.New("memoryd: preload not modified: the context block of if_none_match is still current")

// Preload streams the memories relevant to a conversation, as the events of
// the Preload RPC in the order they arrive: one hits event per scope, then
// context, then done; or a single not_modified when if_none_match still holds.
// Each PreloadResponse holds one event (GetHits, GetContext, GetDone,
// GetNotModified); events this client does not know (a newer server's) are
// skipped.
//
// The deadline (ctx's, else Config.DefaultTimeout) bounds the whole stream;
// near it the server sends what is ready and marks done as partial. A failed
// call yields one final (nil, *Error). Breaking out of the loop cancels the
// call. Like every read, Preload first waits for this client's writes into
// its scopes and carries their newest write_token.
//
//	for event, err := range client.Preload(ctx, req) {
//		if err != nil { return err }
//		if block := event.GetContext(); block != nil { prompt = block.GetText() }
//	}
func (c *Client) Preload(ctx context.Context, req *memorydv1.PreloadRequest) iter.Seq2[*memorydv1.PreloadResponse, error] {
	return func(yield func(*memorydv1.PreloadResponse, error) bool) {
		ctx, cancel := c.withDeadline(ctx)
		defer cancel() // also ends the stream when the caller stops early
		sent, token, err := prepareRead(c, ctx, req)
		if err != nil {
			yield(nil, err)
			return
		}
		for {
			started, err := c.preloadOnce(ctx, sent, yield)
			if err == nil {
				return
			}
			if !started && c.refused(token, err) {
				sent, token = req, ""
				continue
			}
			yield(nil, asError(err))
			return
		}
	}
}

// preloadOnce runs one Preload call, yielding its events; started tells
// whether any event was yielded before err. A nil err means the stream ended
// (or the caller stopped).
func (c *Client) preloadOnce(ctx context.Context, req *memorydv1.PreloadRequest,
	yield func(*memorydv1.PreloadResponse, error) bool) (started bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.stub.Preload(ctx, req)
	if err != nil {
		return false, err
	}
	for {
		event, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return started, nil
		}
		if err != nil {
			return started, err
		}
		if event.GetEvent() == nil {
			continue
		}
		started = true
		if !yield(event, nil) {
			return true, nil
		}
	}
}

// PreloadContext runs Preload and returns its context block, ready to be a
// system message ("" when no memory is included, and always for the PLAIN
// format). It fails with ErrNotModified when if_none_match still holds, and
// with the call's *Error when the stream fails.
func (c *Client) PreloadContext(ctx context.Context, req *memorydv1.PreloadRequest) (string, error) {
	text := ""
	for event, err := range c.Preload(ctx, req) {
		if err != nil {
			return "", err
		}
		switch {
		case event.GetContext() != nil:
			text = event.GetContext().GetText()
		case event.GetNotModified() != nil:
			return "", ErrNotModified
		}
	}
	return text, nil
}
