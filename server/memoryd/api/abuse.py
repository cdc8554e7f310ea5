"""Interceptors against abuse: oversized or undecodable requests, the rate limit, the audit log."""

from __future__ import annotations

import logging
from typing import Any

import grpc
from google.protobuf import descriptor_pb2
from google.protobuf.message import DecodeError

from memoryd.api.auth import current_principal
from memoryd.api.errors import abort_with
from memoryd.api.interceptor import After, Context, Deserializer, Interceptor, Rpc, nothing_after
from memoryd.core.errors import InvalidArgument, MessageTooLarge, RateLimited
from memoryd.core.ratelimit import RateLimiter
from memoryd.v1 import memory_service_pb2 as svc

audit_logger = logging.getLogger("memoryd.audit")


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


class RejectUndecodable(Interceptor):
    """INVALID_ARGUMENT for a request over ``max_message_bytes``
    (MEMORYD_MAX_MESSAGE_BYTES, reason MESSAGE_TOO_LARGE), and for one that
    does not parse (e.g. a filter nested past the parser's depth limit), where
    gRPC itself would answer RESOURCE_EXHAUSTED or UNKNOWN."""

    def __init__(self, max_message_bytes: int) -> None:
        self._max_message_bytes = max_message_bytes

    def deserializer(self, rpc: Rpc, parse: Deserializer) -> Deserializer:
        limit = self._max_message_bytes

        # Errors become a stand-in request, so that ``before`` can answer with
        # our status: an exception here would reach the client as gRPC's own.
        def deserialize(data: bytes) -> Any:
            if len(data) > limit:
                return _Unreadable(MessageTooLarge(len(data), limit))
            try:
                return parse(data)
            except DecodeError:
                reason = "cannot be parsed (malformed, or nested deeper than 100 levels)"
                return _Unreadable(InvalidArgument("request", reason))

        return deserialize

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        await self.each_message(rpc, request, context)
        return nothing_after

    async def each_message(self, rpc: Rpc, request: Any, context: Context) -> None:
        if isinstance(request, _Unreadable):
            await abort_with(request.error, context, rpc.name)


class RateLimit(Interceptor):
    """RESOURCE_EXHAUSTED with RetryInfo once a principal is over its rate."""

    def __init__(self, limiter: RateLimiter) -> None:
        self._limiter = limiter

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        try:
            self._limiter.acquire(current_principal().name)
        except RateLimited as error:
            await abort_with(error, context, rpc.name)
        return nothing_after


def _ids(request: Any, response: Any) -> list[str]:
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


def _mutating_rpcs() -> frozenset[str]:
    """The RPCs the contract does not mark NO_SIDE_EFFECTS: the ones that write."""
    service = svc.DESCRIPTOR.services_by_name["MemoryService"]
    reads = descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS
    return frozenset(m.name for m in service.methods if m.GetOptions().idempotency_level != reads)


_MUTATING = _mutating_rpcs()


class Audit(Interceptor):
    """One ``memoryd.audit`` log line per mutating call: principal, RPC, memory
    ids and outcome (the status code). Never content, metadata or tokens."""

    def intercepts(self, rpc: Rpc) -> bool:
        return rpc.name in _MUTATING

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        principal = current_principal().name

        def after(response: Any) -> None:
            code = context.code()
            outcome = code.name if isinstance(code, grpc.StatusCode) else "OK"
            # Escaped and cut: a rejected request's ids may be anything.
            ids = [i.encode("unicode_escape").decode()[:130] for i in _ids(request, response) if i]
            extra = ""
            if isinstance(response, svc.ForgetMemoriesResponse):
                extra = f" deleted_count={response.deleted_count}"
            if isinstance(request, svc.ForgetMemoriesRequest):
                extra += f" dry_run={request.dry_run}"
            audit_logger.info(
                "audit principal=%s rpc=%s ids=%s outcome=%s%s",
                principal,
                rpc.name,
                ",".join(ids) or "-",
                outcome,
                extra,
            )

        return after
