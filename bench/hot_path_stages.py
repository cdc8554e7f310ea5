"""Each stage of a search and a write, timed in process against the same stage alone.

Builds the real server object graph (memoryd.server.build) on a scratch data
directory, loads --memories memories (100 per user), then times, side by side
in one run (p50 of --samples calls, milliseconds):

- the model alone (embed_sync on the calling thread) and through the server's
  embedder stack (cache miss: micro-batching, executor hop, tracing wrapper),
  alternating call by call;
- the Qdrant Edge query alone (the shard's own call, on the calling thread),
  alone with the "not expired" part every read adds (which the index leaves
  out while nothing stored expires, store/expiry_bound.py), and through the
  index stack (plan, executor hop, result conversion);
- Reads.search with a cached query embedding (barrier, filters, conversion);
- Writes.create ASYNC (journal fsync) and SYNC (plus embed and upsert).

    python bench/hot_path_stages.py --memories 10000
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import qdrant_edge as qe
from corpus import fresh_queries, memories
from harness import percentiles, timed

from memoryd.config import Settings
from memoryd.core.expiry import live_at
from memoryd.core.filters import all_of
from memoryd.core.model import NewMemory, Scope, SearchQuery, Selection, WriteMode
from memoryd.core.ports import Search
from memoryd.core.scoping import read_selection_filter
from memoryd.server import App, build
from memoryd.store.edge_queries import to_edge_request
from memoryd.store.query_plan import plan_query


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        app = await build(Settings(data_dir=Path(scratch)))
        try:
            await _run(app, args)
        finally:
            await app.close()


async def _run(app: App, args: argparse.Namespace) -> None:
    users = max(1, args.memories // 100)
    texts = memories(args.memories + 20 * args.samples, seed=11)
    writes = app.memories.writes
    for offset in range(0, args.memories, 100):
        batch = [
            NewMemory(content=t, scope=Scope(user_id=f"user-{(offset // 100) % users}"))
            for t in texts[offset : offset + 100]
        ]
        await writes.create(batch, WriteMode.SYNC, is_batch=True)
    fresh = iter(texts[args.memories :])
    asked = fresh_queries(2 * args.samples)
    model = _innermost(app.embedder.current)
    rows: dict[str, list[float]] = {}

    def scope(i: int) -> Scope:
        return Scope(user_id=f"user-{i % users}")

    # Call by call in turn, on texts in turn, so that both rows meet the same
    # machine: run one after the other, they once differed by 0.87 ms, and by
    # 0.37 ms alternating in the next run.
    alone: list[float] = []
    stacked: list[float] = []
    for even, odd in zip(asked[0::2], asked[1::2], strict=True):
        alone += timed(lambda _, text=even: model.embed_sync([text]), 1)
        stacked += await _timed(lambda _, text=odd: app.embedder.embed([text]), 1)
    rows["model alone, 1 text"], rows["server embedder, 1 new text"] = alone, stacked
    vector = (await app.embedder.embed([asked[0]]))[0]
    where = read_selection_filter(Selection(scope(0)))
    search = Search(vector=vector, where=where, limit=5, text=asked[0])
    shard = app.index.current._shard  # the raw Qdrant Edge shard under the index stack
    request = to_edge_request(plan_query(search))
    rows["Edge query alone"] = timed(
        lambda i: shard.query_batch(qe.QueryBatchRequest([request])), args.samples
    )
    live = replace(search, where=all_of(where, live_at(datetime.now(UTC))))
    live_request = to_edge_request(plan_query(live))
    rows["Edge query alone, with 'not expired'"] = timed(
        lambda i: shard.query_batch(qe.QueryBatchRequest([live_request])), args.samples
    )
    rows["index.search (plan, hop, convert)"] = await _timed(
        lambda i: app.index.search([search]), args.samples
    )
    reads = app.memories.reads
    rows["Reads.search, cached embedding"] = await _timed(
        lambda i: reads.search(SearchQuery(asked[0], Selection(scope(i)), limit=5)), args.samples
    )
    rows["Writes.create ASYNC"] = await _timed(
        lambda i: writes.create([NewMemory(content=next(fresh), scope=scope(i))], WriteMode.ASYNC),
        args.samples,
    )
    rows["Writes.create SYNC"] = await _timed(
        lambda i: writes.create([NewMemory(content=next(fresh), scope=scope(i))], WriteMode.SYNC),
        args.samples,
    )
    batches = args.samples // 10
    rows["model alone, batch of 32 (per text)"] = [
        t / 32 for t in timed(lambda i: model.embed_sync([next(fresh) for _ in range(32)]), batches)
    ]
    rows["Writes.create SYNC, batch of 100 (per memory)"] = [
        t / 100
        for t in await _timed(
            lambda i: writes.create(
                [NewMemory(content=next(fresh), scope=scope(i)) for _ in range(100)],
                WriteMode.SYNC,
                is_batch=True,
            ),
            batches,
        )
    ]
    print(f"\n{args.samples} calls each, {args.memories} memories\n")
    print("| stage | p50 ms | p95 ms |\n|---|---:|---:|")
    for name, samples in rows.items():
        p50, p95 = percentiles(samples)
        print(f"| {name} | {p50:.3f} | {p95:.3f} |")


def _innermost(embedder: Any) -> Any:
    """The model under the server's embedder wrappers (micro-batching, cache, tracing)."""
    while hasattr(embedder, "_inner"):
        embedder = embedder._inner
    return embedder


async def _timed(call: Callable[[int], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for i in range(count):
        start = time.perf_counter()
        await call(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300)
    asyncio.run(main(parser.parse_args()))
