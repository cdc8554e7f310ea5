package memoryd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	rpcstatus "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Domain is the google.rpc.ErrorInfo domain of memoryd's reasons.
const Domain = "memoryd"

// ReasonWriteInFlight is the reason of the error a read gets, client-side,
// when its deadline passes while it waits for a write of this client into its
// scope that has not been answered yet (code DEADLINE_EXCEEDED). It is not an
// ErrorReason of the contract: the server never sends it.
const ReasonWriteInFlight = "WRITE_IN_FLIGHT"

// Error is the error of every failed call of a Client. Use errors.As to get
// at its fields, and errors.Is with the Err* sentinels to test its kind:
//
//	var e *memoryd.Error
//	if errors.As(err, &e) { log.Println(e.Code, e.Reason, e.FieldViolations) }
//	if errors.Is(err, memoryd.ErrMemoryNotFound) { ... }
type Error struct {
	// Code is the gRPC status code.
	Code codes.Code
	// Reason is the google.rpc.ErrorInfo reason: an ErrorReason value's name
	// without the ERROR_REASON_ prefix ("MEMORY_NOT_FOUND"), ReasonWriteInFlight,
	// or "" when there is none (a transport failure, a deadline that passed in
	// the client).
	Reason string
	// Message is the status message.
	Message string
	// Metadata is the ErrorInfo metadata (size_bytes and limit_bytes for
	// MESSAGE_TOO_LARGE, incident for INTERNAL).
	Metadata map[string]string
	// FieldViolations names each bad field of an INVALID_ARGUMENT request, as
	// the request spelled it ("requests[2].memory.content").
	FieldViolations []FieldViolation
	// ResourceName is what a google.rpc.ResourceInfo names: the missing
	// memory of MEMORY_NOT_FOUND, the write of WRITE_NOT_YET_APPLIED.
	ResourceName string
	// RetryAfter is the google.rpc.RetryInfo delay of RESOURCE_EXHAUSTED
	// errors (WRITE_BACKLOG_FULL, RATE_LIMITED); 0 when none was sent.
	RetryAfter time.Duration
	// Status is the status the error was made from.
	Status *status.Status
}

// FieldViolation is one bad field of a rejected request.
type FieldViolation struct {
	Field       string
	Description string
}

