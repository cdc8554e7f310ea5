"""Searches while a trickle of writes goes on, on a server that has taken many writes.

A flush of the embedded index holds the GIL, so every call waits for it, and at
scale it is slow: Qdrant Edge 0.9.0 keeps, for every payload index, a record of
each point written since the shard was opened, and copies it at every flush
(at 1M points written, a flush that syncs one new point took 110 ms; after a
restart, 20 ms at 300k). This starts one server per flush setting, imports
``--size`` memories into each (seeded random vectors: no model time), then
alternates rounds: for ``--seconds`` a writer creates memories ASYNC at
``--rate`` a second while a reader sends a search every ``--every-ms``, each
timed from when it was due (a search held up by a stall delays the ones after
it, as it would delay callers arriving on their own schedule). Prints each
setting's percentiles and how many searches took longer than ``--stall-ms``.

    python flush_stalls.py --size 200000 --rounds 2
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

from compare.memoryd_client_calls import ASYNC, DENSE, connect, create, search
from compare.million import import_random_vectors
from compare.stats import summary
from harness import ServerProcess

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
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--rate", type=float, default=20.0, help="ASYNC creates a second")
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
            for round_number in range(args.rounds):
                for label, server in servers.items():
                    latencies[label] += under_writes(server.address, args)
                    print(f"round {round_number + 1}, {label}: done", flush=True)
        finally:
            for server in servers.values():
                server.stop()
    report(latencies, args)


def under_writes(address: str, args: argparse.Namespace) -> list[float]:
    """Milliseconds from when each search was due to its answer, while a writer
    creates at ``args.rate``."""
    stop = threading.Event()
    writer = threading.Thread(target=write_trickle, args=(address, args.rate, stop))
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
    return samples


def write_trickle(address: str, rate: float, stop: threading.Event) -> None:
    client = connect(address)
    written = 0
    start = time.perf_counter()
    while not stop.is_set():
        create(client, USERS[written % len(USERS)], f"trickled memory {written} {start}", ASYNC)
        written += 1
        stop.wait(max(0.0, start + written / rate - time.perf_counter()))
    client.close()


def report(latencies: dict[str, list[float]], args: argparse.Namespace) -> None:
    print(
        f"\n{args.size} memories imported; {args.rate:g} ASYNC creates/s; a search every "
        f"{args.every_ms:g} ms; {args.rounds} rounds of {args.seconds:g} s"
    )
    print(f"| setting | searches | p50 ms | p95 ms | p99 ms | max ms | over {args.stall_ms:g} ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, samples in latencies.items():
        cut = summary(samples, keep_samples=False)
        row = " | ".join(f"{cut[q]:.2f}" for q in ("p50", "p95", "p99"))
        slow = sum(1 for s in samples if s > args.stall_ms)
        print(f"| {label} | {len(samples)} | {row} | {max(samples):.1f} | {slow} |")


if __name__ == "__main__":
    main()
