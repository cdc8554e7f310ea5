"""The typed error (memoryd_client.errors) of a google.rpc.Status or a failed gRPC call."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.rpc import code_pb2, error_details_pb2, status_pb2

from memoryd_client import errors
from memoryd_client.errors import FieldViolation, MemorydError

_DETAILS_KEY = "grpc-status-details-bin"
#: The ErrorInfo domain of memoryd's reasons; another domain's reason is not ours.
DOMAIN = "memoryd"

#: ErrorInfo reason -> its class: each ErrorReason of the contract (the value's
#: name without ERROR_REASON_), and the reasons this client raises itself.
CLASS_OF_REASON: dict[str, type[MemorydError]] = {
    "INVALID_ARGUMENT": errors.InvalidArgument,
    "MESSAGE_TOO_LARGE": errors.MessageTooLarge,
    "MEMORY_NOT_FOUND": errors.MemoryNotFound,
    "UNKNOWN_WRITE_TOKEN": errors.UnknownWriteToken,
    "VERSION_MISMATCH": errors.VersionConflict,
    "INCOMPATIBLE_INDEX": errors.IncompatibleIndex,
    "EMBEDDING_UNAVAILABLE": errors.EmbeddingUnavailable,
    "WRITE_BACKLOG_FULL": errors.WriteBacklogFull,
    "SHUTTING_DOWN": errors.ShuttingDown,
    "WRITE_NOT_YET_APPLIED": errors.WriteNotYetApplied,
    "WRITE_FAILED": errors.WriteApplyFailed,
    "PRELOAD_SCOPE_TIMED_OUT": errors.PreloadScopeTimedOut,
    "UNAUTHENTICATED": errors.Unauthenticated,
    "SCOPE_NOT_PERMITTED": errors.ScopeNotPermitted,
    "RATE_LIMITED": errors.RateLimited,
    "INTERNAL": errors.InternalError,
    "CHANGE_HISTORY_EXPIRED": errors.ChangeHistoryExpired,
    "REEMBED_IN_PROGRESS": errors.ReembedInProgress,
    "WRITE_IN_FLIGHT": errors.WriteInFlight,
}

#: Status code -> the class of an error without a reason this client knows.
CLASS_OF_CODE: dict[str, type[MemorydError]] = {
    "INVALID_ARGUMENT": errors.InvalidArgument,
    "OUT_OF_RANGE": errors.InvalidArgument,
    "NOT_FOUND": errors.NotFound,
    "ABORTED": errors.VersionConflict,
    "PERMISSION_DENIED": errors.PermissionDenied,
    "UNAUTHENTICATED": errors.Unauthenticated,
    "FAILED_PRECONDITION": errors.FailedPrecondition,
    "UNIMPLEMENTED": errors.Unimplemented,
    "UNAVAILABLE": errors.Unavailable,
    "DEADLINE_EXCEEDED": errors.DeadlineExceeded,
    "RESOURCE_EXHAUSTED": errors.Overloaded,
    "CANCELLED": errors.TransientError,
    "INTERNAL": errors.InternalError,
    "UNKNOWN": errors.InternalError,
    "DATA_LOSS": errors.InternalError,
}


@dataclass(slots=True)
class _Details:
    """What a Status's details say, whichever of them it carries."""

    reason: str = ""
    #: Whether any ErrorInfo came, of memoryd's domain or another's.
    has_error_info: bool = False
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[FieldViolation] = field(default_factory=list)
    resource_name: str = ""
    retry_after: float | None = None


def _details_of(status: status_pb2.Status) -> _Details:
    found = _Details()
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = _unpacked(detail, error_details_pb2.ErrorInfo())
            found.has_error_info = True
            if info.domain in (DOMAIN, ""):
                found.reason, found.metadata = info.reason, dict(info.metadata)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = _unpacked(detail, error_details_pb2.BadRequest())
            found.field_violations = [
                FieldViolation(v.field, v.description) for v in bad.field_violations
            ]
        elif detail.Is(error_details_pb2.ResourceInfo.DESCRIPTOR):
            found.resource_name = _unpacked(detail, error_details_pb2.ResourceInfo()).resource_name
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            delay = _unpacked(detail, error_details_pb2.RetryInfo()).retry_delay
            found.retry_after = delay.ToTimedelta().total_seconds()
    return found


def _unpacked(detail: Any, message: Any) -> Any:
    detail.Unpack(message)
    return message


def _class_of(code: str, details: _Details) -> type[MemorydError]:
    if details.reason in CLASS_OF_REASON:
        return CLASS_OF_REASON[details.reason]
    if code == "NOT_FOUND" and not details.has_error_info:
        return errors.MemoryNotFound  # servers before ErrorInfo: only memories went missing
    return CLASS_OF_CODE.get(code, MemorydError)


def error_from_status(status: status_pb2.Status) -> MemorydError:
    """The typed error for a google.rpc.Status (as sent in trailers or GetWriteStatus):
    the class of its reason, else of its code (see memoryd_client.errors)."""
    code = code_pb2.Code.Name(status.code) if status.code in code_pb2.Code.values() else "UNKNOWN"
    details = _details_of(status)
    kind, message, reason = _class_of(code, details), status.message, details.reason
    metadata = details.metadata
    if issubclass(kind, errors.InvalidArgument):
        return kind(code, message, reason, details.field_violations, metadata=metadata)
    if issubclass(kind, errors.NotFound):
        return kind(code, message, reason, details.resource_name, metadata=metadata)
    if issubclass(kind, errors.Overloaded):
        return kind(code, message, reason, details.retry_after, metadata=metadata)
    return kind(code, message, reason, metadata=metadata)


def error_from_rpc(error: grpc.RpcError) -> MemorydError:
    """The typed error for a failed call, sync (grpc.RpcError) or async (AioRpcError).

    Uses the rich google.rpc.Status in the trailers when the server sent one, and
    the bare status code and details otherwise (transport failures, deadlines).
    """
    call: Any = error
    for key, value in _trailers(call):
        if key == _DETAILS_KEY and isinstance(value, bytes):
            return error_from_status(status_pb2.Status.FromString(value))
    code = call.code() if callable(getattr(call, "code", None)) else grpc.StatusCode.UNKNOWN
    details = call.details() if callable(getattr(call, "details", None)) else str(error)
    status = status_pb2.Status(code=code.value[0], message=details or code.name)
    return error_from_status(status)


def _trailers(call: Any) -> Iterable[tuple[str, str | bytes]]:
    trailing = getattr(call, "trailing_metadata", None)
    if not callable(trailing):
        return ()
    return trailing() or ()