// Error returns "memoryd: CODE (REASON): message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("memoryd: ")
	b.WriteString(CodeName(e.Code))
	if e.Reason != "" {
		b.WriteString(" (" + e.Reason + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, v := range e.FieldViolations {
		fmt.Fprintf(&b, "; %s: %s", v.Field, v.Description)
	}
	return b.String()
}

// GRPCStatus returns the status the error was made from, so status.FromError
// and status.Code work on it too.
func (e *Error) GRPCStatus() *status.Status {
	if e.Status == nil {
		return status.New(e.Code, e.Message)
	}
	return e.Status
}

// Is reports whether the error is of the kind of target: one of the Err*
// sentinels, or context.DeadlineExceeded / context.Canceled for the codes
// DEADLINE_EXCEEDED / CANCELLED.
func (e *Error) Is(target error) bool {
	switch target {
	case context.DeadlineExceeded:
		return e.Code == codes.DeadlineExceeded
	case context.Canceled:
		return e.Code == codes.Canceled
	}
	k, ok := target.(*kind)
	return ok && k.matches(e)
}

// kind is the type of the Err* sentinels.
type kind struct {
	name   string
	code   codes.Code
	reason string // matches errors with this reason
	// byCode: also matches every error with this code (a broader kind).
	byCode bool
	// reasonless: also matches errors with this code and no reason at all
	// (servers from before ErrorInfo).
	reasonless bool
}

func (k *kind) Error() string { return "memoryd: " + k.name }

func (k *kind) matches(e *Error) bool {
	switch {
	case k.reason != "" && e.Reason == k.reason:
		return true
	case k.byCode && e.Code == k.code:
		return true
	case k.reasonless && e.Reason == "" && e.Code == k.code:
		return true
	}
	return false
}

func reasonKind(c codes.Code, reason, text string) error {
	return &kind{name: text, code: c, reason: reason}
}

// Sentinels, one per ErrorReason of the contract (test with errors.Is). The
// first three also match every error of their status code, so that
// errors.Is(err, ErrInvalidArgument) holds for MESSAGE_TOO_LARGE as well.
var (
	// ErrInvalidArgument: INVALID_ARGUMENT, any reason; see Error.FieldViolations.
	ErrInvalidArgument error = &kind{name: "invalid argument", code: codes.InvalidArgument, reason: "INVALID_ARGUMENT", byCode: true}
	// ErrUnauthenticated: UNAUTHENTICATED: no valid credentials.
	ErrUnauthenticated error = &kind{name: "unauthenticated", code: codes.Unauthenticated, reason: "UNAUTHENTICATED", byCode: true}
	// ErrInternal: INTERNAL, a server bug; Error.Metadata["incident"] names it in the server log.
	ErrInternal error = &kind{name: "internal error", code: codes.Internal, reason: "INTERNAL", byCode: true}

	// ErrMessageTooLarge: INVALID_ARGUMENT, the request is over the server's message limit.
	ErrMessageTooLarge = reasonKind(codes.InvalidArgument, "MESSAGE_TOO_LARGE", "message too large")
	// ErrMemoryNotFound: NOT_FOUND, no memory with that id in that scope.
	ErrMemoryNotFound error = &kind{name: "memory not found", code: codes.NotFound, reason: "MEMORY_NOT_FOUND", reasonless: true}
	// ErrUnknownWriteToken: NOT_FOUND, GetWriteStatus does not know the token.
	ErrUnknownWriteToken = reasonKind(codes.NotFound, "UNKNOWN_WRITE_TOKEN", "unknown write token")
	// ErrVersionMismatch: ABORTED, expected_version is stale; read again and retry.
	ErrVersionMismatch error = &kind{name: "version mismatch", code: codes.Aborted, reason: "VERSION_MISMATCH", reasonless: true}
	// ErrIncompatibleIndex: FAILED_PRECONDITION, the index was built by another embedder.
	ErrIncompatibleIndex = reasonKind(codes.FailedPrecondition, "INCOMPATIBLE_INDEX", "incompatible index")
	// ErrEmbeddingUnavailable: UNAVAILABLE, the embedding provider failed; retry.
	ErrEmbeddingUnavailable = reasonKind(codes.Unavailable, "EMBEDDING_UNAVAILABLE", "embedding unavailable")
	// ErrWriteBacklogFull: RESOURCE_EXHAUSTED, the journal backlog is full; see Error.RetryAfter.
	ErrWriteBacklogFull = reasonKind(codes.ResourceExhausted, "WRITE_BACKLOG_FULL", "write backlog full")
	// ErrShuttingDown: UNAVAILABLE, the server is stopping; retry elsewhere or later.
	ErrShuttingDown = reasonKind(codes.Unavailable, "SHUTTING_DOWN", "server shutting down")
	// ErrWriteNotYetApplied: DEADLINE_EXCEEDED, a read waited for a write of its scope.
	ErrWriteNotYetApplied = reasonKind(codes.DeadlineExceeded, "WRITE_NOT_YET_APPLIED", "write not yet applied")
	// ErrWriteFailed: UNAVAILABLE, a journaled write could not be applied.
	ErrWriteFailed = reasonKind(codes.Unavailable, "WRITE_FAILED", "write failed")
	// ErrPreloadScopeTimedOut: DEADLINE_EXCEEDED, a Preload scope was not searched in time.
	ErrPreloadScopeTimedOut = reasonKind(codes.DeadlineExceeded, "PRELOAD_SCOPE_TIMED_OUT", "preload scope timed out")
	// ErrScopeNotPermitted: PERMISSION_DENIED, the caller may not act in that scope.
	ErrScopeNotPermitted = reasonKind(codes.PermissionDenied, "SCOPE_NOT_PERMITTED", "scope not permitted")
	// ErrRateLimited: RESOURCE_EXHAUSTED, the caller is over its request rate; see Error.RetryAfter.
	ErrRateLimited = reasonKind(codes.ResourceExhausted, "RATE_LIMITED", "rate limited")
	// ErrChangeHistoryExpired: OUT_OF_RANGE, Watch was asked to resume after a
	// sequence older than the change history the server keeps, or past its end:
	// read the scope again (ListAll) and watch from the started event.
	ErrChangeHistoryExpired = reasonKind(codes.OutOfRange, "CHANGE_HISTORY_EXPIRED", "change history expired")
	// ErrReembedInProgress: FAILED_PRECONDITION, a re-embedding to another
	// embedder is running; GetReembedStatus reports it.
	ErrReembedInProgress = reasonKind(codes.FailedPrecondition, "REEMBED_IN_PROGRESS", "re-embedding in progress")

	// ErrWriteInFlight: DEADLINE_EXCEEDED (client-side), a read's deadline
	// passed while it waited for this client's own write into its scope.
	ErrWriteInFlight = reasonKind(codes.DeadlineExceeded, ReasonWriteInFlight, "write in flight")
)

// Sentinels by status code, whatever the reason.
var (
	ErrNotFound          error = &kind{name: "not found", code: codes.NotFound, byCode: true}
	ErrPermissionDenied  error = &kind{name: "permission denied", code: codes.PermissionDenied, byCode: true}
	ErrUnavailable       error = &kind{name: "unavailable", code: codes.Unavailable, byCode: true}
	ErrDeadlineExceeded  error = &kind{name: "deadline exceeded", code: codes.DeadlineExceeded, byCode: true}
	ErrResourceExhausted error = &kind{name: "resource exhausted", code: codes.ResourceExhausted, byCode: true}
)

// reasonSentinels maps each reason to its sentinel.
var reasonSentinels = map[string]error{}

func init() {
	for _, s := range []error{
		ErrInvalidArgument, ErrUnauthenticated, ErrInternal, ErrMessageTooLarge,
		ErrMemoryNotFound, ErrUnknownWriteToken, ErrVersionMismatch, ErrIncompatibleIndex,
		ErrEmbeddingUnavailable, ErrWriteBacklogFull, ErrShuttingDown, ErrWriteNotYetApplied,
		ErrWriteFailed, ErrPreloadScopeTimedOut, ErrScopeNotPermitted, ErrRateLimited,
		ErrChangeHistoryExpired, ErrReembedInProgress, ErrWriteInFlight,
	} {
		reasonSentinels[s.(*kind).reason] = s
	}
}

// SentinelOf returns the Err* sentinel of an ErrorInfo reason ("MEMORY_NOT_FOUND"),
// or nil for a reason this client does not know.
func SentinelOf(reason string) error { return reasonSentinels[reason] }

// CodeName is the canonical name of a status code ("NOT_FOUND"), as in
// google.rpc.Code (codes.Code's String gives "NotFound").
func CodeName(c codes.Code) string {
	if name, ok := code.Code_name[int32(c)]; ok {
		return name
	}
	return fmt.Sprintf("CODE_%d", uint32(c))
}

// ErrorFromStatus returns the typed error of a google.rpc.Status, as found in
// GetWriteStatusResponse.error and ScopeHits.error; nil for nil or OK.
func ErrorFromStatus(s *rpcstatus.Status) *Error {
	if s == nil || s.GetCode() == int32(codes.OK) {
		return nil
	}
	return errorOf(status.FromProto(s))
}

// asError turns an error of a gRPC call into an *Error; nil stays nil.
func asError(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if s, ok := status.FromError(err); ok {
		return errorOf(s)
	}
	// Not a status: a context error before the call was sent, or a bug.
	return errorOf(status.FromContextError(err))
}

func errorOf(s *status.Status) *Error {
	e := &Error{Code: s.Code(), Message: s.Message(), Status: s}
	for _, detail := range s.Details() {
		switch d := detail.(type) {
		case *errdetails.ErrorInfo:
			if d.GetDomain() == Domain || d.GetDomain() == "" {
				e.Reason, e.Metadata = d.GetReason(), d.GetMetadata()
			}
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				e.FieldViolations = append(e.FieldViolations, FieldViolation{v.GetField(), v.GetDescription()})
			}
		case *errdetails.ResourceInfo:
			e.ResourceName = d.GetResourceName()
		case *errdetails.RetryInfo:
			e.RetryAfter = d.GetRetryDelay().AsDuration()
		}
	}
	return e
}

// writeInFlight is the error of a read whose context ended while it waited
// for this client's own write into its scope.
func writeInFlight(ctx context.Context) *Error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return errorOf(status.New(codes.Canceled, "the read was cancelled while it waited for a write of this client into its scope"))
	}
	e := errorOf(status.New(codes.DeadlineExceeded,
		"a write into this scope was still in flight when the read's deadline passed; "+
			"the read waited for it rather than return stale results. Retry with a longer deadline"))
	e.Reason = ReasonWriteInFlight
	return e
}
