"""The shape every memoryd interceptor shares, and OnePass, which runs them all around a call."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple

import grpc

type Context = grpc.aio.ServicerContext[Any, Any]
#: Called once the RPC is over, with its response (None for a stream or an error).
type After = Callable[[Any], None]
type Deserializer = Callable[[bytes], Any]
type _Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[Any]]

#: Probes and tooling: they answer without credentials, touch no memory, and
#: are neither traced, counted, limited nor audited.
EXEMPT_SERVICES = ("grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection")


def nothing_after(response: Any) -> None:
    """The After of a hook with nothing to do once the RPC is over."""


class Rpc(NamedTuple):
    """The method a call is for, from ``/memoryd.v1.MemoryService/CreateMemory``."""

    service: str
    name: str


class Interceptor(ABC):
    """Runs ``before`` ahead of every unary, server- or client-streaming call
    of a service other than EXEMPT_SERVICES, and what it returns once the call is
    over (streams included, errors included).

    A subclass says what it does per call in ``before``, may narrow the calls
    with ``intercepts``, and may parse requests itself with ``deserializer``.
    The server runs them through OnePass, the gRPC interceptor.
    """

    @abstractmethod
    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        """Runs before the behavior; may abort the RPC; returns what to run after it."""

    def intercepts(self, rpc: Rpc) -> bool:
        """Whether calls of ``rpc`` go through ``before``; by default all do."""
        return True

    def deserializer(self, rpc: Rpc, parse: Deserializer) -> Deserializer:
        """The request parser of ``rpc``, given the service's own ``parse``."""
        return parse

    async def each_message(self, rpc: Rpc, request: Any, context: Context) -> None:
        """Runs on each message of a client stream (whose ``before`` gets no
        request); may abort the RPC. By default does nothing."""
        return None


class OnePass(grpc.aio.ServerInterceptor):
    """Runs several Interceptors as one, in their order: each call goes through
    one wrapper, not one per interceptor, and each method's wrapper is built
    once, on its first call.

    As a chain of them would: ``before`` hooks run first to last, and once the
    call is over the Afters of those that ran, last to first; a ``before`` that
    aborts stops the hooks after it. Parsers wrap inward (the first
    interceptor's sees the bytes first); ``each_message`` runs first to last.
    """

    def __init__(self, interceptors: Sequence[Interceptor]) -> None:
        self._interceptors = tuple(interceptors)
        #: method -> (the service's handler, what calls of it are answered with)
        self._wrapped: dict[str, tuple[Any, Any]] = {}

    async def intercept_service(
        self, continuation: _Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(handler_call_details)
        method: str = handler_call_details.method
        known = self._wrapped.get(method)
        if known is not None and known[0] is handler:
            return known[1]
        if handler is None:  # not kept: a client may send any number of unknown names
            return None
        wrapped = self._wrap(method, handler)
        self._wrapped[method] = (handler, wrapped)
        return wrapped

    def _wrap(self, method: str, handler: Any) -> Any:
        service, _, name = method.strip("/").partition("/")
        rpc = Rpc(service, name)
        if service in EXEMPT_SERVICES:
            return handler
        hooks = tuple(i for i in self._interceptors if i.intercepts(rpc))
        if not hooks:
            return handler
        return _wrapped_handler(rpc, hooks, handler)


def _wrapped_handler(
    rpc: Rpc, hooks: tuple[Interceptor, ...], handler: grpc.RpcMethodHandler[Any, Any]
) -> grpc.RpcMethodHandler[Any, Any]:
    deserialize = handler.request_deserializer
    if deserialize is not None:
        for hook in reversed(hooks):
            deserialize = hook.deserializer(rpc, deserialize)
    if handler.unary_unary is not None:
        unary_behavior: Any = handler.unary_unary

        async def unary(request: Any, context: Context) -> Any:
            afters: list[After] = []
            response = None
            try:
                for hook in hooks:
                    afters.append(await hook.before(rpc, request, context))
                response = await unary_behavior(request, context)
                return response
            finally:
                for after in reversed(afters):
                    after(response)

        return grpc.unary_unary_rpc_method_handler(unary, deserialize, handler.response_serializer)
    if handler.unary_stream is not None:
        stream_behavior: Any = handler.unary_stream

        async def stream(request: Any, context: Context) -> Any:
            afters: list[After] = []
            try:
                for hook in hooks:
                    afters.append(await hook.before(rpc, request, context))
                async for response in stream_behavior(request, context):
                    yield response
            finally:
                for after in reversed(afters):
                    after(None)

        return grpc.unary_stream_rpc_method_handler(
            stream, deserialize, handler.response_serializer
        )
    if handler.stream_unary is not None:
        client_stream_behavior: Any = handler.stream_unary

        async def client_stream(requests: Any, context: Context) -> Any:
            async def checked() -> Any:
                async for request in requests:
                    for hook in hooks:
                        await hook.each_message(rpc, request, context)
                    yield request

            afters: list[After] = []
            response = None
            try:
                for hook in hooks:
                    afters.append(await hook.before(rpc, None, context))
                response = await client_stream_behavior(checked(), context)
                return response
            finally:
                for after in reversed(afters):
                    after(response)

        return grpc.stream_unary_rpc_method_handler(
            client_stream, deserialize, handler.response_serializer
        )
    # Bidi-streaming: MemoryService has none; pass it through.
    return handler
