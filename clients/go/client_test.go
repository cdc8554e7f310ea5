package memoryd

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// fakeServer records what it is sent and answers as its hooks say.
type fakeServer struct {
	memorydv1.UnimplementedMemoryServiceServer

	mu        sync.Mutex
	requests  []proto.Message
	metadata  []metadata.MD
	deadlines []bool
	tokens    int

	createHook func(*memorydv1.CreateMemoryRequest) error // nil: succeed
	searchHook func(*memorydv1.SearchMemoriesRequest) error
	listPages  int
	preload    []*memorydv1.PreloadResponse
	preloadErr error
	watch      []*memorydv1.WatchMemoriesResponse
	watchErr   error
	// watchHeld, when set, keeps a watch open after its events until the
	// client cancels it, and is closed then.
	watchHeld chan struct{}
}

func (f *fakeServer) record(ctx context.Context, req proto.Message) {
	md, _ := metadata.FromIncomingContext(ctx)
	_, hasDeadline := ctx.Deadline()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, proto.Clone(req))
	f.metadata = append(f.metadata, md)
	f.deadlines = append(f.deadlines, hasDeadline)
}

func (f *fakeServer) token() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens++
	return "w-" + strconv.Itoa(f.tokens)
}

func (f *fakeServer) sent() []proto.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]proto.Message(nil), f.requests...)
}

func (f *fakeServer) CreateMemory(ctx context.Context, req *memorydv1.CreateMemoryRequest) (*memorydv1.CreateMemoryResponse, error) {
	f.record(ctx, req)
	if f.createHook != nil {
		if err := f.createHook(req); err != nil {
			return nil, err
		}
	}
	return &memorydv1.CreateMemoryResponse{Memory: req.GetMemory(), WriteToken: f.token()}, nil
}

func (f *fakeServer) ForgetMemories(ctx context.Context, req *memorydv1.ForgetMemoriesRequest) (*memorydv1.ForgetMemoriesResponse, error) {
	f.record(ctx, req)
	return &memorydv1.ForgetMemoriesResponse{WriteToken: f.token()}, nil
}

func (f *fakeServer) SearchMemories(ctx context.Context, req *memorydv1.SearchMemoriesRequest) (*memorydv1.SearchMemoriesResponse, error) {
	f.record(ctx, req)
	if f.searchHook != nil {
		if err := f.searchHook(req); err != nil {
			return nil, err
		}
	}
	return &memorydv1.SearchMemoriesResponse{}, nil
}

func (f *fakeServer) GetMemory(ctx context.Context, req *memorydv1.GetMemoryRequest) (*memorydv1.GetMemoryResponse, error) {
	f.record(ctx, req)
	return &memorydv1.GetMemoryResponse{Memory: &memorydv1.Memory{Id: req.GetId()}}, nil
}

func (f *fakeServer) ListMemories(ctx context.Context, req *memorydv1.ListMemoriesRequest) (*memorydv1.ListMemoriesResponse, error) {
	f.record(ctx, req)
	page := 0
	if req.GetPageToken() != "" {
		page, _ = strconv.Atoi(req.GetPageToken())
	}
	response := &memorydv1.ListMemoriesResponse{Memories: []*memorydv1.Memory{
		{Id: strconv.Itoa(2 * page)}, {Id: strconv.Itoa(2*page + 1)},
	}}
	if page+1 < f.listPages {
		response.NextPageToken = strconv.Itoa(page + 1)
	}
	return response, nil
}

func (f *fakeServer) Preload(req *memorydv1.PreloadRequest, stream grpc.ServerStreamingServer[memorydv1.PreloadResponse]) error {
	f.record(stream.Context(), req)
	for _, event := range f.preload {
		if err := stream.Send(event); err != nil {
			return err
		}
	}
	return f.preloadErr
}

