package memoryd

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// Client is a client of memoryd.v1.MemoryService. It is safe for concurrent
// use; create one per server and share it.
//
// Each method takes the generated request and returns the generated response
// (package github.com/memoryd/memoryd/clients/go/gen/memoryd/v1). Every call
// has a deadline (the context's, else Config.DefaultTimeout), is retried on
// UNAVAILABLE by gRPC's retry policy, and fails with an *Error. The client
// never changes a request it is given: it sends a copy when it adds a field.
//
// Writes (CreateMemory, BatchCreateMemories, UpdateMemory, DeleteMemory,
// ForgetMemories) without a request_id get a fresh UUID one, so gRPC's
// retries never apply a write twice; set request_id yourself to make your own
// retries idempotent too.
//
// Reads (GetMemory, ListMemories, SearchMemories, Preload) see this client's
// own writes: a read of a scope first waits for the client's writes into it
// that are still unanswered (within the read's deadline; past it the read
// fails with ErrWriteInFlight), and carries the newest write_token of that
// scope as consistency_token unless the request sets one.
type Client struct {
	conn   *grpc.ClientConn
	stub   memorydv1.MemoryServiceClient
	config Config
	writes *scopeWrites
}

// NewClient returns a client of the server at config.Address. It does not
// connect yet: the first call does, and calls fail with UNAVAILABLE while the
// server cannot be reached. It fails only for an invalid Config, with an
// error that says what to fix.
func NewClient(config Config) (*Client, error) {
	config, err := config.withDefaults()
	if err != nil {
		return nil, err
	}
	options, err := config.dialOptions()
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(config.Address, options...)
	if err != nil {
		return nil, fmt.Errorf("memoryd: invalid Config: Address %q: %w", config.Address, err)
	}
	return &Client{
		conn:   conn,
		stub:   memorydv1.NewMemoryServiceClient(conn),
		config: config,
		writes: newScopeWrites(maxScopeKeys),
	}, nil
}

// Close closes the connection; calls in flight fail with CANCELLED.
func (c *Client) Close() error { return c.conn.Close() }

// Config returns the client's configuration, with defaults filled in.
func (c *Client) Config() Config { return c.config }

// Stub returns the generated client the Client calls through: it shares the
// connection, token, retries and tracing, but none of the deadlines, request
// ids, read-your-writes or typed errors.
func (c *Client) Stub() memorydv1.MemoryServiceClient { return c.stub }

// NoteWrite makes later reads of scope carry writeToken as their
// consistency_token, for a write another client or service made and passed on.
func (c *Client) NoteWrite(scope *memorydv1.Scope, writeToken string) {
	c.writes.note(dedup(scopeKeys(scope)), writeToken)
}

// CreateMemory stores a memory (see the contract for memory_key and
// near-duplicate semantics).
func (c *Client) CreateMemory(ctx context.Context, req *memorydv1.CreateMemoryRequest) (*memorydv1.CreateMemoryResponse, error) {
	return write(c, ctx, req, c.stub.CreateMemory)
}

// BatchCreateMemories stores up to 100 memories as one write.
func (c *Client) BatchCreateMemories(ctx context.Context, req *memorydv1.BatchCreateMemoriesRequest) (*memorydv1.BatchCreateMemoriesResponse, error) {
	return write(c, ctx, req, c.stub.BatchCreateMemories)
}

// UpdateMemory changes the fields of a memory named in update_mask.
func (c *Client) UpdateMemory(ctx context.Context, req *memorydv1.UpdateMemoryRequest) (*memorydv1.UpdateMemoryResponse, error) {
	return write(c, ctx, req, c.stub.UpdateMemory)
}

// DeleteMemory deletes one memory.
func (c *Client) DeleteMemory(ctx context.Context, req *memorydv1.DeleteMemoryRequest) (*memorydv1.DeleteMemoryResponse, error) {
	return write(c, ctx, req, c.stub.DeleteMemory)
}

// ForgetMemories deletes (or with dry_run counts) the memories of a scope
// that match the request's selection.
func (c *Client) ForgetMemories(ctx context.Context, req *memorydv1.ForgetMemoriesRequest) (*memorydv1.ForgetMemoriesResponse, error) {
	return write(c, ctx, req, c.stub.ForgetMemories)
}

// GetMemory returns one memory; ErrMemoryNotFound if it is not in that scope.
func (c *Client) GetMemory(ctx context.Context, req *memorydv1.GetMemoryRequest) (*memorydv1.GetMemoryResponse, error) {
	return read(c, ctx, req, c.stub.GetMemory)
}

// ListMemories returns one page of the memories of a scope, newest first.
// ListAll iterates over every page.
func (c *Client) ListMemories(ctx context.Context, req *memorydv1.ListMemoriesRequest) (*memorydv1.ListMemoriesResponse, error) {
	return read(c, ctx, req, c.stub.ListMemories)
}

// SearchMemories returns the memories of a scope closest in meaning to a query.
func (c *Client) SearchMemories(ctx context.Context, req *memorydv1.SearchMemoriesRequest) (*memorydv1.SearchMemoriesResponse, error) {
	return read(c, ctx, req, c.stub.SearchMemories)
}

// GetWriteStatus returns where a write stands; ErrUnknownWriteToken for a
// token the server does not know.
func (c *Client) GetWriteStatus(ctx context.Context, req *memorydv1.GetWriteStatusRequest) (*memorydv1.GetWriteStatusResponse, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	response, err := c.stub.GetWriteStatus(ctx, req)
	return response, asError(err)
}

