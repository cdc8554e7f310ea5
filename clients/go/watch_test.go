package memoryd

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

func (f *fakeServer) WatchMemories(req *memorydv1.WatchMemoriesRequest, stream grpc.ServerStreamingServer[memorydv1.WatchMemoriesResponse]) error {
	f.record(stream.Context(), req)
	for _, event := range f.watch {
		if err := stream.Send(event); err != nil {
			return err
		}
	}
	if f.watchHeld != nil {
		<-stream.Context().Done()
		close(f.watchHeld)
	}
	return f.watchErr
}

func watchEvents() []*memorydv1.WatchMemoriesResponse {
	return []*memorydv1.WatchMemoriesResponse{
		{Event: &memorydv1.WatchMemoriesResponse_Started{Started: &memorydv1.WatchStarted{AfterSequence: 41}}},
		{Event: &memorydv1.WatchMemoriesResponse_Change{Change: &memorydv1.MemoryChange{
			Sequence: 42, Type: memorydv1.ChangeType_CHANGE_TYPE_CREATED, Memory: &memorydv1.Memory{Id: "m1"},
		}}},
		{Event: &memorydv1.WatchMemoriesResponse_FellBehind{FellBehind: &memorydv1.WatchFellBehind{ResumeAfterSequence: 42}}},
	}
}

func TestWatchYieldsEveryEventWithoutADeadline(t *testing.T) {
	f := &fakeServer{watch: watchEvents()}
	client := newTestClient(t, f, Config{})
	req := &memorydv1.WatchMemoriesRequest{Scope: userScope("u"), StartAfterSequence: proto.Int64(41)}
	var events []*memorydv1.WatchMemoriesResponse
	for event, err := range client.Watch(context.Background(), req) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, event)
	}
	if len(events) != 3 || events[0].GetStarted().GetAfterSequence() != 41 ||
		events[1].GetChange().GetSequence() != 42 || events[1].GetChange().GetMemory().GetId() != "m1" ||
		events[2].GetFellBehind().GetResumeAfterSequence() != 42 {
		t.Errorf("events = %v", events)
	}
	sent := f.sent()[0].(*memorydv1.WatchMemoriesRequest)
	if !proto.Equal(sent, req) {
		t.Errorf("sent %v, want %v", sent, req)
	}
	if f.deadlines[0] {
		t.Error("a watch got a deadline; it should run until cancelled")
	}
}

func TestWatchStopsTheCallWhenTheCallerStops(t *testing.T) {
	f := &fakeServer{watch: watchEvents()[:2], watchHeld: make(chan struct{})}
	client := newTestClient(t, f, Config{})
	for event, err := range client.Watch(context.Background(), &memorydv1.WatchMemoriesRequest{Scope: userScope("u")}) {
		if err != nil {
			t.Fatal(err)
		}
		if event.GetChange() != nil {
			break
		}
	}
	<-f.watchHeld // the server saw the call cancelled

	f.watchHeld = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var failure error
	for event, err := range client.Watch(ctx, &memorydv1.WatchMemoriesRequest{Scope: userScope("u")}) {
		if err != nil {
			failure = err
			break
		}
		if event.GetChange() != nil {
			cancel()
		}
	}
	if !errors.Is(failure, context.Canceled) {
		t.Errorf("a cancelled ctx ends the watch with %v, want context.Canceled", failure)
	}
}

func TestWatchErrorsAreTyped(t *testing.T) {
	s, _ := status.New(codes.OutOfRange, "start_after_sequence 999 is past the end").
		WithDetails(&errdetails.ErrorInfo{Domain: Domain, Reason: "CHANGE_HISTORY_EXPIRED"})
	f := &fakeServer{watchErr: s.Err()}
	client := newTestClient(t, f, Config{})
	var failures []error
	for event, err := range client.Watch(context.Background(), &memorydv1.WatchMemoriesRequest{StartAfterSequence: proto.Int64(999)}) {
		if err == nil {
			t.Fatalf("unexpected event %v", event)
		}
		failures = append(failures, err)
	}
	var e *Error
	if len(failures) != 1 || !errors.Is(failures[0], ErrChangeHistoryExpired) || !errors.As(failures[0], &e) || e.Code != codes.OutOfRange {
		t.Errorf("failures = %v", failures)
	}
}
