"""How the server's background work shares the cores with requests: two servers side by side.

Starts two memoryd servers on scratch data directories that differ in one
setting (--compare):

- spinning: MEMORYD_EMBED_KEEP_SPINNING=true against the default (threads
  stop spinning once a model call ends);
- niceness: MEMORYD_EMBED_THREAD_NICENESS=0 (the model's threads run at the
  server's priority) against the default (they run 10 lower);
- flush: MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS=3600 (no flush of the index in a
  run) against 5 (flushed 5 s after a write is applied; the default was 5 s
  when this was measured, and is 30 s);

loads --memories memories into each, then measures both in alternating
rounds, so the machine's noise falls on both alike: the empty RPC, a search
with a new query text (DENSE, recency off), CreateMemory SYNC and ASYNC back
to back (new texts), and BatchCreate x100 SYNC.

    python bench/model_threads.py --compare niceness --rounds 6
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
from corpus import fresh_queries, memories
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import ServerProcess, percentiles, spread, store, timed

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

#: Per comparison, the two servers' names and environments; the default's first
#: (for flush, the one that flushes).
COMPARISONS: dict[str, dict[str, dict[str, str]]] = {
    "spinning": {
        "threads stop spinning after each call (default)": {},
        "threads keep spinning": {"MEMORYD_EMBED_KEEP_SPINNING": "true"},
    },
    "flush": {
        "index flushed 5 s after a write": {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "5"},
        "no flush within the hour": {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "3600"},
    },
    "niceness": {
        "model threads at niceness 10 (default)": {},
        "model threads at the server's priority": {"MEMORYD_EMBED_THREAD_NICENESS": "0"},
    },
}
SYNC, ASYNC = svc.WRITE_MODE_SYNC, svc.WRITE_MODE_ASYNC


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", choices=COMPARISONS, default="niceness")
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=50, help="calls per series per round")
    args = parser.parse_args()
    variants = COMPARISONS[args.compare]
    # Each round takes 2 x calls texts (SYNC and ASYNC creates) and 100 (the batch) per server.
    per_round = len(variants) * (2 * args.calls + 100)
    texts = iter(memories(args.memories * len(variants) + args.rounds * per_round, seed=31))
    asked = iter(fresh_queries(len(variants) * args.rounds * args.calls, seed=32))
    users = max(10, args.memories // 100)  # searches ask user-0 to user-9
    with tempfile.TemporaryDirectory() as scratch:
        servers = {
            name: ServerProcess(Path(scratch) / str(i), env=env).start()
            for i, (name, env) in enumerate(variants.items())
        }
        try:
            channels = {name: server.channel() for name, server in servers.items()}
            for channel in channels.values():
                loaded = [next(texts) for _ in range(args.memories)]
                store(memory_service_pb2_grpc.MemoryServiceStub(channel), spread(loaded, users))
            samples: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
            for round_ in range(args.rounds):
                order = list(variants) if round_ % 2 == 0 else list(reversed(variants))
                for name in order:
                    _round(channels[name], samples[name], texts, asked, args.calls)
            _report(samples, args)
        finally:
            for server in servers.values():
                server.stop()


def _round(
    channel: grpc.Channel,
    samples: dict[str, list[float]],
    texts: Iterator[str],
    asked: Iterator[str],
    calls: int,
) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)

    def search(i: int) -> object:
        request = svc.SearchMemoriesRequest(
            query=next(asked),
            scope=pb.Scope(user_id=f"user-{i % 10}"),
            limit=5,
            retrieval_mode=svc.RETRIEVAL_MODE_DENSE,
        )
        request.recency_half_life.SetInParent()  # zero: recency off
        return stub.SearchMemories(request)

    def create(mode: int) -> Callable[[int], object]:
        def call(i: int) -> object:
            memory = pb.Memory(content=next(texts), scope=pb.Scope(user_id="writer"))
            return stub.CreateMemory(svc.CreateMemoryRequest(memory=memory, mode=mode))

        return call

    series = {
        "empty RPC": lambda i: health.Check(health_pb2.HealthCheckRequest()),
        "search, new query text": search,
        "CreateMemory SYNC": create(SYNC),
        "CreateMemory ASYNC ack, back to back": create(ASYNC),
    }
    for name, call in series.items():
        samples.setdefault(name, []).extend(timed(call, calls))
    # A read of the scope waits for the ASYNC writes, so none runs into the batch.
    stub.ListMemories(svc.ListMemoriesRequest(scope=pb.Scope(user_id="writer"), page_size=1))
    scope = pb.Scope(user_id="batch")
    requests = [
        svc.CreateMemoryRequest(memory=pb.Memory(content=next(texts), scope=scope))
        for _ in range(100)
    ]
    start = time.perf_counter()
    stub.BatchCreateMemories(svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC))
    samples.setdefault("BatchCreate x100 SYNC, ms per memory", []).append(
        (time.perf_counter() - start) * 1000 / 100
    )


def _report(samples: dict[str, dict[str, list[float]]], args: argparse.Namespace) -> None:
    names = list(samples)
    print(
        f"\n{args.rounds} alternating rounds of {args.calls} calls per series, "
        f"{args.memories} memories per server\n"
    )
    print("| series | " + " | ".join(f"{n}: p50 / p95 ms" for n in names) + " | p50 ratio |")
    print("|---|" + "---:|" * (len(names) + 1))
    for series in samples[names[0]]:
        cells = [percentiles(samples[name][series]) for name in names]
        ratio = cells[0][0] / cells[1][0]
        row = " | ".join(f"{p50:.2f} / {p95:.2f}" for p50, p95 in cells)
        print(f"| {series} | {row} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
