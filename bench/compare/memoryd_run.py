"""memoryd through its Python client over loopback: one size, every measurement, as JSON.

Runs in the server's virtualenv (.venv) against a fresh ``memoryd serve``
on a scratch data directory (default configuration, telemetry export off);
prints one JSON object on stdout.

    python -m compare.memoryd_run --size 10000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import ServerProcess

from compare.memoryd_client_calls import (
    ASYNC,
    DEFAULT,
    DENSE,
    HYBRID,
    SYNC,
    batch_create,
    connect,
    create,
    empty_rpc,
    search,
    store_in_batches,
)
from compare.memoryd_load import WRITE_EVERY, LoadPlan, run_clients
from compare.memoryd_preload import preload_samples
from compare.progress import bar, say
from compare.recall_eval import recall_at, recall_corpus
from compare.stats import peak_rss_mb, rate, sample, summary
from compare.workload import Workload, cold_query
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient

PEER = "memoryd"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per latency series")
    parser.add_argument("--load-seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-memoryd-") as data_dir:
        server = ServerProcess(Path(data_dir)).start()
        try:
            result = measure(server, args)
            result["peak_rss_mb"] = peak_rss_mb(server.process.pid) if server.process else None
        finally:
            server.stop()
    json.dump(result, sys.stdout)


def measure(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    workload = Workload(args.size)
    client = connect(server.address)
    result: dict[str, Any] = {"peer": PEER, "size": args.size}

    say(PEER, f"loading {args.size} memories (BatchCreate x100 SYNC)")
    start = time.perf_counter()
    loaded = store_in_batches(client, bar(workload.by_user(), PEER, "load", workload.users))
    result["ingest_per_s"] = rate(loaded, time.perf_counter() - start)
    say(PEER, f"loaded at {result['ingest_per_s']:.0f} memories/s")

    def series(name: str, call: Any, count: int = args.samples) -> None:
        say(PEER, name)
        result[name] = summary(sample(call, count, args.budget))

    empty = empty_rpc(client)
    series("empty_rpc", lambda i: empty())
    series("cold_search", lambda i: search(client, workload.user_of(i), cold_query("cold", i)))
    series(
        "cold_search_default",
        lambda i: search(
            client, workload.user_of(i), cold_query("default", i), DEFAULT, recency=True
        ),
    )
    repeated = cold_query("cached", 0)
    search(client, workload.user_of(0), repeated)  # the one call that embeds it
    series("cached_search", lambda i: search(client, workload.user_of(i), repeated))
    result["preload"] = preload_samples(client, workload, args.samples, args.budget)

    writes = workload.fresh_texts("writes", 2 * args.samples + 1000)
    series("create_sync", lambda i: create(client, "bench-sync", writes[i], SYNC))
    offset = args.samples
    series("create_async", lambda i: create(client, "bench-async", writes[offset + i], ASYNC))
    _wait_applied(client, "bench-async")
    result["batch_create_per_s"] = _batch_rate(client, writes[2 * args.samples :])

    plan = LoadPlan(server.address, args.size, args.load_seconds)
    result["load"] = []
    for clients in args.concurrency:
        say(PEER, f"load: {clients} client threads")
        result["load"].append(run_clients(plan, clients, f"t{clients}", processes=False))
    top = max(args.concurrency)
    say(PEER, f"load: {top} client processes")
    result["load"].append(run_clients(plan, top, f"p{top}", processes=True))
    say(PEER, f"load: {top} clients, 90/10 search/ASYNC create")
    mixed = LoadPlan(server.address, args.size, args.load_seconds, write_every=WRITE_EVERY)
    result["load_mix"] = run_clients(mixed, top, f"m{top}", processes=False)

    say(PEER, "recall")
    result["recall"] = _recall(client)
    client.close()
    return result


def _wait_applied(client: MemorydClient, user: str) -> None:
    """A read of the scope waits for this client's ASYNC writes into it to be applied,
    so they do not run on into the next measurement."""
    client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), page_size=1))


def _batch_rate(client: MemorydClient, texts: list[str]) -> float:
    """BatchCreateMemories x100 SYNC of distinct new texts: memories/s."""
    start = time.perf_counter()
    for offset in range(0, len(texts), 100):
        batch_create(client, f"bench-batch-{offset // 100}", texts[offset : offset + 100])
    return rate(len(texts), time.perf_counter() - start)


def _recall(client: MemorydClient) -> dict[str, Any]:
    cases, stored = recall_corpus()
    store_in_batches(client, stored.items())
    return {
        name: recall_at(cases, lambda case, m=mode: search(client, case.user, case.query, m))
        for name, mode in (("DENSE", DENSE), ("HYBRID", HYBRID))
    }


if __name__ == "__main__":
    main()
