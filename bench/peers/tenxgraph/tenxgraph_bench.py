"""10xgraph's QdrantStore (local path) under bench-compare's workload, as one JSON object.

Runs under .venv-peers/tenxgraph (`make peers`) with bench/ on the path (the
orchestrator sets PYTHONPATH). The store embeds with memoryd's own MiniLM
(tenxgraph_peer.MiniLMEmbedding) and is loaded one ``astore`` at a time:
QdrantStore has no batch write. Ingest is timed on the first --timed-ingest
memories; the rest go through the same ``astore`` with their vectors from the
floor's cache (compare/known_vectors.py), to keep a 100k run short. Search is
``asearch`` in the user's scope, limit 5; at 100k each takes about a second,
so every series is time-boxed.

    python bench/peers/tenxgraph/tenxgraph_bench.py --size 1000
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

from compare.known_vectors import KnownVectors
from compare.peer_cli import peer_main
from compare.progress import bar, say
from compare.recall_eval import recall_at, recall_corpus
from compare.stats import peak_rss_mb, rate, summary
from compare.workload import Workload, cold_query
from tenxgraph.storage.store import QdrantStore
from tenxgraph_peer import MiniLMEmbedding

from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

PEER = "tenxgraph"


async def timed_series(call: Any, count: int, budget_s: float) -> list[float]:
    """Milliseconds of up to ``count`` awaited ``call(i)``, within ``budget_s`` (3 at least)."""
    samples: list[float] = []
    deadline = time.perf_counter() + budget_s
    for i in range(count):
        start = time.perf_counter()
        await call(i)
        end = time.perf_counter()
        samples.append((end - start) * 1000)
        if end > deadline and i >= 2:
            break
    return samples


class PrecomputedEmbedding(MiniLMEmbedding):
    """MiniLMEmbedding that answers the workload's own texts from the vector cache."""

    def __init__(self, model: OnnxMiniLMEmbedder, known: KnownVectors) -> None:
        super().__init__(model)
        self._known = known

    async def aembed(self, text: str) -> list[float]:
        return self._known.get(text) or await super().aembed(text)


async def load(store: QdrantStore, workload: Workload) -> None:
    for user, texts in bar(workload.by_user(), PEER, "load", workload.users):
        for text in texts:
            await store.astore({"user_id": user}, text)


async def top5(store: QdrantStore, user: str, query: str) -> list[str]:
    # score_threshold=0: 10xgraph's MemorySearchResult refuses a negative score.
    found = await store.asearch({"user_id": user}, query, limit=5, score_threshold=0.0)
    return [r.content for r in found]


async def run(args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    model = OnnxMiniLMEmbedder()
    workload = Workload(args.size)
    result: dict[str, Any] = {"peer": PEER, "size": args.size}
    timed = Workload(min(args.size, args.timed_ingest))
    say(PEER, f"ingest: {timed.size} memories, astore one at a time")
    store = QdrantStore(MiniLMEmbedding(model), path=str(scratch / "timed"), collection="bench")
    start = time.perf_counter()
    await load(store, timed)
    result["ingest_per_s"] = rate(timed.size, time.perf_counter() - start)
    await store.arelease()
    say(PEER, f"loading {args.size} memories (cached vectors where known)")
    embedding = PrecomputedEmbedding(model, KnownVectors(workload))
    store = QdrantStore(embedding, path=str(scratch / "store"), collection="bench")
    start = time.perf_counter()
    await load(store, workload)
    result["load_seconds"] = time.perf_counter() - start
    say(PEER, "search")
    searched = await timed_series(
        lambda i: top5(store, workload.user_of(i), cold_query("cold", i)), args.samples, args.budget
    )
    result["cold_search"] = summary(searched)
    fresh = workload.fresh_texts("writes", args.samples)
    say(PEER, "astore")
    stored = await timed_series(
        lambda i: store.astore({"user_id": "bench-writes"}, fresh[i]), args.samples, args.budget
    )
    result["create"] = summary(stored)
    await store.arelease()

    say(PEER, "recall (a store of the recall set alone)")
    recall_store = QdrantStore(
        MiniLMEmbedding(model), path=str(scratch / "recall"), collection="recall"
    )
    cases, memories = recall_corpus()
    for user, texts in memories.items():
        for text in texts:
            await recall_store.astore({"user_id": user}, text)
    answers = {case: await top5(recall_store, case.user, case.query) for case in cases}
    result["recall"] = {"DENSE": recall_at(cases, answers.__getitem__)}
    await recall_store.arelease()
    await model.close()
    result["peak_rss_mb"] = peak_rss_mb()
    return result


def main() -> None:
    peer_main(__doc__.splitlines()[0], lambda args, scratch: asyncio.run(run(args, scratch)))


if __name__ == "__main__":
    main()
