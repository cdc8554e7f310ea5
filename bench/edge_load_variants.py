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
  which turns the appendable segment into an immutable one; the optimize's
  time is printed, and it holds the GIL throughout.

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
import asyncio
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
from memoryd.core.ports import IndexSpec, Point
from memoryd.core.scoping import point_id, read_filter
from memoryd.core.stamps import stamp_fields
from memoryd.store.base import DATETIME_FIELDS, DENSE, KEYWORD_FIELDS
from memoryd.store.edge import EdgeIndex
from memoryd.store.edge_shards import add_payload_indexes, shard_config
from memoryd.store.qdrant_filters import to_edge_filter

LAYOUTS = ("memoryd", "tenant-index-only", "compacted", "cold-vectors")
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
        compacting = _prepare(shards, args.points)
        rows: dict[str, list[dict[str, float]]] = {name: [] for name in LAYOUTS}
        stored = max(1, args.points // POINTS_PER_USER)
        users = min(args.users, stored)
        for round_ in range(args.rounds):
            for name in LAYOUTS if round_ % 2 == 0 else reversed(LAYOUTS):
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
    print(f"\n{args.points:,} points, {args.rounds} rounds; search p50 over {users} users")
    print(f"compacting (optimize, GIL held) took {compacting:.1f} s\n")
    print("| layout | load, s | its CPU, s | first search per user, ms | again, ms | dedup, ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, runs in rows.items():
        kinds = ("load", "cpu", "first", "again", "dedup")
        cells = [", ".join(f"{run[k]:.2f}" for run in runs) for k in kinds]
        print(f"| {name} | " + " | ".join(cells) + " |")


def _prepare(shards: Path, points: int) -> float:
    """Builds every variant under ``shards``; the seconds compacting took."""
    _fill(shards / "memoryd", shard_config(SPEC), points)
    _copy_then(shards / "memoryd", shards / "tenant-index-only", _drop_all_but_tenant_index)
    compacting = _copy_then(
        shards / "memoryd",
        shards / "compacted",
        lambda shard: shard.optimize(),
        _compacting_config(),
    )
    _fill(shards / "cold-vectors", _cold_vectors_config(), points)
    return compacting


def _fill(shard_dir: Path, config: Any, points: int) -> None:
    """Creates a shard of ``points`` memories as memoryd does: payload indexes
    first, then the points through EdgeIndex.upsert."""
    print(f"filling {shard_dir.name} with {points:,} points", file=sys.stderr, flush=True)
    shard = qe.EdgeShard.create(str(shard_dir), config)
    add_payload_indexes(shard)
    asyncio.run(_upsert_all(EdgeIndex(shard), points))


async def _upsert_all(index: EdgeIndex, points: int) -> None:
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
            vector32 = vector.astype(np.float32).tolist()
            batch.append(
                Point(point_id(memory.scope, memory.id), vector32, document, memory.content)
            )
        await index.upsert(batch)
    await index.close()


def _copy_then(
    source: Path, target: Path, change: Callable[[Any], object], config: Any = None
) -> float:
    """Copies a shard, opens the copy (with ``config``, else memoryd's) and
    changes it; the seconds the change took."""
    shutil.copytree(source, target)
    shard = qe.EdgeShard.load(str(target), config or shard_config(SPEC))
    started = time.perf_counter()
    change(shard)
    took = time.perf_counter() - started
    shard.flush()
    shard.close()
    return took


def _drop_all_but_tenant_index(shard: Any) -> None:
    for name in (*KEYWORD_FIELDS, *DATETIME_FIELDS):
        shard.update(qe.UpdateOperation.delete_field_index(name))


def _config_with(**changes: Any) -> Any:
    """memoryd's shard configuration with ``changes``."""
    config = shard_config(SPEC)
    fields = {
        "vectors": config.vectors,
        "sparse_vectors": config.sparse_vectors,
        "max_search_threads": config.max_search_threads,
    }
    return qe.EdgeConfig(**(fields | changes))


def _compacting_config() -> Any:
    """An optimizer that makes every segment an immutable one, and no HNSW graph."""
    return _config_with(
        hnsw_config=NO_GRAPH, optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1)
    )


def _cold_vectors_config() -> Any:
    dense = qe.EdgeVectorParams(
        size=SPEC.dimension, distance=qe.Distance.Cosine, memory=qe.Memory.Cold
    )
    return _config_with(vectors={DENSE: dense})


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
