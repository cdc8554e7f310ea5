"""The server's interceptors: telemetry's (spans with trace context, RPC metrics) first."""

from __future__ import annotations

import time
from typing import Any

import grpc
from opentelemetry import trace

from memoryd.api.interceptor import EXEMPT_SERVICES, After, Context, Interceptor, OnePass, Rpc
from memoryd.core.instruments import Telemetry


def interceptors(telemetry: Telemetry, *inner: Interceptor) -> list[grpc.aio.ServerInterceptor]:
    """Outermost first: the server span (joining the caller's trace), then one
    pass (one wrapper per call) of the RPC metrics and ``inner``, in order.

    Telemetry off adds neither span nor metrics, so it then costs nothing per call,
    nor the instrumentation's import at start-up (about 40 ms).
    """
    if not telemetry.enabled:
        return [OnePass(inner)]
    from opentelemetry.instrumentation.grpc import aio_server_interceptor, filters

    spans: grpc.aio.ServerInterceptor = aio_server_interceptor(  # type: ignore[no-untyped-call]
        tracer_provider=telemetry.tracer_provider or trace.get_tracer_provider(),
        filter_=filters.negate(filters.any_of(*(filters.service_name(s) for s in EXEMPT_SERVICES))),
    )
    return [spans, OnePass([RpcMetrics(telemetry), *inner])]


class RpcMetrics(Interceptor):
    """Records rpc.server.duration by service, method and final status code."""

    def __init__(self, telemetry: Telemetry) -> None:
        self._histogram = telemetry.rpc_duration
        #: One attribute set per method and code, built on its first call.
        self._attributes: dict[tuple[Rpc, int], dict[str, str | int]] = {}

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        started = time.perf_counter()

        def record(response: Any) -> None:
            elapsed_ms = (time.perf_counter() - started) * 1000
            code = context.code()
            number = code.value[0] if isinstance(code, grpc.StatusCode) else int(code or 0)
            attributes = self._attributes.get((rpc, number))
            if attributes is None:
                attributes = self._attributes[(rpc, number)] = {
                    "rpc.system": "grpc",
                    "rpc.service": rpc.service,
                    "rpc.method": rpc.name,
                    "rpc.grpc.status_code": number,
                }
            self._histogram.record(elapsed_ms, attributes)

        return record
