"""What every call carries: the bearer token and the OpenTelemetry trace context.

Each call gets the same extra metadata from ``call_metadata``: a sync call from
MetadataChannel, an async one from ``async_metadata_interceptors``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

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


class _WithMetadata:
    """One method of a channel, each of its calls sent with ``call_metadata``
    (``request`` is a request iterator for a client-streaming method)."""

    __slots__ = ("_method", "_token")

    def __init__(self, method: Any, token: str | None) -> None:
        self._method = method
        self._token = token

    def _metadata(self, metadata: Any) -> Metadata:
        return _merged(metadata, call_metadata(self._token))

    def __call__(
        self, request: Any, timeout: float | None = None, metadata: Any = None, **options: Any
    ) -> Any:
        return self._method(request, timeout, self._metadata(metadata), **options)

    def with_call(
        self, request: Any, timeout: float | None = None, metadata: Any = None, **options: Any
    ) -> Any:
        return self._method.with_call(request, timeout, self._metadata(metadata), **options)

    def future(
        self, request: Any, timeout: float | None = None, metadata: Any = None, **options: Any
    ) -> Any:
        return self._method.future(request, timeout, self._metadata(metadata), **options)


def _wrapping(kind: str) -> Callable[..., Any]:
    """MetadataChannel's method of one call type (``unary_unary`` and so on)."""

    def wrapped(
        self: MetadataChannel,
        method: str,
        request_serializer: Any = None,
        response_deserializer: Any = None,
        **options: Any,
    ) -> _WithMetadata:
        make = getattr(self._channel, kind)
        return _WithMetadata(
            make(method, request_serializer, response_deserializer, **options), self._token
        )

    wrapped.__name__ = kind
    return wrapped


class MetadataChannel(grpc.Channel):
    """``channel`` with ``call_metadata`` on every call of every kind, unary or
    streaming either way (ImportMemories streams its requests).

    Not grpc.intercept_channel: that builds the method's callable again on each
    call; here each stub method wraps its callable once. Interceptors of the
    caller's own go in ``channel``, so they see this metadata, as they would
    after a built-in interceptor. ``options`` carries grpc's private
    ``_registered_method`` from generated stubs.
    """

    def __init__(self, channel: grpc.Channel, token: str | None) -> None:
        self._channel = channel
        self._token = token

    unary_unary = _wrapping("unary_unary")
    unary_stream = _wrapping("unary_stream")
    stream_unary = _wrapping("stream_unary")
    stream_stream = _wrapping("stream_stream")

    def subscribe(
        self, callback: Callable[[grpc.ChannelConnectivity], None], try_to_connect: bool = False
    ) -> None:
        self._channel.subscribe(callback, try_to_connect)

    def unsubscribe(self, callback: Callable[[grpc.ChannelConnectivity], None]) -> None:
        self._channel.unsubscribe(callback)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


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


class _AsyncUnaryMetadata(_AsyncMetadata, grpc.aio.UnaryUnaryClientInterceptor):
    intercept_unary_unary = _AsyncMetadata._intercept


class _AsyncResponseStreamMetadata(_AsyncMetadata, grpc.aio.UnaryStreamClientInterceptor):
    intercept_unary_stream = _AsyncMetadata._intercept


class _AsyncRequestStreamMetadata(_AsyncMetadata, grpc.aio.StreamUnaryClientInterceptor):
    async def intercept_stream_unary(
        self, continuation: Any, client_call_details: grpc.aio.ClientCallDetails, requests: Any
    ) -> Any:
        return await self._intercept(continuation, client_call_details, requests)


def async_metadata_interceptors(token: str | None) -> list[grpc.aio.ClientInterceptor]:
    """Interceptors adding ``call_metadata`` to every async call the service has:
    unary, server-streaming (Preload, Export, Watch) and client-streaming
    (ImportMemories). One per call type: grpc.aio files each interceptor under one."""
    return [
        _AsyncUnaryMetadata(token),
        _AsyncResponseStreamMetadata(token),
        _AsyncRequestStreamMetadata(token),
    ]


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
