"""Interceptors against abuse: oversized or undecodable requests, the rate limit, the audit log."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import DecodeError

from memoryd.api._private import After, Context, wrap_handler
from memoryd.api.auth import UNAUTHENTICATED_SERVICES, current_principal
from memoryd.api.errors import abort_with
from memoryd.core.errors import InvalidArgument, MessageTooLarge, RateLimited
from memoryd.core.ratelimit import RateLimiter
from memoryd.v1 import memory_service_pb2 as svc

audit_logger = logging.getLogger("memoryd.audit")

type Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[Any]]


def _is_exempt(method: str) -> bool:
    return method.startswith(tuple(f"/{s}/" for s in UNAUTHENTICATED_SERVICES))


class _Unreadable:
    """Stands in for a request that was not parsed: the error to answer it with."""

    def __init__(self, error: InvalidArgument) -> None:
        self.error = error


def transport_message_limit(max_message_bytes: int) -> int:
    """What gRPC itself lets in, so that RejectUndecodable sees a message over
    ``max_message_bytes`` (gRPC would answer RESOURCE_EXHAUSTED before any
    interceptor): twice the limit or the limit plus 1 MiB, whichever is more.
    Bounded, because gRPC buffers a whole message before anyone can refuse it."""
    return max_message_bytes + max(max_message_bytes, 1024 * 1024)


class RejectUndecodable(grpc.aio.ServerInterceptor):
    """INVALID_ARGUMENT for a request over ``max_message_bytes``
    (MEMORYD_MAX_MESSAGE_BYTES, reason MESSAGE_TOO_LARGE), and for one that
    does not parse (e.g. a filter nested past the parser's depth limit), where
    gRPC itself would answer RESOURCE_EXHAUSTED or UNKNOWN."""

    def __init__(self, max_message_bytes: int) -> None:
        self._max_message_bytes = max_message_bytes

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(handler_call_details)
        method: str = handler_call_details.method
        if handler is None or _is_exempt(method) or handler.request_deserializer is None:
            return handler
        rpc = method.rpartition("/")[2]
        parse = handler.request_deserializer

        limit = self._max_message_bytes

        def deserialize(data: bytes) -> Any:
            if len(data) > limit:
                return _Unreadable(MessageTooLarge(len(data), limit))
            try:
                return parse(data)
            except DecodeError:
                reason = "cannot be parsed (malformed, or nested deeper than 100 levels)"
                return _Unreadable(InvalidArgument("request", reason))

        async def before(request: Any, context: Context) -> After:
            if isinstance(request, _Unreadable):
                await abort_with(request.error, context, rpc)
            return lambda _: None

        return wrap_handler(handler, before, deserialize)


class RateLimit(grpc.aio.ServerInterceptor):
    """RESOURCE_EXHAUSTED with RetryInfo once a principal is over its rate."""

    def __init__(self, limiter: RateLimiter) -> None:
        self._limiter = limiter

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(handler_call_details)
        method: str = handler_call_details.method
        if handler is None or _is_exempt(method):
            return handler
        rpc = method.rpartition("/")[2]

        async def before(request: Any, context: Context) -> After:
            try:
                self._limiter.acquire(current_principal().name)
            except RateLimited as error:
                await abort_with(error, context, rpc)
            return lambda _: None

        return wrap_handler(handler, before)


def _ids(rpc: str, request: Any, response: Any) -> list[str]:
    """The ids of the memories a mutating call names or produced."""
    match request:
        case svc.CreateMemoryRequest():
            return [response.memory.id] if response is not None else [request.memory_id]
        case svc.BatchCreateMemoriesRequest():
            if response is not None:
                return [r.memory.id for r in response.results]
            return [r.memory_id for r in request.requests]
        case svc.UpdateMemoryRequest():
            return [request.memory.id]
        case svc.DeleteMemoryRequest():
            return [request.id]
    return []


_MUTATING = {
    "CreateMemory",
    "BatchCreateMemories",
    "UpdateMemory",
    "DeleteMemory",
    "ForgetMemories",
}


class Audit(grpc.aio.ServerInterceptor):
    """One ``memoryd.audit`` log line per mutating call: principal, RPC, memory
    ids and outcome (the status code). Never content, metadata or tokens."""

    async def intercept_service(
        self, continuation: Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(handler_call_details)
        rpc = handler_call_details.method.rpartition("/")[2]
        if handler is None or rpc not in _MUTATING:
            return handler

        async def before(request: Any, context: Context) -> After:
            principal = current_principal().name

            def after(response: Any) -> None:
                code = context.code()
                outcome = code.name if isinstance(code, grpc.StatusCode) else "OK"
                # Escaped and cut: a rejected request's ids may be anything.
                ids = [
                    i.encode("unicode_escape").decode()[:130]
                    for i in _ids(rpc, request, response)
                    if i
                ]
                extra = ""
                if isinstance(response, svc.ForgetMemoriesResponse):
                    extra = f" deleted_count={response.deleted_count}"
                if isinstance(request, svc.ForgetMemoriesRequest):
                    extra += f" dry_run={request.dry_run}"
                audit_logger.info(
                    "audit principal=%s rpc=%s ids=%s outcome=%s%s",
                    principal,
                    rpc,
                    ",".join(ids) or "-",
                    outcome,
                    extra,
                )

            return after

        return wrap_handler(handler, before)
