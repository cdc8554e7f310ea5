"""Trace context for journaled writes: captured at the request, linked at indexing.

Uses only the OpenTelemetry API, which is a no-op until the server installs an
SDK (telemetry.setup); core never configures telemetry itself.
"""

from __future__ import annotations

from opentelemetry import propagate, trace


def current_trace_context() -> dict[str, str]:
    """The W3C trace context of the current span, to store with a write."""
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return carrier


def links_to(carrier: dict[str, str]) -> list[trace.Link]:
    """A link to the span a stored trace context names, if it is valid."""
    requester = trace.get_current_span(propagate.extract(carrier)).get_span_context()
    return [trace.Link(requester)] if requester.is_valid else []
