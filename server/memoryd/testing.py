"""Test and benchmark harness: memoryd servers on ephemeral loopback ports, and an OTLP receiver."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2, metrics_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

_LISTENING = re.compile(r"memoryd listening on [^:]+:(\d+)")
START_TIMEOUT = 60.0


@dataclass
class ServerProcess:
    """A `memoryd serve` subprocess; its log is kept for assertions and failures."""

    data_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[str] | None = None
    port: int = 0
    log: list[str] = field(default_factory=list)
    _reader: threading.Thread | None = None

    def start(self) -> ServerProcess:
        env = {**os.environ, "MEMORYD_LOG_LEVEL": "INFO", **self.env}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "memoryd.cli",
                "serve",
                "--port",
                "0",
                "--data-dir",
                str(self.data_dir),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        port_found = threading.Event()
        self._reader = threading.Thread(target=self._read_log, args=(port_found,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not port_found.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("memoryd did not start:\n" + "".join(self.log))
        return self

    def _read_log(self, port_found: threading.Event) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.log.append(line)
            match = _LISTENING.search(line)
            if match:
                self.port = int(match.group(1))
                port_found.set()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Stops the process (SIGTERM by default) and returns its exit code."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.wait_exit(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.wait_exit(timeout)

    def wait_exit(self, timeout: float = 60.0) -> int:
        """Waits for the process to end, then releases its log pipe."""
        assert self.process is not None
        code = self.process.wait(timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()
        return code


class InProcessServer:
    """A memoryd server on its own event loop thread, in this process.

    For tests that need to look inside (an in-memory span exporter, a fault
    injected into one component); everything else uses ServerProcess.
    """

    def __init__(self, settings: Any, telemetry: Any = None) -> None:
        self.settings = settings
        self.telemetry = telemetry
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.app: Any = None
        self._server: Any = None
        self.port = 0

    def start(self) -> InProcessServer:
        from memoryd.server import build, create_server

        self._thread.start()

        async def boot() -> None:
            self.app = await build(self.settings, self.telemetry)
            self._server, self.port = await create_server(self.settings, self.app)
            await self._server.start()

        asyncio.run_coroutine_threadsafe(boot(), self.loop).result(START_TIMEOUT)
        return self

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stop(self) -> None:
        async def shutdown() -> None:
            await self._server.stop(1)
            await self.app.close()

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(START_TIMEOUT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(START_TIMEOUT)
        self.loop.close()


class OtlpReceiver(
    trace_service_pb2_grpc.TraceServiceServicer, metrics_service_pb2_grpc.MetricsServiceServicer
):
    def __init__(self) -> None:
        self.spans: list[Any] = []
        self.metric_names: set[str] = set()
        self.metric_points: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()

    def Export(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 - gRPC name
        with self._lock:
            if isinstance(request, trace_service_pb2.ExportTraceServiceRequest):
                for resource_spans in request.resource_spans:
                    for scope_spans in resource_spans.scope_spans:
                        self.spans.extend(scope_spans.spans)
                return trace_service_pb2.ExportTraceServiceResponse()
            for resource_metrics in request.resource_metrics:
                for scope_metrics in resource_metrics.scope_metrics:
                    for metric in scope_metrics.metrics:
                        self.metric_names.add(metric.name)
                        for point in _points(metric):
                            attributes = {a.key: _value(a.value) for a in point.attributes}
                            self.metric_points.append((metric.name, attributes))
            return metrics_service_pb2.ExportMetricsServiceResponse()

    def wait_for(self, condition: Callable[[], bool], timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if condition():
                    return True
            time.sleep(0.1)
        return False


def _points(metric: Any) -> list[Any]:
    kind = metric.WhichOneof("data")
    return list(getattr(metric, kind).data_points) if kind else []


def _value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


@contextmanager
def otlp_receiver() -> Iterator[tuple[OtlpReceiver, int]]:
    """A receiver on an ephemeral loopback port: (receiver, port)."""
    receiver = OtlpReceiver()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))

    class Traces(trace_service_pb2_grpc.TraceServiceServicer):
        Export = receiver.Export

    class Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
        Export = receiver.Export

    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Traces(), server)  # type: ignore[no-untyped-call]
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(Metrics(), server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield receiver, port
    finally:
        server.stop(0)
