"""gRPC server interceptors for telemetry: spans with trace context, and RPC metrics."""

from __future__ import annotations

import time
from typing import Any

import grpc
from opentelemetry import trace
from opentelemetry.instrumentation.grpc import aio_server_interceptor, filters

from memoryd.api.interceptor import EXEMPT_SERVICES, After, Context, Interceptor, Rpc
from memoryd.core.instruments import Telemetry


def interceptors(telemetry: Telemetry) -> list[grpc.aio.ServerInterceptor]:
    """Outermost first: the server span (joining the caller's trace), then metrics.

    None when telemetry is off, so it then costs nothing per call.
    """
    if not telemetry.enabled:
        return []
    spans: grpc.aio.ServerInterceptor = aio_server_interceptor(  # type: ignore[no-untyped-call]
        tracer_provider=telemetry.tracer_provider or trace.get_tracer_provider(),
        filter_=filters.negate(filters.any_of(*(filters.service_name(s) for s in EXEMPT_SERVICES))),
    )
    return [spans, RpcMetrics(telemetry)]


class RpcMetrics(Interceptor):
    """Records rpc.server.duration by service, method and final status code."""

    def __init__(self, telemetry: Telemetry) -> None:
        self._histogram = telemetry.rpc_duration

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        started = time.perf_counter()

        def record(response: Any) -> None:
            code = context.code()
            number = code.value[0] if isinstance(code, grpc.StatusCode) else int(code or 0)
            attributes: dict[str, str | int] = {
                "rpc.system": "grpc",
                "rpc.service": rpc.service,
                "rpc.method": rpc.name,
                "rpc.grpc.status_code": number,
            }
            self._histogram.record((time.perf_counter() - started) * 1000, attributes)

        return record
