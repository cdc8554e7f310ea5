"""Shared benchmark plumbing: a scratch server, loading memories, timing, percentiles."""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

# The server harness lives with the tests (tests/support), outside the server
# distribution; benchmarks share it from this checkout, however they are started.
sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))

from compare.memoryd_client_calls import connect, store_in_batches
from compare.workload import Workload

from support import ServerProcess, otlp_receiver

__all__ = [
    "CHECKOUT",
    "Run",
    "ServerProcess",
    "checkout_env",
    "loaded_server",
    "on_scratch_server",
    "otlp_receiver",
    "percentiles",
    "spread",
    "store",
    "timed",
]

Run = Callable[[grpc.Channel, argparse.Namespace], None]

#: This checkout, whose server the benchmarks run unless told otherwise.
CHECKOUT = Path(__file__).resolve().parent.parent


def checkout_env(tree: Path) -> dict[str, str]:
    """The environment that makes ``memoryd serve`` run another checkout's server
    (its ``server/`` and Python client first on PYTHONPATH) in this one's
    virtualenv, for side-by-side comparisons; nothing for this checkout."""
    if tree.resolve() == CHECKOUT:
        return {}
    paths = [tree / "server", tree / "clients" / "python" / "src", os.environ.get("PYTHONPATH")]
    return {"PYTHONPATH": os.pathsep.join(str(p) for p in paths if p)}


def on_scratch_server(
    run: Run, args: argparse.Namespace, env: dict[str, str] | None = None
) -> None:
    """Runs ``run`` against a fresh memoryd server on a temporary data directory."""
    with tempfile.TemporaryDirectory() as data_dir:
        server = ServerProcess(Path(data_dir), env=env or {}).start()
        try:
            with server.channel() as channel:
                run(channel, args)
        finally:
            server.stop()


@contextlib.contextmanager
def loaded_server(workload: Workload, prefix: str) -> Iterator[ServerProcess]:
    """A memoryd server on a scratch data directory, loaded with ``workload`` as
    bench-compare loads it (BatchCreate x100 SYNC, 100 memories to a user)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as data_dir:
        server = ServerProcess(Path(data_dir)).start()
        try:
            with connect(server.address) as client:
                store_in_batches(client, workload.by_user())
            yield server
        finally:
            server.stop()


def spread(texts: Sequence[str], users: int) -> dict[str, list[str]]:
    """Texts dealt round-robin to ``users`` users named user-0, user-1, ..."""
    by_user: dict[str, list[str]] = {}
    for i, text in enumerate(texts):
        by_user.setdefault(f"user-{i % users}", []).append(text)
    return by_user


def store(
    stub: memory_service_pb2_grpc.MemoryServiceStub, by_user: Mapping[str, Sequence[str]]
) -> float:
    """Stores every user's texts in SYNC batches of 100; returns the seconds it took."""
    start = time.perf_counter()
    for user, texts in by_user.items():
        for offset in range(0, len(texts), 100):
            requests = [
                svc.CreateMemoryRequest(memory=pb.Memory(content=t, scope=pb.Scope(user_id=user)))
                for t in texts[offset : offset + 100]
            ]
            stub.BatchCreateMemories(
                svc.BatchCreateMemoriesRequest(requests=requests, mode=svc.WRITE_MODE_SYNC)
            )
    return time.perf_counter() - start


def timed(call: Callable[[int], object], count: int) -> list[float]:
    """Milliseconds of ``count`` sequential calls."""
    samples = []
    for i in range(count):
        start = time.perf_counter()
        call(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def alternating(calls: Sequence[Callable[[int], object]], numbers: range) -> list[list[float]]:
    """Milliseconds of each of ``calls`` for every number in turn, the one that goes
    first moving on by one each time: so every call meets the machine as it is then."""
    samples: list[list[float]] = [[] for _ in calls]
    for i in numbers:
        shift = i % len(calls)
        for k in [*range(shift, len(calls)), *range(shift)]:
            start = time.perf_counter()
            calls[k](i)
            samples[k].append((time.perf_counter() - start) * 1000)
    return samples


def percentiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p95)."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
