"""mem0 OSS ``Memory`` (local Qdrant, infer=False) under bench-compare's workload, as JSON.

Runs under .venv-peers/mem0 (`make peers`) with bench/ on the path (the
orchestrator sets PYTHONPATH). The Memory is mem0_store.build_memory's, with
memoryd's MiniLM. Memories are added one ``Memory.add`` per user, with that
user's 100 texts as messages (with infer=False mem0 stores each message as
a memory). Ingest is timed on the first --timed-ingest memories; the rest
are added the same way with their vectors from the floor's cache
(compare/known_vectors.py). Search is ``Memory.search`` in the user's scope,
top 5, time-boxed per series.

    python bench/peers/mem0/mem0_bench.py --size 1000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from compare.known_vectors import KnownVectors
from compare.peer_cli import peer_main
from compare.progress import bar, say
from compare.recall_eval import recall_at, recall_corpus
from compare.stats import peak_rss_mb, rate, sample, summary
from compare.workload import Workload, cold_query
from mem0_env import prepare_mem0_environment

PEER = "mem0"


def add_all(memory: Any, by_user: Any, total: int) -> None:
    """One ``Memory.add`` per user, every text a message."""
    for user, texts in bar(by_user, PEER, "load", total):
        messages = [{"role": "user", "content": text} for text in texts]
        memory.add(messages, user_id=user, infer=False)


def top5(memory: Any, user: str, query: str) -> list[str]:
    found = memory.search(query, filters={"user_id": user}, top_k=5, threshold=0.0)
    return [r["memory"] for r in found["results"]]


def run(args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    prepare_mem0_environment(str(scratch / "store"))
    from mem0_store import MiniLMForMem0, build_memory

    class PrecomputedForMem0(MiniLMForMem0):
        """Answers the workload's own texts from the vector cache."""

        def __init__(self, known: KnownVectors) -> None:
            super().__init__()
            self._known = known

        def embed(self, text: Any, memory_action: Any = None) -> list[float]:
            return self._known.get(str(text)) or super().embed(text, memory_action)

    workload = Workload(args.size)
    result: dict[str, Any] = {"peer": PEER, "size": args.size}
    timed = Workload(min(args.size, args.timed_ingest))
    say(PEER, f"ingest: {timed.size} memories, Memory.add per user")
    memory = build_memory(str(scratch / "timed"), "bench")
    start = time.perf_counter()
    add_all(memory, timed.by_user(), timed.users)
    result["ingest_per_s"] = rate(timed.size, time.perf_counter() - start)
    memory.close()

    say(PEER, f"loading {args.size} memories (cached vectors where known)")
    embedder = PrecomputedForMem0(KnownVectors(workload))
    memory = build_memory(str(scratch / "store"), "bench", embedder)
    start = time.perf_counter()
    add_all(memory, workload.by_user(), workload.users)
    result["load_seconds"] = time.perf_counter() - start
    say(PEER, "search")
    searched = sample(
        lambda i: top5(memory, workload.user_of(i), cold_query("cold", i)),
        args.samples,
        args.budget,
    )
    result["cold_search"] = summary(searched)
    fresh = workload.fresh_texts("writes", args.samples)
    say(PEER, "add")
    added = sample(
        lambda i: memory.add(fresh[i], user_id="bench-writes", infer=False),
        args.samples,
        args.budget,
    )
    result["create"] = summary(added)
    memory.close()

    say(PEER, "recall (a store of the recall set alone)")
    memory = build_memory(str(scratch / "recall"), "recall")
    cases, stored = recall_corpus()
    add_all(memory, stored.items(), len(stored))
    result["recall"] = {"DENSE": recall_at(cases, lambda case: top5(memory, case.user, case.query))}
    memory.close()
    result["peak_rss_mb"] = peak_rss_mb()
    return result


def main() -> None:
    peer_main(__doc__.splitlines()[0], run)


if __name__ == "__main__":
    main()
