"""OpenTelemetry for the server: providers and exporters for core/instruments.py's Telemetry.

Configured by the standard OTEL_* variables (endpoint, headers, protocol,
service name, sampler). With telemetry off nothing is installed: the API's
no-op tracer and meter cost a function call, and no interceptor runs.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from opentelemetry import metrics, trace

from memoryd.core.instruments import INSTRUMENTATION, Telemetry

logger = logging.getLogger(__name__)


def setup(mode: str, record_content: bool) -> Telemetry:
    """Installs OTLP tracing and metrics if ``mode`` is "on", or "auto" with an
    OTLP endpoint in the environment; otherwise returns no-op telemetry."""
    if not _is_wanted(mode):
        return Telemetry(record_content=record_content)
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    span_exporter, metric_exporter = _exporters()
    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "memoryd")})
    tracer_provider = TracerProvider(resource=resource)
    # The batch processor exports off the request path; the simple one halves throughput.
    tracer_provider.add_span_processor(BatchSpanProcessor(span_exporter))
    meter_provider = MeterProvider(
        resource=resource, metric_readers=[PeriodicExportingMetricReader(metric_exporter)]
    )
    trace.set_tracer_provider(tracer_provider)
    metrics.set_meter_provider(meter_provider)
    logger.info("OpenTelemetry on: exporting traces and metrics over OTLP")
    return Telemetry(
        enabled=True,
        record_content=record_content,
        tracer=trace.get_tracer(INSTRUMENTATION),
        tracer_provider=tracer_provider,
        meter=metrics.get_meter(INSTRUMENTATION),
        _shutdown=[tracer_provider.shutdown, meter_provider.shutdown],
    )


def _is_wanted(mode: str) -> bool:
    if mode == "off" or os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return False
    if mode == "on":
        return True
    return any(
        os.environ.get(name)
        for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )


def _exporters() -> tuple[Any, Any]:
    protocol = os.environ.get(
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
    )
    if protocol.startswith("http"):
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    else:
        from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import (  # type: ignore[assignment]
            OTLPMetricExporter,
        )
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import (  # type: ignore[assignment]
            OTLPSpanExporter,
        )
    return OTLPSpanExporter(), OTLPMetricExporter()


__all__ = ["Telemetry", "setup"]
