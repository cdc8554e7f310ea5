"""What opening a shard costs Qdrant Edge, by layout, and each user's first search after it.

memoryd's shard (the ``memoryd`` variant) is one appendable segment: Qdrant Edge
rebuilds each of its nine payload indexes in memory as it opens it, and reads
its dense vectors into the page cache. Three other layouts of the same points
show what each part of the load costs and what avoiding it would cost instead:

- ``cold-vectors``: the dense vectors left on disk until a search reads them
  (``Memory.Cold``);
- ``tenant-index-only``: only the user_id tenant index, not the other eight
  (agent_id, app_id, memory_type, category, memory_key and three times), which
  memoryd's filters read per candidate;
- ``compacted``: memoryd's shard after ``optimize()`` with HNSW at m=0 (no graph),
  which turns the appendable segment into an immutable one; its "made in"
  column is the optimize, which holds the GIL throughout.

The points are memoryd's own: the stored document of a memory (core/documents.py
with its journal stamp), its BM25 vector and a seeded random unit dense vector,
100 per user. In alternating rounds each variant opens in a fresh process, which
times the load and the process's CPU time meanwhile (how much of the load is the
engine's work rather than waits for the disk), one search per user for --users
users with memoryd's read filter (the first after the start), the same searches
again, and then each user's dedup search (the filter of core/dedup.py, which
every write without a key runs).

    python bench/edge_load_variants.py --points 1000000
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import qdrant_edge as qe

from memoryd.core.dedup import same_scope_and_type
from memoryd.core.documents import to_document
from memoryd.core.model import MemoryType, NewMemory, Scope, as_memory
from memoryd.core.ports import IndexSpec
from memoryd.core.scoping import point_id, read_filter
from memoryd.core.stamps import stamp_fields
from memoryd.store.base import DENSE, TENANT_FIELD
from memoryd.store.edge_shards import add_payload_indexes, shard_config, sparse
from memoryd.store.lexical import SPARSE
from memoryd.store.qdrant_filters import to_edge_filter

POINTS_PER_USER = 100
UPSERT_BATCH = 2_000
SPEC = IndexSpec(embedder_id="bench", dimension=384)
JOURNAL = "bench-journal"
#: HNSW at m=0 builds no graph; a huge full-scan threshold keeps every filtered
#: search the exact one memoryd runs on its appendable segment.
NO_GRAPH = qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=2**31 - 1, payload_m=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)  # shard, searched, stored users
    args = parser.parse_args()
    if args.child:
        shard, searched, stored = args.child
        print(json.dumps(_open_and_search(Path(shard), int(searched), int(stored))))
        return
    with tempfile.TemporaryDirectory(prefix="edge-load-") as scratch:
        shards = Path(scratch)
        prepared = _prepare(shards, args.points)
        rows: dict[str, list[dict[str, float]]] = {name: [] for name in prepared}
        stored = max(1, args.points // POINTS_PER_USER)
        users = min(args.users, stored)
        for round_ in range(args.rounds):
            for name in prepared if round_ % 2 == 0 else reversed(list(prepared)):
                command = [
                    sys.executable,
                    __file__,
                    "--child",
                    str(shards / name),
                    str(users),
                    str(stored),
                ]
                output = subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
                rows[name].append(json.loads(output))
    print(f"\n{args.points:,} points, {args.rounds} rounds; search p50 over {users} users\n")
    print(
        "| layout | made in, s | load, s | its CPU, s | first search per user, ms | again, ms "
        "| dedup, ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, runs in rows.items():
        kinds = ("load", "cpu", "first", "again", "dedup")
        cells = [", ".join(f"{run[k]:.2f}" for run in runs) for k in kinds]
        print(f"| {name} | {prepared[name]:.1f} | " + " | ".join(cells) + " |")


def _prepare(shards: Path, points: int) -> dict[str, float]:
    """Builds every variant under ``shards``: the seconds each took beyond
    filling in the points (its payload indexes, or its optimize)."""
    bare = shards / "bare"
    _fill(bare, shard_config(SPEC), points)
    made = {"memoryd": _copy_then(bare, shards / "memoryd", add_payload_indexes)}
    made["tenant-index-only"] = _copy_then(bare, shards / "tenant-index-only", _tenant_index)
    made["compacted"] = _copy_then(
        shards / "memoryd",
        shards / "compacted",
        lambda shard: shard.optimize(),
        _compacting_config(),
    )
    shutil.rmtree(bare)
    cold = shards / "cold-vectors"
    _fill(cold, _cold_vectors_config(), points)
    made["cold-vectors"] = _change(cold, add_payload_indexes, _cold_vectors_config())
    return made


def _fill(shard_dir: Path, config: Any, points: int) -> None:
    print(f"filling {shard_dir.name} with {points:,} points", file=sys.stderr, flush=True)
    shard = qe.EdgeShard.create(str(shard_dir), config)
    rng = np.random.default_rng(3)
    users = max(1, points // POINTS_PER_USER)
    created = datetime(2026, 12, 1, tzinfo=UTC)
    for start in range(0, points, UPSERT_BATCH):
        vectors = rng.normal(size=(min(UPSERT_BATCH, points - start), SPEC.dimension))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        batch = []
        for offset, vector in enumerate(vectors):
            n = start + offset
            new = NewMemory(
                content=f"memory {n}: the user keeps collection {n % 977} and trades online",
                scope=Scope(user_id=f"user-{n % users}"),
                memory_id=str(uuid.UUID(int=n + 1)),
            )
            memory = as_memory(new, created, version=1)
            document = to_document(memory) | stamp_fields(JOURNAL, n + 1, 0)
            vector_by_name = {
                DENSE: vector.astype(np.float32).tolist(),
                SPARSE: sparse(memory.content),
            }
            batch.append(qe.Point(point_id(memory.scope, memory.id), vector_by_name, document))
        shard.update(qe.UpdateOperation.upsert_points(batch))
    shard.flush()
    shard.close()


def _copy_then(
    source: Path, target: Path, change: Callable[[Any], object], config: Any = None
) -> float:
    shutil.copytree(source, target)
    return _change(target, change, config)


def _change(shard_dir: Path, change: Callable[[Any], object], config: Any = None) -> float:
    """Opens a shard (with ``config``, else memoryd's), changes it and closes
    it; the seconds the change took."""
    shard = qe.EdgeShard.load(str(shard_dir), config or shard_config(SPEC))
    started = time.perf_counter()
    change(shard)
    took = time.perf_counter() - started
    shard.flush()
    shard.close()
    return took


def _tenant_index(shard: Any) -> None:
    shard.update(
        qe.UpdateOperation.create_field_index(TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True))
    )


def _compacting_config() -> Any:
    """memoryd's configuration, with an optimizer that makes every segment an
    immutable one, and no HNSW graph."""
    config = shard_config(SPEC)
    return qe.EdgeConfig(
        vectors=config.vectors,
        sparse_vectors=config.sparse_vectors,
        max_search_threads=config.max_search_threads,
        hnsw_config=NO_GRAPH,
        optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1),
    )


def _cold_vectors_config() -> Any:
    config = shard_config(SPEC)
    dense = qe.EdgeVectorParams(
        size=SPEC.dimension, distance=qe.Distance.Cosine, memory=qe.Memory.Cold
    )
    return qe.EdgeConfig(
        vectors={DENSE: dense},
        sparse_vectors=config.sparse_vectors,
        max_search_threads=config.max_search_threads,
    )


def _open_and_search(shard_dir: Path, users: int, stored: int) -> dict[str, float]:
    started, cpu_started = time.perf_counter(), time.process_time()
    shard = qe.EdgeShard.load(str(shard_dir))
    loaded, load_cpu = time.perf_counter() - started, time.process_time() - cpu_started
    rng = np.random.default_rng(5)
    queries = [rng.normal(size=SPEC.dimension).astype(np.float32).tolist() for _ in range(users)]
    every = max(1, stored // users)  # the searched users spread over the shard

    def search(user: int, dedup: bool = False) -> float:
        scope = Scope(user_id=f"user-{user * every}")
        filter_ = same_scope_and_type(scope, MemoryType.EPISODIC) if dedup else read_filter(scope)
        where = to_edge_filter(filter_)
        request = qe.QueryRequest(
            query=qe.Query.Nearest(queries[user], using=DENSE),
            filter=where,
            limit=5,
            with_payload=True,
        )
        began = time.perf_counter()
        shard.query(request)
        return (time.perf_counter() - began) * 1000

    first = statistics.median(search(user) for user in range(users))
    again = statistics.median(search(user) for user in range(users))
    dedup = statistics.median(search(user, dedup=True) for user in range(users))
    shard.close()
    return {"load": loaded, "cpu": load_cpu, "first": first, "again": again, "dedup": dedup}


if __name__ == "__main__":
    main()
