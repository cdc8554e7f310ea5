"""Qdrant Edge's search threads: its default pool against one thread, idle and beside the model.

Builds two shards of --points random unit vectors (100 per user, memoryd's
payload indexes), one with Edge's default search threads and one with
memoryd's shard config (store/edge_shards.py: one thread), then times the
same user-filtered queries (limit 5, with payload) on both, interleaved and
1 ms apart:
first with the machine idle, then while another thread runs the embedding
model on batches of 32 without pause, as a server does while it ingests.

    python bench/edge_search_threads.py --points 100000
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import qdrant_edge as qe
from corpus import memories
from harness import percentiles

from memoryd.core.ports import IndexSpec
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.base import DENSE
from memoryd.store.edge_shards import add_payload_indexes, shard_config

DIMENSION = 384
GAP_SECONDS = 0.001


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(args.points, DIMENSION)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    memoryd_config = shard_config(IndexSpec("random", DIMENSION))
    default_threads = qe.EdgeConfig(vectors=memoryd_config.vectors)
    with tempfile.TemporaryDirectory() as scratch:
        shards = {
            "Edge's default search threads": _filled(Path(scratch) / "a", default_threads, vectors),
            "one search thread (memoryd)": _filled(Path(scratch) / "b", memoryd_config, vectors),
        }
        users = args.points // 100
        requests = [
            qe.QueryRequest(
                query=qe.Query.Nearest(rng.normal(size=DIMENSION).tolist(), using=DENSE),
                filter=qe.Filter(
                    must=[qe.FieldCondition("user_id", match=qe.MatchValue(f"user-{i % users}"))]
                ),
                limit=5,
                with_payload=True,
            )
            for i in range(args.queries)
        ]
        print(f"\n{args.points} points, {args.queries} user-filtered queries per row\n")
        print("| machine | shard | p50 ms | p95 ms | mean ms |\n|---|---|---:|---:|---:|")
        for machine, busy in (("idle", False), ("model embedding beside it", True)):
            with _model_running() if busy else contextlib.nullcontext():
                samples: dict[str, list[float]] = {name: [] for name in shards}
                for request in requests:
                    for name, shard in shards.items():
                        # Requests come with gaps between them, as a server gets them:
                        # a pool that has gone idle must wake up for each query.
                        time.sleep(GAP_SECONDS)
                        start = time.perf_counter()
                        shard.query(request)
                        samples[name].append((time.perf_counter() - start) * 1000)
            for name, values in samples.items():
                p50, p95 = percentiles(values)
                mean = sum(values) / len(values)
                print(f"| {machine} | {name} | {p50:.3f} | {p95:.3f} | {mean:.3f} |")
        for shard in shards.values():
            shard.close()


def _filled(path: Path, config: Any, vectors: np.ndarray) -> Any:
    shard = qe.EdgeShard.create(str(path), config)
    add_payload_indexes(shard)
    users = len(vectors) // 100
    for offset in range(0, len(vectors), 1000):
        points = [
            qe.Point(i + 1, {DENSE: vectors[i].tolist()}, {"user_id": f"user-{i % users}"})
            for i in range(offset, min(offset + 1000, len(vectors)))
        ]
        shard.update(qe.UpdateOperation.upsert_points(points))
    shard.flush()
    return shard


@contextlib.contextmanager
def _model_running() -> Iterator[None]:
    """The embedding model, embedding batches of 32 on its own thread until exit."""
    model = OnnxMiniLMEmbedder()
    texts = memories(32, seed=3)
    model.embed_sync(texts)  # loaded and warm before anything is timed
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            model.embed_sync(texts)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


if __name__ == "__main__":
    main()