// newTestClient serves f in memory and returns a client of it.
func newTestClient(t *testing.T, f *fakeServer, config Config) *Client {
	t.Helper()
	listener := bufconn.Listen(1 << 20)
	server := grpc.NewServer()
	memorydv1.RegisterMemoryServiceServer(server, f)
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	config.Address = "passthrough:///fake"
	config.DialOptions = append(config.DialOptions, grpc.WithContextDialer(
		func(ctx context.Context, _ string) (net.Conn, error) { return listener.DialContext(ctx) }))
	client, err := NewClient(config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

func userScope(id string) *memorydv1.Scope { return &memorydv1.Scope{UserId: id} }

func create(content string, scope *memorydv1.Scope) *memorydv1.CreateMemoryRequest {
	return &memorydv1.CreateMemoryRequest{Memory: &memorydv1.Memory{Content: content, Scope: scope}}
}

func TestWritesGetARequestIDAndTheCallersRequestIsUnchanged(t *testing.T) {
	f := &fakeServer{}
	client := newTestClient(t, f, Config{})
	req := create("x", userScope("u"))
	if _, err := client.CreateMemory(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if req.GetRequestId() != "" {
		t.Error("the caller's request was changed")
	}
	sent := f.sent()[0].(*memorydv1.CreateMemoryRequest)
	if len(sent.GetRequestId()) != 36 {
		t.Errorf("request_id = %q, want a UUID", sent.GetRequestId())
	}
	req.RequestId = "mine"
	if _, err := client.CreateMemory(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := f.sent()[1].(*memorydv1.CreateMemoryRequest).GetRequestId(); got != "mine" {
		t.Errorf("request_id = %q, want the caller's", got)
	}
}

func TestRetriesUnavailableWithTheSameRequestID(t *testing.T) {
	attempts := 0
	f := &fakeServer{createHook: func(*memorydv1.CreateMemoryRequest) error {
		attempts++
		if attempts < 3 {
			return status.Error(codes.Unavailable, "try again")
		}
		return nil
	}}
	client := newTestClient(t, f, Config{InitialBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond})
	if _, err := client.CreateMemory(context.Background(), create("x", userScope("u"))); err != nil {
		t.Fatal(err)
	}
	sent := f.sent()
	if len(sent) != 3 {
		t.Fatalf("%d attempts, want 3", len(sent))
	}
	first := sent[0].(*memorydv1.CreateMemoryRequest).GetRequestId()
	for _, s := range sent {
		if s.(*memorydv1.CreateMemoryRequest).GetRequestId() != first {
			t.Error("a retry changed the request_id")
		}
	}
}

func TestReadsCarryTheNewestTokenOfTheirScope(t *testing.T) {
	f := &fakeServer{}
	client := newTestClient(t, f, Config{})
	ctx := context.Background()
	mustCreate := func(scope *memorydv1.Scope) {
		if _, err := client.CreateMemory(ctx, create("x", scope)); err != nil {
			t.Fatal(err)
		}
	}
	mustCreate(userScope("u"))                            // w-1
	mustCreate(userScope("v"))                            // w-2
	mustCreate(&memorydv1.Scope{UserId: "u", AppId: "p"}) // w-3: still user u
	search := &memorydv1.SearchMemoriesRequest{Query: "q", Scope: userScope("u")}
	if _, err := client.SearchMemories(ctx, search); err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetMemory(ctx, &memorydv1.GetMemoryRequest{Id: "1", Scope: userScope("w")}); err != nil {
		t.Fatal(err)
	}
	search.ConsistencyToken = "callers"
	if _, err := client.SearchMemories(ctx, search); err != nil {
		t.Fatal(err)
	}
	sent := f.sent()
	if got := sent[3].(*memorydv1.SearchMemoriesRequest).GetConsistencyToken(); got != "w-3" {
		t.Errorf("search of u carries %q, want w-3", got)
	}
	if got := sent[4].(*memorydv1.GetMemoryRequest).GetConsistencyToken(); got != "" {
		t.Errorf("get of w carries %q, want none", got)
	}
	if got := sent[5].(*memorydv1.SearchMemoriesRequest).GetConsistencyToken(); got != "callers" {
		t.Errorf("the caller's token was replaced by %q", got)
	}
	for i, hasDeadline := range f.deadlines {
		if !hasDeadline {
			t.Errorf("call %d had no deadline", i)
		}
	}
	// A forget of agent a's memory across apps is seen by a read of agent a in app p.
	if _, err := client.ForgetMemories(ctx, &memorydv1.ForgetMemoriesRequest{Scope: &memorydv1.Scope{AgentId: "a"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.SearchMemories(ctx, &memorydv1.SearchMemoriesRequest{Query: "q", Scope: &memorydv1.Scope{AgentId: "a", AppId: "p"}}); err != nil {
		t.Fatal(err)
	}
	sent = f.sent()
	if got := sent[len(sent)-1].(*memorydv1.SearchMemoriesRequest).GetConsistencyToken(); got != "w-4" {
		t.Errorf("search after forget carries %q, want w-4", got)
	}
}

func TestARefusedTokenIsForgottenAndTheReadSentAgain(t *testing.T) {
	f := &fakeServer{searchHook: func(req *memorydv1.SearchMemoriesRequest) error {
		if req.GetConsistencyToken() == "" {
			return nil
		}
		s, _ := status.New(codes.InvalidArgument, "unknown token").WithDetails(
			&errdetails.ErrorInfo{Domain: Domain, Reason: "INVALID_ARGUMENT"},
			&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "consistency_token"}}})
		return s.Err()
	}}
	client := newTestClient(t, f, Config{})
	ctx := context.Background()
	if _, err := client.CreateMemory(ctx, create("x", userScope("u"))); err != nil {
		t.Fatal(err)
	}
	search := &memorydv1.SearchMemoriesRequest{Query: "q", Scope: userScope("u")}
	if _, err := client.SearchMemories(ctx, search); err != nil {
		t.Fatalf("the read failed for the client's own token: %v", err)
	}
	if _, err := client.SearchMemories(ctx, search); err != nil {
		t.Fatal(err)
	}
	sent := f.sent()
	if len(sent) != 4 || sent[3].(*memorydv1.SearchMemoriesRequest).GetConsistencyToken() != "" {
		t.Errorf("the refused token was not forgotten: %v", sent)
	}
	// The caller's own token is the caller's business: its error comes back.
	search.ConsistencyToken = "callers"
	_, err := client.SearchMemories(ctx, search)
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("err = %v, want INVALID_ARGUMENT", err)
	}
}

func TestAReadWaitsForTheClientsWriteInFlight(t *testing.T) {
	release := make(chan struct{})
	f := &fakeServer{createHook: func(*memorydv1.CreateMemoryRequest) error { <-release; return nil }}
	client := newTestClient(t, f, Config{})
	done := make(chan error)
	go func() {
		_, err := client.CreateMemory(context.Background(), create("x", userScope("u")))
		done <- err
	}()
	for len(f.sent()) == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err := client.GetMemory(ctx, &memorydv1.GetMemoryRequest{Id: "1", Scope: userScope("u")})
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.DeadlineExceeded || e.Reason != ReasonWriteInFlight {
		t.Fatalf("err = %v, want DEADLINE_EXCEEDED (WRITE_IN_FLIGHT)", err)
	}
	// Another user's read does not wait.
	if _, err := client.GetMemory(context.Background(), &memorydv1.GetMemoryRequest{Id: "1", Scope: userScope("v")}); err != nil {
		t.Fatal(err)
	}
	got := make(chan *memorydv1.GetMemoryRequest)
	go func() {
		_, _ = client.GetMemory(context.Background(), &memorydv1.GetMemoryRequest{Id: "1", Scope: userScope("u")})
		sent := f.sent()
		got <- sent[len(sent)-1].(*memorydv1.GetMemoryRequest)
	}()
	time.Sleep(10 * time.Millisecond)
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if token := (<-got).GetConsistencyToken(); token != "w-1" {
		t.Errorf("the read after the write carries %q, want w-1", token)
	}
}

func TestTokenAndTraceContextAreSent(t *testing.T) {
	previous := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTextMapPropagator(previous) })
	f := &fakeServer{}
	client := newTestClient(t, f, Config{Token: "k-123"})
	traceID, _ := trace.TraceIDFromHex("0af7651916cd43dd8448eb211c80319c")
	spanID, _ := trace.SpanIDFromHex("b7ad6b7169203331")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: traceID, SpanID: spanID, TraceFlags: trace.FlagsSampled,
	}))
	if _, err := client.GetMemory(ctx, &memorydv1.GetMemoryRequest{Id: "1", Scope: userScope("u")}); err != nil {
		t.Fatal(err)
	}
	for range client.Preload(ctx, &memorydv1.PreloadRequest{Query: "q", UserScope: userScope("u")}) {
	}
	for i, md := range f.metadata {
		if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer k-123" {
			t.Errorf("call %d: authorization = %q", i, got)
		}
		if got := md.Get("traceparent"); len(got) != 1 || got[0] != "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" {
			t.Errorf("call %d: traceparent = %q", i, got)
		}
	}
}

