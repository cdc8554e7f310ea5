package memoryd

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// statusError builds a failed call's error as the server sends it.
func statusError(t *testing.T, c codes.Code, reason string, details ...*errdetails.BadRequest) error {
	t.Helper()
	s := status.New(c, "boom")
	s, err := s.WithDetails(&errdetails.ErrorInfo{Domain: Domain, Reason: reason})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range details {
		if s, err = s.WithDetails(d); err != nil {
			t.Fatal(err)
		}
	}
	return s.Err()
}

// Every ErrorReason of the contract has its own sentinel, which an error of
// that reason matches and no other reason's sentinel does (except the broader
// ones of its status code).
func TestEveryErrorReasonHasItsOwnSentinel(t *testing.T) {
	seen := map[error]string{}
	for number, name := range memorydv1.ErrorReason_name {
		if number == int32(memorydv1.ErrorReason_ERROR_REASON_UNSPECIFIED) {
			continue
		}
		reason := strings.TrimPrefix(name, "ERROR_REASON_")
		sentinel := SentinelOf(reason)
		if sentinel == nil {
			t.Errorf("ErrorReason %s has no sentinel: add one to errors.go", name)
			continue
		}
		if other, ok := seen[sentinel]; ok {
			t.Errorf("%s and %s share a sentinel", reason, other)
		}
		seen[sentinel] = reason
		k := sentinel.(*kind)
		err := asError(statusError(t, k.code, reason))
		if !errors.Is(err, sentinel) {
			t.Errorf("an error with reason %s is not errors.Is %v", reason, sentinel)
		}
		var typed *Error
		if !errors.As(err, &typed) || typed.Reason != reason || typed.Code != k.code {
			t.Errorf("errors.As gives %+v for reason %s", typed, reason)
		}
		for _, other := range reasonSentinels {
			o := other.(*kind)
			if other == sentinel || (o.byCode && o.code == k.code) {
				continue
			}
			if errors.Is(err, other) {
				t.Errorf("an error with reason %s also matches %v", reason, other)
			}
		}
	}
	if len(seen) != len(memorydv1.ErrorReason_name)-1 {
		t.Errorf("%d reasons mapped, want %d", len(seen), len(memorydv1.ErrorReason_name)-1)
	}
}

func TestBroaderSentinels(t *testing.T) {
	tooLarge := asError(statusError(t, codes.InvalidArgument, "MESSAGE_TOO_LARGE"))
	if !errors.Is(tooLarge, ErrInvalidArgument) || !errors.Is(tooLarge, ErrMessageTooLarge) {
		t.Error("MESSAGE_TOO_LARGE should match ErrInvalidArgument and ErrMessageTooLarge")
	}
	backlog := asError(statusError(t, codes.ResourceExhausted, "WRITE_BACKLOG_FULL"))
	if !errors.Is(backlog, ErrResourceExhausted) || errors.Is(backlog, ErrRateLimited) {
		t.Error("WRITE_BACKLOG_FULL should match ErrResourceExhausted and not ErrRateLimited")
	}
	// A server from before ErrorInfo: NOT_FOUND and ABORTED without a reason.
	if !errors.Is(asError(status.Error(codes.NotFound, "gone")), ErrMemoryNotFound) {
		t.Error("a reasonless NOT_FOUND should match ErrMemoryNotFound")
	}
	if errors.Is(asError(statusError(t, codes.NotFound, "UNKNOWN_WRITE_TOKEN")), ErrMemoryNotFound) {
		t.Error("UNKNOWN_WRITE_TOKEN must not match ErrMemoryNotFound")
	}
	deadline := asError(status.Error(codes.DeadlineExceeded, "late"))
	if !errors.Is(deadline, context.DeadlineExceeded) || !errors.Is(deadline, ErrDeadlineExceeded) {
		t.Error("DEADLINE_EXCEEDED should match context.DeadlineExceeded and ErrDeadlineExceeded")
	}
	var e *Error
	if !errors.As(deadline, &e) || e.Reason != "" || CodeName(e.Code) != "DEADLINE_EXCEEDED" {
		t.Errorf("a client-side deadline: %+v", e)
	}
}

func TestErrorDetails(t *testing.T) {
	s := status.New(codes.ResourceExhausted, "slow down")
	s, err := s.WithDetails(
		&errdetails.ErrorInfo{Domain: Domain, Reason: "RATE_LIMITED", Metadata: map[string]string{"k": "v"}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)},
		&errdetails.ResourceInfo{ResourceName: "memories/x"},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "memory.content", Description: "empty"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if !errors.As(asError(s.Err()), &e) {
		t.Fatal("not an *Error")
	}
	if e.Reason != "RATE_LIMITED" || e.RetryAfter != 1500*time.Millisecond || e.ResourceName != "memories/x" ||
		e.Metadata["k"] != "v" || len(e.FieldViolations) != 1 || e.FieldViolations[0].Field != "memory.content" {
		t.Errorf("details not read: %+v", e)
	}
	if got := e.Error(); got != "memoryd: RESOURCE_EXHAUSTED (RATE_LIMITED): slow down; memory.content: empty" {
		t.Errorf("Error() = %q", got)
	}
	if status.Code(e) != codes.ResourceExhausted {
		t.Error("status.Code should read the *Error")
	}
	// Another domain's reason is not ours.
	other, _ := status.New(codes.Internal, "x").WithDetails(&errdetails.ErrorInfo{Domain: "googleapis.com", Reason: "MEMORY_NOT_FOUND"})
	if errors.As(asError(other.Err()), &e); e.Reason != "" {
		t.Errorf("foreign reason kept: %q", e.Reason)
	}
}

func TestErrorFromStatus(t *testing.T) {
	if ErrorFromStatus(nil) != nil {
		t.Error("nil status should give nil")
	}
	s, _ := status.New(codes.Aborted, "stale").WithDetails(&errdetails.ErrorInfo{Domain: Domain, Reason: "VERSION_MISMATCH"})
	e := ErrorFromStatus(s.Proto())
	if e == nil || !errors.Is(e, ErrVersionMismatch) {
		t.Errorf("ErrorFromStatus = %v", e)
	}
}
