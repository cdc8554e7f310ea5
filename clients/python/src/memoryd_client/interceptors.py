"""Client interceptors: bearer token and OpenTelemetry trace context.

Each call gets the same extra metadata from ``call_metadata``; the sync and async
interceptors differ only in how gRPC hands them the call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import grpc

try:  # OpenTelemetry is optional: propagate trace context only when it is installed.
    from opentelemetry import propagate as _otel_propagate
except ImportError:  # pragma: no cover - exercised only without opentelemetry-api
    _otel_propagate = None  # type: ignore[assignment]  # optional dependency is absent

Metadata = list[tuple[str, str | bytes]]


def tracing_available() -> bool:
    """Whether W3C trace context is injected (opentelemetry-api is importable)."""
    return _otel_propagate is not None


def call_metadata(token: str | None) -> Metadata:
    """The metadata every call carries: the bearer token if any, and the caller's
    active OpenTelemetry context (traceparent/tracestate/baggage)."""
    metadata: Metadata = []
    if token is not None:
        metadata.append(("authorization", f"Bearer {token}"))
    if _otel_propagate is not None:
        carrier: dict[str, str] = {}
        _otel_propagate.inject(carrier)
        metadata.extend((key.lower(), value) for key, value in carrier.items())
    return metadata


def _merged(existing: Any, extra: Metadata) -> Metadata:
    return [*(tuple(item) for item in (existing or ())), *extra]


class _CallDetails(NamedTuple):
    method: str
    timeout: float | None
    metadata: Any
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


class MetadataInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Sync interceptor adding ``call_metadata`` to every unary and server-streaming call."""

    def __init__(self, token: str | None) -> None:
        self._token = token

    def _details(self, client_call_details: Any) -> _CallDetails:
        return _CallDetails(
            client_call_details.method,
            client_call_details.timeout,
            _merged(client_call_details.metadata, call_metadata(self._token)),
            client_call_details.credentials,
            client_call_details.wait_for_ready,
            getattr(client_call_details, "compression", None),
        )

    def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._details(client_call_details), request)


class _AsyncMetadata:
    """Adds ``call_metadata`` to an async call, whatever its type.

    grpc.aio runs interceptors in a task that copies the caller's contextvars, so
    the OpenTelemetry context active at the call site is the one injected.
    """

    def __init__(self, token: str | None) -> None:
        self._token = token

    async def _intercept(
        self, continuation: Any, client_call_details: grpc.aio.ClientCallDetails, request: Any
    ) -> Any:
        return await continuation(_aio_details(client_call_details, self._token), request)


class AsyncMetadataInterceptor(_AsyncMetadata, grpc.aio.UnaryUnaryClientInterceptor):
    """Async interceptor adding ``call_metadata`` to every unary call."""

    intercept_unary_unary = _AsyncMetadata._intercept


class AsyncStreamMetadataInterceptor(_AsyncMetadata, grpc.aio.UnaryStreamClientInterceptor):
    """Async interceptor adding ``call_metadata`` to every server-streaming call (Preload).

    A separate class: grpc.aio files each interceptor under one call type only.
    """

    intercept_unary_stream = _AsyncMetadata._intercept


def _aio_details(
    client_call_details: grpc.aio.ClientCallDetails, token: str | None
) -> grpc.aio.ClientCallDetails:
    return grpc.aio.ClientCallDetails(
        client_call_details.method,
        client_call_details.timeout,
        grpc.aio.Metadata(*_merged(client_call_details.metadata, call_metadata(token))),
        client_call_details.credentials,
        client_call_details.wait_for_ready,
    )