func TestListAllPages(t *testing.T) {
	f := &fakeServer{listPages: 3}
	client := newTestClient(t, f, Config{})
	req := &memorydv1.ListMemoriesRequest{Scope: userScope("u"), PageSize: 2}
	var ids []string
	for memory, err := range client.ListAll(context.Background(), req) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, memory.GetId())
	}
	if len(ids) != 6 || ids[5] != "5" || req.GetPageToken() != "" {
		t.Errorf("ids = %v, request = %v", ids, req)
	}
	// Stopping early stops paging.
	for range client.ListAll(context.Background(), req) {
		break
	}
	if len(f.sent()) != 4 {
		t.Errorf("%d pages fetched, want 4", len(f.sent()))
	}
}

func TestPreload(t *testing.T) {
	f := &fakeServer{preload: []*memorydv1.PreloadResponse{
		{Event: &memorydv1.PreloadResponse_Hits{Hits: &memorydv1.ScopeHits{Scope: memorydv1.PreloadScope_PRELOAD_SCOPE_USER}}},
		{Event: &memorydv1.PreloadResponse_Context{Context: &memorydv1.PreloadContext{Text: "[Long-term Memory Context]"}}},
		{Event: &memorydv1.PreloadResponse_Done{Done: &memorydv1.PreloadDone{Etag: "e"}}},
	}}
	client := newTestClient(t, f, Config{})
	req := &memorydv1.PreloadRequest{Query: "q", UserScope: userScope("u")}
	var events []*memorydv1.PreloadResponse
	for event, err := range client.Preload(context.Background(), req) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, event)
	}
	if len(events) != 3 || events[2].GetDone().GetEtag() != "e" {
		t.Errorf("events = %v", events)
	}
	text, err := client.PreloadContext(context.Background(), req)
	if err != nil || text != "[Long-term Memory Context]" {
		t.Errorf("PreloadContext = %q, %v", text, err)
	}

	f.preload = []*memorydv1.PreloadResponse{{Event: &memorydv1.PreloadResponse_NotModified{NotModified: &memorydv1.PreloadNotModified{Etag: "e"}}}}
	if _, err := client.PreloadContext(context.Background(), req); !errors.Is(err, ErrNotModified) {
		t.Errorf("not_modified: err = %v", err)
	}

	f.preload = nil
	s, _ := status.New(codes.InvalidArgument, "no query").WithDetails(&errdetails.ErrorInfo{Domain: Domain, Reason: "INVALID_ARGUMENT"})
	f.preloadErr = s.Err()
	var failure error
	for _, err := range client.Preload(context.Background(), req) {
		failure = err
	}
	if !errors.Is(failure, ErrInvalidArgument) {
		t.Errorf("failed stream: err = %v", failure)
	}
}

