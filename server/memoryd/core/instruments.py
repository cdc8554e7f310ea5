"""The instruments every layer records with: a tracer, a meter and memoryd's metrics.

Core records to them through the OpenTelemetry API only, which is a no-op
until telemetry.py installs an SDK; nothing here configures exporters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from opentelemetry import metrics, trace

INSTRUMENTATION = "memoryd"


@dataclass
class Telemetry:
    """The tracer, meter and instruments every layer records with.

    ``record_content`` (MEMORYD_TELEMETRY_RECORD_CONTENT) allows memory
    content and query text in span attributes; off by default because they are
    personal data.
    """

    enabled: bool = False
    record_content: bool = False
    tracer: trace.Tracer = field(default_factory=trace.NoOpTracer)
    meter: metrics.Meter = field(default_factory=lambda: metrics.NoOpMeter(INSTRUMENTATION))
    #: The provider server spans come from; None means the global one.
    tracer_provider: trace.TracerProvider | None = None
    _shutdown: list[Callable[[], object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rpc_duration = self.meter.create_histogram(
            "rpc.server.duration",
            unit="ms",
            description="Duration of memoryd RPCs, by method and status.",
        )
        self.embed_duration = self.meter.create_histogram(
            "memoryd.embed.duration", unit="ms", description="Duration of one embedding model call."
        )
        self.embed_batch_size = self.meter.create_histogram(
            "memoryd.embed.batch_size", unit="{text}", description="Texts per embedding model call."
        )
        self.memories_stored = self.meter.create_counter(
            "memoryd.memories.stored",
            unit="{memory}",
            description="Memories created or updated by key.",
        )
        self.preload_first_event = self.meter.create_histogram(
            "memoryd.preload.time_to_first_event",
            unit="ms",
            description="Preload: request to first event.",
        )

    def observe_backlog(self, backlog: Callable[[], int]) -> None:
        """Reports the journal backlog as a gauge, read at each export."""

        def observe(_: metrics.CallbackOptions) -> Iterable[metrics.Observation]:
            yield metrics.Observation(backlog())

        self.meter.create_observable_gauge(
            "memoryd.journal.backlog",
            callbacks=[observe],
            unit="{write}",
            description="Journaled writes waiting to be indexed.",
        )

    def shutdown(self) -> None:
        """Flushes and stops the exporters."""
        for stop in self._shutdown:
            stop()
