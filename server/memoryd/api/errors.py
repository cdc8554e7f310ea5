"""Domain errors to gRPC statuses: one table, and the decorator that applies it.

Every error reaches the client as a google.rpc.Status carrying one ErrorInfo
(domain "memoryd") and, for bad fields, a BadRequest naming the field. An
unexpected exception becomes INTERNAL with an incident id, never UNKNOWN and
never the exception text.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import timedelta
from types import MappingProxyType
from typing import Any, NoReturn

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from opentelemetry import trace

from memoryd.core.errors import (
    ChangeHistoryExpired,
    EmbeddingError,
    IncompatibleIndex,
    InvalidArgument,
    MemorydError,
    MemoryNotFound,
    MessageTooLarge,
    Overloaded,
    PermissionDenied,
    RateLimited,
    ReembedInProgress,
    ScopeTimedOut,
    ShuttingDown,
    Unauthenticated,
    UnknownWrite,
    VersionConflict,
    WriteFailed,
    WriteNotApplied,
)
from memoryd.v1 import memory_service_pb2 as svc

logger = logging.getLogger(__name__)

DOMAIN = "memoryd"

#: Domain error -> (status code, ErrorReason). Reasons are API (ErrorReason in
#: the contract): never reuse or rename one. The first class that matches
#: wins, so a subclass comes before its base.
_STATUS_OF: dict[type[Exception], tuple[grpc.StatusCode, svc.ErrorReason]] = {
    MessageTooLarge: (grpc.StatusCode.INVALID_ARGUMENT, svc.ERROR_REASON_MESSAGE_TOO_LARGE),
    InvalidArgument: (grpc.StatusCode.INVALID_ARGUMENT, svc.ERROR_REASON_INVALID_ARGUMENT),
    MemoryNotFound: (grpc.StatusCode.NOT_FOUND, svc.ERROR_REASON_MEMORY_NOT_FOUND),
    VersionConflict: (grpc.StatusCode.ABORTED, svc.ERROR_REASON_VERSION_MISMATCH),
    IncompatibleIndex: (grpc.StatusCode.FAILED_PRECONDITION, svc.ERROR_REASON_INCOMPATIBLE_INDEX),
    EmbeddingError: (grpc.StatusCode.UNAVAILABLE, svc.ERROR_REASON_EMBEDDING_UNAVAILABLE),
    Overloaded: (grpc.StatusCode.RESOURCE_EXHAUSTED, svc.ERROR_REASON_WRITE_BACKLOG_FULL),
    ShuttingDown: (grpc.StatusCode.UNAVAILABLE, svc.ERROR_REASON_SHUTTING_DOWN),
    WriteNotApplied: (grpc.StatusCode.DEADLINE_EXCEEDED, svc.ERROR_REASON_WRITE_NOT_YET_APPLIED),
    WriteFailed: (grpc.StatusCode.UNAVAILABLE, svc.ERROR_REASON_WRITE_FAILED),
    UnknownWrite: (grpc.StatusCode.NOT_FOUND, svc.ERROR_REASON_UNKNOWN_WRITE_TOKEN),
    ScopeTimedOut: (grpc.StatusCode.DEADLINE_EXCEEDED, svc.ERROR_REASON_PRELOAD_SCOPE_TIMED_OUT),
    Unauthenticated: (grpc.StatusCode.UNAUTHENTICATED, svc.ERROR_REASON_UNAUTHENTICATED),
    PermissionDenied: (grpc.StatusCode.PERMISSION_DENIED, svc.ERROR_REASON_SCOPE_NOT_PERMITTED),
    RateLimited: (grpc.StatusCode.RESOURCE_EXHAUSTED, svc.ERROR_REASON_RATE_LIMITED),
    ChangeHistoryExpired: (grpc.StatusCode.OUT_OF_RANGE, svc.ERROR_REASON_CHANGE_HISTORY_EXPIRED),
    ReembedInProgress: (grpc.StatusCode.FAILED_PRECONDITION, svc.ERROR_REASON_REEMBED_IN_PROGRESS),
}
_REASON_PREFIX = "ERROR_REASON_"


def reason_name(reason: svc.ErrorReason) -> str:
    """ErrorInfo.reason for an ErrorReason: its name without the prefix."""
    return svc.ErrorReason.Name(reason).removeprefix(_REASON_PREFIX)


def status_table() -> Mapping[type[Exception], tuple[grpc.StatusCode, svc.ErrorReason]]:
    """Each domain error class with a status of its own and its (code,
    ErrorReason), read-only, in matching order. Every other exception is sent
    as INTERNAL with ERROR_REASON_INTERNAL (internal_status): together these
    are all the reasons the server sends."""
    return MappingProxyType(_STATUS_OF)


def is_mapped(error: Exception) -> bool:
    """Whether ``error`` is a domain error with a status of its own."""
    return any(isinstance(error, error_class) for error_class in _STATUS_OF)


def status_for(error: Exception) -> status_pb2.Status:
    """The google.rpc.Status a domain error is sent as."""
    code, reason = next(
        status for error_class, status in _STATUS_OF.items() if isinstance(error, error_class)
    )
    info = error_details_pb2.ErrorInfo(reason=reason_name(reason), domain=DOMAIN)
    if isinstance(error, MessageTooLarge):
        info.metadata.update({"size_bytes": str(error.size), "limit_bytes": str(error.limit)})
    details = [info]
    if isinstance(error, InvalidArgument):
        violation = error_details_pb2.BadRequest.FieldViolation(
            field=_cut(error.field), description=_cut(error.reason)
        )
        details.append(error_details_pb2.BadRequest(field_violations=[violation]))
    if isinstance(error, Overloaded | RateLimited):
        delay = duration_pb2.Duration()
        delay.FromTimedelta(timedelta(seconds=error.retry_after))
        details.append(error_details_pb2.RetryInfo(retry_delay=delay))
    if isinstance(error, WriteNotApplied | UnknownWrite):
        details.append(
            error_details_pb2.ResourceInfo(resource_type="write", resource_name=error.token)
        )
    if isinstance(error, MemoryNotFound):
        details.append(
            error_details_pb2.ResourceInfo(resource_type="memory", resource_name=error.memory_id)
        )
    return _status(code, _cut(str(error)), details)


#: Longest message or field name sent back: errors may quote what the client
#: sent, and trailers over gRPC's metadata limit would turn the answer into
#: RESOURCE_EXHAUSTED.
_MAX_ECHO_CHARS = 1000


def _cut(text: str) -> str:
    return text if len(text) <= _MAX_ECHO_CHARS else text[:_MAX_ECHO_CHARS] + "…"


def internal_status(incident: str) -> status_pb2.Status:
    """The INTERNAL status of an unexpected error; ``incident`` ties it to the log."""
    info = error_details_pb2.ErrorInfo(
        reason=reason_name(svc.ERROR_REASON_INTERNAL),
        domain=DOMAIN,
        metadata={"incident": incident},
    )
    return _status(grpc.StatusCode.INTERNAL, f"internal error (incident {incident})", [info])


def _status(code: grpc.StatusCode, message: str, details: list[Any]) -> status_pb2.Status:
    packed = []
    for detail in details:
        holder = any_pb2.Any()
        holder.Pack(detail)
        packed.append(holder)
    return status_pb2.Status(code=_CODE_NUMBERS[code], message=message, details=packed)


_CODE_NUMBERS = {code: code.value[0] for code in grpc.StatusCode}
assert _CODE_NUMBERS[grpc.StatusCode.INTERNAL] == code_pb2.INTERNAL

type _Handler[Request, Response] = Callable[
    [Any, Request, grpc.aio.ServicerContext[Any, Any]], Awaitable[Response]
]


async def abort_with(
    error: Exception, context: grpc.aio.ServicerContext[Any, Any], rpc: str
) -> NoReturn:
    """Ends the RPC with the status of ``error``.

    A domain error gets its mapped status. Anything else is a bug: INTERNAL
    with an incident id, the traceback logged and recorded on the server span,
    never sent. Aborting through ``context.abort`` (not abort_with_status) lets
    the tracing interceptor mark the span: ERROR for server-side codes, UNSET
    for the client's errors, as the semantic conventions ask.
    """
    if isinstance(error, MemorydError):
        status = status_for(error)
    else:
        incident = uuid.uuid4().hex[:12]
        logger.exception("unexpected error in %s (incident %s)", rpc, incident)
        trace.get_current_span().record_exception(error)
        status = internal_status(incident)
    wire = rpc_status.to_status(status)
    await context.abort(wire.code, wire.details, wire.trailing_metadata)


def rpc_errors[Request, Response](
    handler: _Handler[Request, Response],
) -> _Handler[Request, Response]:
    """Ends a unary handler's domain errors with their mapped status."""

    @functools.wraps(handler)
    async def wrapper(
        self: Any, request: Request, context: grpc.aio.ServicerContext[Any, Any]
    ) -> Response:
        try:
            return await handler(self, request, context)
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await abort_with(error, context, handler.__name__)

    return wrapper


type _StreamHandler[Request, Event] = Callable[
    [Any, Request, grpc.aio.ServicerContext[Any, Any]], AsyncIterator[Event]
]


def rpc_stream_errors[Request, Event](
    handler: _StreamHandler[Request, Event],
) -> _StreamHandler[Request, Event]:
    """rpc_errors for a server-streaming handler (an async generator): events
    pass through, and an error ends the stream with its mapped status."""

    @functools.wraps(handler)
    async def wrapper(
        self: Any, request: Request, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Event]:
        try:
            async for event in handler(self, request, context):
                yield event
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await abort_with(error, context, handler.__name__)

    return wrapper
