"""Concurrent clients against one memoryd server: searches/s and latency under load.

Each client has its own ``MemorydClient`` (its own channel) and searches
distinct new query texts for a fixed time. Clients run as threads, and at
the top level also as processes: grpc releases the GIL while a call waits,
but the client's Python work per call does not, so both are measured and
reported, and the report says which one was higher.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass
from typing import Any

from compare.memoryd_client_calls import ASYNC, connect, create, search
from compare.stats import summary
from compare.workload import Workload, cold_query

#: Every WRITE_EVERY-th operation of the mixed load is an ASYNC create (90/10).
WRITE_EVERY = 10


@dataclass(frozen=True)
class LoadPlan:
    address: str
    size: int
    seconds: float
    write_every: int = 0  # 0: searches only


def client_loop(plan: LoadPlan, client_no: int, tag: str, start_at: float) -> dict[str, Any]:
    """One client's searches (and writes, in the mix) until the plan's time is up."""
    workload = Workload(plan.size)
    client = connect(plan.address)
    reads: list[float] = []
    writes: list[float] = []
    try:
        time.sleep(max(0.0, start_at - time.time()))
        deadline = time.perf_counter() + plan.seconds
        i = 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            if plan.write_every and i % plan.write_every == plan.write_every - 1:
                create(client, f"mix-{tag}-{client_no}", cold_query(f"w{tag}{client_no}", i), ASYNC)
                writes.append((time.perf_counter() - started) * 1000)
            else:
                query = cold_query(f"{tag}-{client_no}", i)
                search(client, workload.user_of(client_no * 7919 + i), query)
                reads.append((time.perf_counter() - started) * 1000)
            i += 1
    finally:
        client.close()
    return {"reads": reads, "writes": writes, "ended": time.time()}


def _process_main(plan: LoadPlan, client_no: int, tag: str, start_at: float, out: Any) -> None:
    out.put(client_loop(plan, client_no, tag, start_at))


def run_clients(plan: LoadPlan, clients: int, tag: str, *, processes: bool) -> dict[str, Any]:
    """Runs ``clients`` clients at once; their summed operations per second and latencies."""
    start_at = time.time() + (3.0 if processes else 0.5)
    results: list[dict[str, Any]] = []
    if processes:
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        workers = [
            context.Process(target=_process_main, args=(plan, c, tag, start_at, queue))
            for c in range(clients)
        ]
        for worker in workers:
            worker.start()
        results = [queue.get(timeout=plan.seconds + 120) for _ in workers]
        for worker in workers:
            worker.join()
    else:
        lock = threading.Lock()

        def thread_main(c: int) -> None:
            outcome = client_loop(plan, c, tag, start_at)
            with lock:
                results.append(outcome)

        threads = [threading.Thread(target=thread_main, args=(c,)) for c in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    reads = [s for r in results for s in r["reads"]]
    writes = [s for r in results for s in r["writes"]]
    # From the common start to the last client's last answer: each finishes its call in flight.
    seconds = max(r["ended"] for r in results) - start_at
    return {
        "clients": clients,
        "how": "processes" if processes else "threads",
        "seconds": seconds,
        "searches_per_s": len(reads) / seconds,
        "writes_per_s": len(writes) / seconds,
        "search": summary(reads, keep_samples=False),
        "write": summary(writes, keep_samples=False),
    }
