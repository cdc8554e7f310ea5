"""Typed errors for failed calls, decoded from the server's google.rpc.Status.

MemorydError(code, reason, message)        any failed call; `reason` is the ErrorInfo reason
  InvalidArgument(field_violations)        a bad field; nothing was written
  MemoryNotFound(memory_id)                absent, or outside the scope you asked in
  VersionConflict                          expected_version is stale
  PermissionDenied / Unauthenticated       credentials refused or missing
  FailedPrecondition                       e.g. the server's index was built by another embedder
  Unimplemented                            the server does not offer this RPC yet
  WriteFailed                              an ASYNC write was rejected when applied
  InternalError                            a server bug; the message names an incident id
  TransientError                           may succeed if tried again later
    Unavailable                            server unreachable or shutting down (after retries)
    DeadlineExceeded                       the call's deadline passed
    Overloaded(retry_after)                RESOURCE_EXHAUSTED, with the server's RetryInfo
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import grpc
from google.rpc import code_pb2, error_details_pb2, status_pb2

_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True, slots=True)
class FieldViolation:
    """One bad field, named as the request spelled it (``memory.content``)."""

    field: str
    description: str


class MemorydError(Exception):
    """A memoryd call failed. ``code`` is the gRPC status code name, ``reason`` the
    ErrorInfo reason (empty when the server sent none, e.g. for transport errors)."""

    def __init__(self, code: str, message: str, reason: str = "") -> None:
        super().__init__(f"{code}: {message}" + (f" ({reason})" if reason else ""))
        self.code = code
        self.message = message
        self.reason = reason


class InvalidArgument(MemorydError):
    """The request was rejected; ``field_violations`` names each bad field."""

    def __init__(
        self, code: str, message: str, reason: str, field_violations: list[FieldViolation]
    ) -> None:
        super().__init__(code, message, reason)
        self.field_violations = field_violations


class MemoryNotFound(MemorydError):
    """No memory with that id in that scope (a memory of another scope looks the same)."""

    def __init__(self, code: str, message: str, reason: str, memory_id: str) -> None:
        super().__init__(code, message, reason)
        self.memory_id = memory_id


class VersionConflict(MemorydError):
    """expected_version did not match the memory's version."""


class PermissionDenied(MemorydError):
    """The credentials may not do this."""


class Unauthenticated(MemorydError):
    """No valid credentials were sent."""


class FailedPrecondition(MemorydError):
    """The server is in a state that refuses the call."""


class Unimplemented(MemorydError):
    """The server does not implement this RPC (yet)."""


class WriteFailed(MemorydError):
    """An ASYNC write was journaled but rejected when applied; ``cause`` says why."""

    def __init__(self, write_token: str, cause: MemorydError) -> None:
        super().__init__(cause.code, f"write {write_token} failed: {cause.message}", cause.reason)
        self.write_token = write_token
        self.cause = cause


class InternalError(MemorydError):
    """The server failed unexpectedly; its log has the incident id in the message."""


class TransientError(MemorydError):
    """The call may succeed if repeated later."""


class Unavailable(TransientError):
    """The server could not be reached, even after the retry policy's attempts."""


class DeadlineExceeded(TransientError):
    """The call's deadline passed before an answer came."""


class Overloaded(TransientError):
    """The server is over a limit; wait ``retry_after`` seconds (None if unknown)."""

    def __init__(self, code: str, message: str, reason: str, retry_after: float | None) -> None:
        super().__init__(code, message, reason)
        self.retry_after = retry_after


_SIMPLE: dict[str, type[MemorydError]] = {
    "ABORTED": VersionConflict,
    "PERMISSION_DENIED": PermissionDenied,
    "UNAUTHENTICATED": Unauthenticated,
    "FAILED_PRECONDITION": FailedPrecondition,
    "UNIMPLEMENTED": Unimplemented,
    "UNAVAILABLE": Unavailable,
    "DEADLINE_EXCEEDED": DeadlineExceeded,
    "CANCELLED": TransientError,
    "INTERNAL": InternalError,
    "UNKNOWN": InternalError,
    "DATA_LOSS": InternalError,
}


def error_from_status(status: status_pb2.Status) -> MemorydError:
    """The typed error for a google.rpc.Status (as sent in trailers or GetWriteStatus)."""
    code = code_pb2.Code.Name(status.code) if status.code in code_pb2.Code.values() else "UNKNOWN"
    reason, violations, memory_id, retry_after = "", [], "", None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason = info.reason
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations = [FieldViolation(v.field, v.description) for v in bad.field_violations]
        elif detail.Is(error_details_pb2.ResourceInfo.DESCRIPTOR):
            resource = error_details_pb2.ResourceInfo()
            detail.Unpack(resource)
            memory_id = resource.resource_name
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
            retry_after = retry.retry_delay.ToTimedelta().total_seconds()
    message = status.message
    if code == "INVALID_ARGUMENT" or code == "OUT_OF_RANGE":
        return InvalidArgument(code, message, reason, violations)
    if code == "NOT_FOUND":
        return MemoryNotFound(code, message, reason, memory_id)
    if code == "RESOURCE_EXHAUSTED":
        return Overloaded(code, message, reason, retry_after)
    return _SIMPLE.get(code, MemorydError)(code, message, reason)


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
