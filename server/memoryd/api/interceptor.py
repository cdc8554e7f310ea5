"""The shape every memoryd interceptor shares: route a call once, run a hook around its behavior."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Callable
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


class Interceptor(grpc.aio.ServerInterceptor):
    """Runs ``before`` ahead of every unary, server- or client-streaming call
    of a service other than EXEMPT_SERVICES, and what it returns once the call is
    over (streams included, errors included).

    A subclass says what it does per call in ``before``, may narrow the calls
    with ``intercepts``, and may parse requests itself with ``deserializer``.
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

    async def intercept_service(
        self, continuation: _Continuation, handler_call_details: grpc.HandlerCallDetails
    ) -> Any:
        handler = await continuation(handler_call_details)
        method: str = handler_call_details.method
        service, _, name = method.strip("/").partition("/")
        rpc = Rpc(service, name)
        if handler is None or service in EXEMPT_SERVICES or not self.intercepts(rpc):
            return handler
        return self._wrap(rpc, handler)

    def _wrap(
        self, rpc: Rpc, handler: grpc.RpcMethodHandler[Any, Any]
    ) -> grpc.RpcMethodHandler[Any, Any]:
        parse = handler.request_deserializer
        deserialize = parse if parse is None else self.deserializer(rpc, parse)
        if handler.unary_unary is not None:
            unary_behavior: Any = handler.unary_unary

            async def unary(request: Any, context: Context) -> Any:
                after = await self.before(rpc, request, context)
                response = None
                try:
                    response = await unary_behavior(request, context)
                    return response
                finally:
                    after(response)

            return grpc.unary_unary_rpc_method_handler(
                unary, deserialize, handler.response_serializer
            )
        if handler.unary_stream is not None:
            stream_behavior: Any = handler.unary_stream

            async def stream(request: Any, context: Context) -> Any:
                after = await self.before(rpc, request, context)
                try:
                    async for response in stream_behavior(request, context):
                        yield response
                finally:
                    after(None)

            return grpc.unary_stream_rpc_method_handler(
                stream, deserialize, handler.response_serializer
            )
        if handler.stream_unary is not None:
            client_stream_behavior: Any = handler.stream_unary

            async def client_stream(requests: Any, context: Context) -> Any:
                after = await self.before(rpc, None, context)

                async def checked() -> Any:
                    async for request in requests:
                        await self.each_message(rpc, request, context)
                        yield request

                response = None
                try:
                    response = await client_stream_behavior(checked(), context)
                    return response
                finally:
                    after(response)

            return grpc.stream_unary_rpc_method_handler(
                client_stream, deserialize, handler.response_serializer
            )
        # Bidi-streaming: MemoryService has none; pass it through.
        return handler
