"""Searches while a trickle of writes goes on, on a server that has taken many writes.

A flush of the embedded index holds the GIL, so every call waits for it, and at
scale it is slow: its cost in Qdrant Edge 0.9.0 grows with the points written
since the shard was opened (a flush that syncs one new point took 110 ms at 1M
points written by the process; 20 ms at 300k just opened). This starts one
server per flush setting, imports ``--size`` memories into each (seeded random
vectors: no model time), then alternates rounds: for ``--seconds`` a writer
creates new memories (SYNC, so that it can count those stored) at ``--rate`` a
second while a reader sends a search every ``--every-ms``, each timed from when
it was due (a search held up by a stall delays the ones after it, as it would
delay callers arriving on their own schedule). Prints each setting's
percentiles and how many searches took longer than ``--stall-ms``.

    python flush_stalls.py --size 200000 --rounds 2
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from compare.memoryd_client_calls import DENSE, SYNC, connect, create, search
from compare.million import import_random_vectors
from compare.stats import summary
from corpus import memories
from harness import ServerProcess

from memoryd.v1 import memory_service_pb2 as svc

SETTINGS = {
    "flush every 5 s": {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "5"},
    "flush every 30 s": {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "30"},
}
USERS = [f"stall-user-{i}" for i in range(20)]
QUERIES = [f"what did I say about topic {i}" for i in range(20)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=20.0, help="creates a second")
    parser.add_argument("--every-ms", type=float, default=10.0, help="between searches")
    parser.add_argument("--stall-ms", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-flush-") as scratch:
        servers = {}
        try:
            for label, env in SETTINGS.items():
                data_dir = Path(scratch) / label.replace(" ", "-")
                servers[label] = ServerProcess(data_dir, env=env).start()
                client = connect(servers[label].address)
                print(f"{label}: importing {args.size} memories", flush=True)
                import_random_vectors(client, args.size)
                client.close()
            latencies: dict[str, list[float]] = {label: [] for label in servers}
            stored = dict.fromkeys(servers, 0)
            wanted = args.rounds * len(servers) * args.rate * args.seconds
            texts = iter(memories(int(wanted * 1.2) + 100, seed=23))
            for round_number in range(args.rounds):
                for label, server in servers.items():
                    searched, created = under_writes(server.address, texts, args)
                    latencies[label] += searched
                    stored[label] += created
                    print(f"round {round_number + 1}, {label}: done", flush=True)
        finally:
            for server in servers.values():
                server.stop()
    report(latencies, stored, args)


def under_writes(
    address: str, texts: Iterator[str], args: argparse.Namespace
) -> tuple[list[float], int]:
    """Milliseconds from when each search was due to its answer, while a writer
    creates at ``args.rate``; and how many of its creates stored a memory."""
    stop = threading.Event()
    created: list[int] = []
    writer = threading.Thread(target=write_trickle, args=(address, texts, args.rate, stop, created))
    client = connect(address)
    samples: list[float] = []
    writer.start()
    try:
        start = time.perf_counter()
        for i in range(int(args.seconds * 1000 / args.every_ms)):
            due = start + i * args.every_ms / 1000
            time.sleep(max(0.0, due - time.perf_counter()))
            search(client, USERS[i % len(USERS)], QUERIES[i % len(QUERIES)], DENSE)
            samples.append((time.perf_counter() - due) * 1000)
    finally:
        stop.set()
        writer.join()
        client.close()
    return samples, sum(created)


def write_trickle(
    address: str, texts: Iterator[str], rate: float, stop: threading.Event, created: list[int]
) -> None:
    """Creates memories at ``rate`` until ``stop``; appends 1 per memory stored
    (a near-duplicate is skipped: it changes nothing in the index)."""
    client = connect(address)
    written = 0
    start = time.perf_counter()
    while not stop.is_set():
        answer = create(client, USERS[written % len(USERS)], next(texts), SYNC)
        created.append(int(answer.outcome == svc.WRITE_OUTCOME_CREATED))
        written += 1
        stop.wait(max(0.0, start + written / rate - time.perf_counter()))
    client.close()


def report(
    latencies: dict[str, list[float]], stored: dict[str, int], args: argparse.Namespace
) -> None:
    print(
        f"\n{args.size} memories imported; {args.rate:g} creates/s; a search every "
        f"{args.every_ms:g} ms; {args.rounds} rounds of {args.seconds:g} s"
    )
    print(
        "| setting | memories stored | searches | p50 ms | p95 ms | p99 ms | max ms "
        f"| over {args.stall_ms:g} ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, samples in latencies.items():
        cut = summary(samples, keep_samples=False)
        row = " | ".join(f"{cut[q]:.2f}" for q in ("p50", "p95", "p99"))
        slow = sum(1 for s in samples if s > args.stall_ms)
        print(
            f"| {label} | {stored[label]} | {len(samples)} | {row} | {max(samples):.1f} | {slow} |"
        )


if __name__ == "__main__":
    main()
