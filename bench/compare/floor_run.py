"""The engine's floor, in process: the embedder alone and raw Qdrant Edge with the same data.

The shard is made by the server's own ``create_shard`` (same dense and BM25
vector parameters, user_id as the tenant payload index) and holds the same
points as the server would: the dense MiniLM vector, the BM25 sparse vector
and the payload document memoryd stores for the memory. Queries are a new text
each (the same texts memoryd gets), embedded, then a user-filtered nearest
search, limit 5, with payload, as the server's DENSE search does (the server
adds an expiry condition to the filter; the floor, as issue 14 defines it,
filters on the user only).
Prints one JSON object.

    python -m compare.floor_run --size 10000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from compare.floor_embedder import embedder_figures
from compare.progress import bar, say
from compare.stats import peak_rss_mb, rate, sample, summary
from compare.vectors import workload_vectors
from compare.workload import Workload, cold_query
from memoryd.core.documents import to_document
from memoryd.core.model import NewMemory, Scope, as_memory
from memoryd.core.ports import IndexSpec
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.base import DENSE
from memoryd.store.edge_shards import create_shard, sparse
from memoryd.store.lexical import SPARSE

PEER = "floor"
UPSERT_BATCH = 1_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per latency series")
    args = parser.parse_args()
    embedder = embedder_figures()
    model = OnnxMiniLMEmbedder(intra_op_threads=embedder["intra_op_threads"])
    workload = Workload(args.size)
    result: dict[str, Any] = {"peer": PEER, "size": args.size, "embedder": embedder}
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as scratch:
        shard = create_shard(Path(scratch) / "shard", IndexSpec(model.model_id, model.dimension))
        result["ingest_per_s"] = load(shard, workload, model)
        result.update(search_and_upsert(shard, workload, model, args))
        result["peak_rss_mb"] = peak_rss_mb()
        shard.close()
    json.dump(result, sys.stdout)


def point(point_id: int, user: str, text: str, vector: Any) -> qe.Point:
    # The payload is the document memoryd stores for such a memory: the same data.
    memory = as_memory(NewMemory(text, Scope(user_id=user)), datetime.now(UTC), version=1)
    payload = to_document(replace(memory, id=str(uuid.UUID(int=point_id))))
    return qe.Point(point_id, {DENSE: [float(x) for x in vector], SPARSE: sparse(text)}, payload)


def load(shard: Any, workload: Workload, model: OnnxMiniLMEmbedder) -> float:
    """Upserts the workload's points in batches; points/s of the upserts alone (the
    vectors come batched from the embedder, or its cache)."""
    vectors = workload_vectors(workload, model, PEER)
    say(PEER, f"upserting {workload.size} points")
    start = time.perf_counter()
    offsets = range(0, workload.size, UPSERT_BATCH)
    for offset in bar(offsets, PEER, "upsert", len(offsets)):
        points = [
            point(i, workload.user_of(i), workload.texts[i], vectors[i])
            for i in range(offset, min(offset + UPSERT_BATCH, workload.size))
        ]
        shard.update(qe.UpdateOperation.upsert_points(points))
    shard.flush()
    return rate(workload.size, time.perf_counter() - start)


def embed_and_query(shard: Any, model: OnnxMiniLMEmbedder, user: str, text: str) -> None:
    """The floor of a search: ``text`` embedded, then ``user``'s nearest 5 with payload."""
    (vector,) = model.embed_sync([text])
    condition = qe.FieldCondition("user_id", match=qe.MatchValue(user))
    shard.query(
        qe.QueryRequest(
            limit=5,
            query=qe.Query.Nearest(vector, using=DENSE),
            filter=qe.Filter(must=[condition]),
            with_payload=True,
        )
    )


def embed_and_upsert(
    shard: Any, model: OnnxMiniLMEmbedder, point_id: int, user: str, text: str
) -> None:
    """The floor of a write: ``text`` embedded, then upserted as one point."""
    (vector,) = model.embed_sync([text])
    shard.update(qe.UpdateOperation.upsert_points([point(point_id, user, text, vector)]))


def search_and_upsert(
    shard: Any, workload: Workload, model: OnnxMiniLMEmbedder, args: argparse.Namespace
) -> dict[str, Any]:
    def query(i: int) -> None:
        embed_and_query(shard, model, workload.user_of(i), cold_query("cold", i))

    fresh = workload.fresh_texts("floor-upsert", args.samples)

    def upsert(i: int) -> None:
        embed_and_upsert(shard, model, workload.size + i, "floor-writes", fresh[i])

    say(PEER, "embed + query")
    searched = summary(sample(query, args.samples, args.budget))
    say(PEER, "embed + upsert")
    upserted = summary(sample(upsert, args.samples, args.budget))
    return {"embed_query": searched, "embed_upsert": upserted}


if __name__ == "__main__":
    main()
