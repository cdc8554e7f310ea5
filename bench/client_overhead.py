"""Where a call's time beyond the empty RPC goes: the server, or the Python client.

Goals 2 and 3 of issue 14 are judged through ``memoryd_client`` (what a user
runs) against the empty RPC on the same channel (a health Check, which takes
no client bookkeeping). This starts one server, loads ``--size`` memories (100
to a user, BatchCreate x100 SYNC, the compare workload), then times, call by
call in turn on the client's own channel:

- reads: the empty RPC; SearchMemories through the raw generated stub; the same
  request through ``MemorydClient`` (its deadline, metadata and read-your-writes
  bookkeeping). The query is repeated (its embedding cached), DENSE with recency
  off, limit 5: bench-compare's "repeated query" row;
- writes: the empty RPC; CreateMemory ASYNC of a new text through the raw stub
  without a request_id and with one; the same through ``MemorydClient`` (which
  always sends one, so that its retries are idempotent).

The raw calls carry the deadline the client sets. Prints, per round, each
kind's p50 / p95 and its p50 minus the empty RPC's (milliseconds).

    cd bench && ../.venv/bin/python client_overhead.py
"""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable

from compare.memoryd_client_calls import ASYNC, connect, empty_rpc, search_request
from compare.stats import summary
from compare.workload import Workload
from harness import alternating, loaded_server

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client import MemorydClient

#: The repeated query of every timed search (its embedding cached after the first).
QUERY = "what did I say about my travel plans"
#: The deadline of the raw calls: the one the benchmark's client sets on reads.
DEADLINE_S = 60.0

Calls = dict[str, Callable[[int], object]]
Stub = memory_service_pb2_grpc.MemoryServiceStub


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=1_000, help="calls of each read kind")
    parser.add_argument("--writes", type=int, default=600, help="calls of each write kind")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    workload = Workload(args.size)
    with loaded_server(workload, "client-overhead-") as server, connect(server.address) as client:
        raw = memory_service_pb2_grpc.MemoryServiceStub(client._raw)
        empty = empty_rpc(client)
        reads = _reads(client, raw, empty, workload)
        writes = _writes(client, raw, empty, workload, args)
        alternating(list(reads.values()), range(100))  # warm up both paths
        for round_no in range(1, args.rounds + 1):
            print(f"round {round_no}")
            _report("reads", reads, args.calls)
            _report("writes, ASYNC", writes, args.writes)
            client.search_memories(search_request(workload.user_of(0), QUERY))  # quiet again


def _reads(
    client: MemorydClient, raw: Stub, empty: Callable[[], object], workload: Workload
) -> Calls:
    def search(i: int) -> svc.SearchMemoriesRequest:
        return search_request(workload.user_of(i), QUERY)  # DENSE, recency off

    return {
        "empty RPC": lambda _: empty(),
        "raw stub": lambda i: raw.SearchMemories(search(i), timeout=DEADLINE_S),
        "MemorydClient": lambda i: client.search_memories(search(i)),
    }


def _writes(
    client: MemorydClient,
    raw: Stub,
    empty: Callable[[], object],
    workload: Workload,
    args: argparse.Namespace,
) -> Calls:
    texts = iter(workload.fresh_texts("client-overhead", 3 * args.writes * args.rounds))

    def create(i: int, request_id: str = "") -> svc.CreateMemoryRequest:
        memory = pb.Memory(content=next(texts), scope=pb.Scope(user_id=workload.user_of(i)))
        return svc.CreateMemoryRequest(memory=memory, mode=ASYNC, request_id=request_id)

    return {
        "empty RPC": lambda _: empty(),
        "raw stub": lambda i: raw.CreateMemory(create(i), timeout=DEADLINE_S),
        "raw stub + request_id": lambda i: raw.CreateMemory(
            create(i, str(uuid.uuid4())), timeout=DEADLINE_S
        ),
        "MemorydClient": lambda i: client.create_memory(create(i)),
    }


def _report(what: str, calls: Calls, count: int) -> None:
    timings = alternating(list(calls.values()), range(count))
    figures = {name: summary(t, keep_samples=False) for name, t in zip(calls, timings, strict=True)}
    empty = figures["empty RPC"]["p50"]
    print(f"  {what}")
    for name, f in figures.items():
        over = "" if name == "empty RPC" else f", {f['p50'] - empty:+.3f} over the empty RPC"
        print(f"    {name:24} p50 / p95 ms: {f['p50']:.3f} / {f['p95']:.3f}{over}")


if __name__ == "__main__":
    main()