func TestFilterConstructors(t *testing.T) {
	since := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got := All(Eq("metadata.lang", "en"), Any(In("metadata.n", 1, 2), Not(Exists("metadata.x"))), Gte("create_time", since))
	want := &memorydv1.Filter{Kind: &memorydv1.Filter_All{All: &memorydv1.FilterList{Filters: []*memorydv1.Filter{
		{Kind: &memorydv1.Filter_Condition{Condition: &memorydv1.Condition{
			Field: "metadata.lang", Operator: memorydv1.ComparisonOperator_COMPARISON_OPERATOR_EQ,
			Values: []*memorydv1.FilterValue{{Kind: &memorydv1.FilterValue_StringValue{StringValue: "en"}}},
		}}},
		{Kind: &memorydv1.Filter_Any{Any: &memorydv1.FilterList{Filters: []*memorydv1.Filter{
			{Kind: &memorydv1.Filter_Condition{Condition: &memorydv1.Condition{
				Field: "metadata.n", Operator: memorydv1.ComparisonOperator_COMPARISON_OPERATOR_IN,
				Values: []*memorydv1.FilterValue{
					{Kind: &memorydv1.FilterValue_NumberValue{NumberValue: 1}},
					{Kind: &memorydv1.FilterValue_NumberValue{NumberValue: 2}},
				},
			}}},
			{Kind: &memorydv1.Filter_Not{Not: &memorydv1.Filter{Kind: &memorydv1.Filter_Condition{Condition: &memorydv1.Condition{
				Field: "metadata.x", Operator: memorydv1.ComparisonOperator_COMPARISON_OPERATOR_EXISTS, Values: []*memorydv1.FilterValue{},
			}}}}},
		}}}},
		{Kind: &memorydv1.Filter_Condition{Condition: &memorydv1.Condition{
			Field: "create_time", Operator: memorydv1.ComparisonOperator_COMPARISON_OPERATOR_GTE,
			Values: []*memorydv1.FilterValue{{Kind: &memorydv1.FilterValue_TimeValue{TimeValue: timestamppb.New(since)}}},
		}}},
	}}}}
	if !proto.Equal(got, want) {
		t.Errorf("filter = %v\nwant %v", got, want)
	}
}