// ListAll iterates over every memory the list request selects, newest first,
// page by page (page_size is the page size). Each page is one ListMemories
// call with its own deadline when ctx has none. Iteration stops at the first
// error, which it yields.
//
//	for memory, err := range client.ListAll(ctx, &memorydv1.ListMemoriesRequest{Scope: scope}) {
//		if err != nil { return err }
//		fmt.Println(memory.GetContent())
//	}
func (c *Client) ListAll(ctx context.Context, req *memorydv1.ListMemoriesRequest) iter.Seq2[*memorydv1.Memory, error] {
	return func(yield func(*memorydv1.Memory, error) bool) {
		page := clone(req)
		for {
			response, err := c.ListMemories(ctx, page)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, memory := range response.GetMemories() {
				if !yield(memory, nil) {
					return
				}
			}
			if response.GetNextPageToken() == "" {
				return
			}
			page.PageToken = response.GetNextPageToken()
		}
	}
}

// WaitForWrite polls GetWriteStatus until the write of writeToken is applied
// and returns its status. It fails with the write's own error (wrapped, so
// errors.As finds the *Error) if the write was rejected when applied, and with
// DEADLINE_EXCEEDED if it is still pending when the deadline (ctx's, else
// Config.DefaultTimeout) passes.
func (c *Client) WaitForWrite(ctx context.Context, writeToken string) (*memorydv1.GetWriteStatusResponse, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	pause := 5 * time.Millisecond
	for {
		response, err := c.GetWriteStatus(ctx, &memorydv1.GetWriteStatusRequest{WriteToken: writeToken})
		if err != nil {
			return nil, err
		}
		switch response.GetState() {
		case memorydv1.WriteState_WRITE_STATE_APPLIED:
			return response, nil
		case memorydv1.WriteState_WRITE_STATE_FAILED:
			cause := ErrorFromStatus(response.GetError())
			if cause == nil {
				cause = errorOf(status.New(codes.Unknown, "the write failed without a status"))
			}
			return response, fmt.Errorf("memoryd: write %s failed: %w", writeToken, cause)
		}
		select {
		case <-time.After(pause):
			pause = min(pause*2, 200*time.Millisecond)
		case <-ctx.Done():
			return nil, asError(status.Errorf(status.FromContextError(ctx.Err()).Code(),
				"write %s is still pending: %v", writeToken, ctx.Err()))
		}
	}
}

// withDeadline returns ctx with the default deadline if it has none.
func (c *Client) withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.config.DefaultTimeout)
}

type call[Req, Resp any] func(context.Context, Req, ...grpc.CallOption) (Resp, error)

type writeRequest interface {
	proto.Message
	GetRequestId() string
}

type writeResponse interface {
	GetWriteToken() string
}

// write sends a write with a request_id, as a write in flight into its scopes
// until it is answered, and remembers its write_token.
func write[Req writeRequest, Resp writeResponse](c *Client, ctx context.Context, req Req, send call[Req, Resp]) (Resp, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	sent := req
	if req.GetRequestId() == "" {
		sent = withString(req, "request_id", uuid.NewString())
	}
	inFlight := c.writes.begin(writeKeysOf(sent))
	var token string
	defer func() { c.writes.finish(inFlight, token) }()
	response, err := send(ctx, sent)
	if err != nil {
		var zero Resp
		return zero, asError(err)
	}
	token = response.GetWriteToken()
	return response, nil
}

type readRequest interface {
	proto.Message
	GetConsistencyToken() string
}

// read waits for this client's writes in flight into the request's scope,
// then sends it with the scope's newest write_token, and once more without
// it if the server refuses that token.
func read[Req readRequest, Resp any](c *Client, ctx context.Context, req Req, send call[Req, Resp]) (Resp, error) {
	ctx, cancel := c.withDeadline(ctx)
	defer cancel()
	var zero Resp
	sent, token, err := prepareRead(c, ctx, req)
	if err != nil {
		return zero, err
	}
	response, err := send(ctx, sent)
	if err != nil && c.refused(token, err) {
		response, err = send(ctx, req)
	}
	if err != nil {
		return zero, asError(err)
	}
	return response, nil
}

// prepareRead waits for the writes in flight into the scope of req, and
// returns the request to send and the token the client added to it ("" if none).
func prepareRead[Req readRequest](c *Client, ctx context.Context, req Req) (Req, string, error) {
	keys := readKeysOf(req)
	if err := c.writes.wait(ctx, keys); err != nil {
		return req, "", err
	}
	if req.GetConsistencyToken() != "" {
		// The caller's token may name a write this client cannot know of.
		return req, "", nil
	}
	token := c.writes.tokenOf(keys)
	if token == "" {
		return req, "", nil
	}
	return withString(req, "consistency_token", token), token, nil
}

// refused reports whether err is the server refusing the consistency_token
// the client added (another server's, or a replaced data directory's), and
// then forgets that token: the read is sent again without it.
func (c *Client) refused(token string, err error) bool {
	if token == "" {
		return false
	}
	var e *Error
	if !errors.As(asError(err), &e) || e.Code != codes.InvalidArgument {
		return false
	}
	for _, violation := range e.FieldViolations {
		if violation.Field == "consistency_token" {
			c.writes.forgetToken(token)
			return true
		}
	}
	return false
}

// clone returns a copy of m; a nil m gives an empty message.
func clone[M proto.Message](m M) M {
	if !m.ProtoReflect().IsValid() {
		return m.ProtoReflect().Type().New().Interface().(M)
	}
	return proto.Clone(m).(M)
}

// withString returns a copy of m with its string field name set to value.
func withString[M proto.Message](m M, name protoreflect.Name, value string) M {
	copied := clone(m)
	message := copied.ProtoReflect()
	message.Set(message.Descriptor().Fields().ByName(name), protoreflect.ValueOfString(value))
	return copied
}
