"""Wrapping a method handler's behavior: the one mechanism the interceptors share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc

type Context = grpc.aio.ServicerContext[Any, Any]
#: Called once the RPC is over, with its response (None for a stream or an error).
type After = Callable[[Any], None]
#: Runs before the behavior; may abort the RPC; returns what to run after it.
type Before = Callable[[Any, Context], Awaitable[After]]


def wrap_handler(
    handler: grpc.RpcMethodHandler[Any, Any],
    before: Before,
    request_deserializer: Callable[[bytes], Any] | None = None,
) -> grpc.RpcMethodHandler[Any, Any]:
    """The handler with ``before`` around each call of its unary or
    server-streaming behavior (and, if given, another request deserializer);
    other kinds are returned unchanged."""
    deserialize = request_deserializer or handler.request_deserializer
    if handler.unary_unary is not None:
        unary_behavior: Any = handler.unary_unary

        async def unary(request: Any, context: Context) -> Any:
            after = await before(request, context)
            response = None
            try:
                response = await unary_behavior(request, context)
                return response
            finally:
                after(response)

        return grpc.unary_unary_rpc_method_handler(unary, deserialize, handler.response_serializer)
    if handler.unary_stream is not None:
        stream_behavior: Any = handler.unary_stream

        async def stream(request: Any, context: Context) -> Any:
            after = await before(request, context)
            try:
                async for response in stream_behavior(request, context):
                    yield response
            finally:
                after(None)

        return grpc.unary_stream_rpc_method_handler(
            stream, deserialize, handler.response_serializer
        )
    return handler
