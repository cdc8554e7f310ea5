"""Recall of every retrieval mode on every recall set (bench/recall_sets/), over gRPC.

Runs one real server, stores every set (each set's users are its own), asks
each case's query in every RetrievalMode the contract has, with the server's
default recency and with recency off, and prints one Markdown table:
recall@1, recall@5 and MRR over the top 10. For the updates set a hit is the
newer fact; ``stale>new`` counts the cases where the fact it corrects ranked
above it. ``make bench-recall`` runs it.

A set of one round is stored as users store memories (BatchCreateMemories).
A set of several rounds (updates: facts, then their corrections) is imported
with its rounds ROUND_GAP apart, the last one now: a correction comes some
time after the fact, and a search can only tell them apart by that time.
"""

from __future__ import annotations

import argparse
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta

import grpc
from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp
from harness import on_scratch_server, store
from recall_sets import Case, RecallSet, load_all

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

#: Results each search returns; MRR is over these.
TOP = 10
#: How long after a fact its correction is stored; chosen once, a priori, as
#: the server's default recency half-life (30 days).
ROUND_GAP = timedelta(days=30)
#: Each mode is asked with the server's default recency and with it off.
RECENCY = {"": None, ", recency off": Duration(seconds=0)}


def modes() -> list[str]:
    """Every RetrievalMode the contract offers, by name (UNSPECIFIED is the default of
    one of them, so it is not a mode of its own)."""
    return [name for name in svc.RetrievalMode.keys() if name != "RETRIEVAL_MODE_UNSPECIFIED"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", help="only these sets (default: all)")
    args = parser.parse_args()
    on_scratch_server(run, args)


def run(channel: grpc.Channel, args: argparse.Namespace) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    sets = [s for s in load_all() if not args.sets or s.name in args.sets]
    start = time.perf_counter()
    for s in sets:
        rounds = s.rounds()
        if len(rounds) == 1:
            store(stub, rounds[0])
        else:
            stub.ImportMemories(dated(rounds, datetime.now(UTC)))
    memories = sum(len(s.memories) for s in sets)
    kept = sum(stored(stub, user) for s in sets for user in {m.user for m in s.memories})
    print(f"stored {memories} memories in {time.perf_counter() - start:.1f} s", end="")
    # The server drops a memory too close to one it has (dedup): the sets must have none.
    print("" if kept == memories else f"; the server KEPT ONLY {kept} (dedup)", end="\n\n")
    print("| set | mode | cases | recall@1 | recall@5 | MRR@10 | stale>new |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for s in sets:
        for mode in modes():
            for suffix, half_life in RECENCY.items():
                label = mode.removeprefix("RETRIEVAL_MODE_") + suffix
                found = [search(stub, case, mode, half_life) for case in s.cases]
                print(row(s, label, found))


def dated(
    rounds: Sequence[dict[str, list[str]]], now: datetime
) -> Iterator[svc.ImportMemoriesRequest]:
    """Import requests for ``rounds``, the last written at ``now``, each ROUND_GAP
    after the one before."""
    for number, by_user in enumerate(rounds):
        written = Timestamp()
        written.FromDatetime(now - (len(rounds) - 1 - number) * ROUND_GAP)
        for user, texts in by_user.items():
            yield svc.ImportMemoriesRequest(
                memories=[
                    svc.ExportedMemory(
                        memory=pb.Memory(
                            id=str(uuid.uuid4()),
                            content=text,
                            scope=pb.Scope(user_id=user),
                            create_time=written,
                            update_time=written,
                            version=1,
                        )
                    )
                    for text in texts
                ]
            )


def stored(stub: memory_service_pb2_grpc.MemoryServiceStub, user: str) -> int:
    """How many memories the server holds for ``user``."""
    count, token = 0, ""
    while True:
        page = stub.ListMemories(
            svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), page_size=100, page_token=token)
        )
        count += len(page.memories)
        token = page.next_page_token
        if not token:
            return count


def search(
    stub: memory_service_pb2_grpc.MemoryServiceStub,
    case: Case,
    mode: str,
    recency_half_life: Duration | None,
) -> list[str]:
    """The contents the server returns for ``case``'s query in ``mode``, best first."""
    response = stub.SearchMemories(
        svc.SearchMemoriesRequest(
            query=case.query,
            scope=pb.Scope(user_id=case.user),
            limit=TOP,
            retrieval_mode=mode,
            recency_half_life=recency_half_life,
        )
    )
    return [r.memory.content for r in response.results]


def rank(found: Sequence[str], content: str | None) -> int:
    """1-based rank of ``content`` in ``found``, 0 if absent."""
    return found.index(content) + 1 if content in found else 0


def row(s: RecallSet, mode: str, results: list[list[str]]) -> str:
    ranks = [rank(found, case.expected) for case, found in zip(s.cases, results, strict=True)]
    n = len(ranks)
    at1 = sum(r == 1 for r in ranks) / n
    at5 = sum(1 <= r <= 5 for r in ranks) / n
    mrr = sum(1 / r for r in ranks if r) / n
    stale = "–"
    if any(case.stale for case in s.cases):
        above = sum(
            0 < rank(found, case.stale) < (rank(found, case.expected) or TOP + 1)
            for case, found in zip(s.cases, results, strict=True)
        )
        stale = f"{above / n:.3f}"
    return f"| {s.name} | {mode} | {n} | {at1:.3f} | {at5:.3f} | {mrr:.3f} | {stale} |"


if __name__ == "__main__":
    main()
