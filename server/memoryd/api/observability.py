"""gRPC server interceptors for telemetry: spans with trace context, and RPC metrics."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_server_interceptor, filters

from memoryd.core.instruments import Telemetry

#: Probes and tooling, excluded from traces and RPC metrics.
NOT_OBSERVED = ("grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection")


def interceptors(telemetry: Telemetry) -> list[grpc.aio.ServerInterceptor]:
    """Outermost first: the server span (joining the caller's trace), then metrics.

    None when telemetry is off, so it then costs nothing per call.
    """
    if not telemetry.enabled:
        return []
    spans: grpc.aio.ServerInterceptor = aio_server_interceptor(  # type: ignore[no-untyped-call]
        tracer_provider=telemetry.tracer_provider or trace.get_tracer_provider(),
        filter_=filters.negate(filters.any_of(*(filters.service_name(s) for s in NOT_OBSERVED))),
    )
    return [spans, RpcMetrics(telemetry)]


class RpcMetrics(grpc.aio.ServerInterceptor):
    """Records rpc.server.duration by service, method and final status code."""

    def __init__(self, telemetry: Telemetry) -> None:
        self._histogram = telemetry.rpc_duration

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Any:
        handler = await continuation(handler_call_details)
        method: str = handler_call_details.method
        if handler is None or method.startswith(tuple(f"/{s}/" for s in NOT_OBSERVED)):
            return handler
        service, _, name = method.strip("/").partition("/")
        histogram = self._histogram

        def record(started: float, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            code = context.code()
            number = code.value[0] if isinstance(code, grpc.StatusCode) else int(code or 0)
            attributes: dict[str, str | int] = {
                "rpc.system": "grpc",
                "rpc.service": service,
                "rpc.method": name,
                "rpc.grpc.status_code": number,
            }
            histogram.record((time.perf_counter() - started) * 1000, attributes)

        if handler.unary_unary is not None:
            unary_behavior: Any = handler.unary_unary

            async def unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                started = time.perf_counter()
                try:
                    return await unary_behavior(request, context)
                finally:
                    record(started, context)

            return grpc.unary_unary_rpc_method_handler(
                unary, handler.request_deserializer, handler.response_serializer
            )
        if handler.unary_stream is not None:
            stream_behavior: Any = handler.unary_stream

            async def stream(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                started = time.perf_counter()
                try:
                    async for response in stream_behavior(request, context):
                        yield response
                finally:
                    record(started, context)

            return grpc.unary_stream_rpc_method_handler(
                stream, handler.request_deserializer, handler.response_serializer
            )
        return handler
