"""What the dense vectors' memory tier costs at start-up and at each user's first search.

A shard opened by memoryd reads its dense vectors into the page cache as it
loads (Qdrant Edge's default tier). ``Memory.Cold`` leaves them on disk until
a search reads them. This builds two raw Qdrant Edge shards of --points
points with memoryd's shard configuration and payload indexes (100 points
per user, seeded random unit vectors), one per tier, then in alternating
rounds opens each in a fresh process and times the load, one user-filtered
query per user for --users users (the first after the start), and the same
queries again.

    python bench/edge_vector_tiers.py --points 1000000
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import qdrant_edge as qe

from memoryd.core.model import Scope
from memoryd.core.ports import IndexSpec
from memoryd.core.scoping import read_filter
from memoryd.store.base import DENSE
from memoryd.store.edge_shards import add_payload_indexes, shard_config
from memoryd.store.qdrant_filters import to_edge_filter

TIERS = ("default", "cold")
POINTS_PER_USER = 100
UPSERT_BATCH = 2_000
SPEC = IndexSpec(embedder_id="bench", dimension=384)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=2, metavar=("SHARD", "USERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_open_and_query(Path(args.child[0]), int(args.child[1]))))
        return
    with tempfile.TemporaryDirectory(prefix="edge-tiers-") as scratch:
        for tier in TIERS:
            _build(Path(scratch) / tier, tier, args.points)
        rows: dict[str, list[dict[str, float]]] = {tier: [] for tier in TIERS}
        for round_ in range(args.rounds):
            for tier in TIERS if round_ % 2 == 0 else reversed(TIERS):
                shard = str(Path(scratch) / tier)
                command = [sys.executable, __file__, "--child", shard, str(args.users)]
                output = subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
                rows[tier].append(json.loads(output))
    print(f"{args.points:,} points, {args.rounds} rounds; query p50 over {args.users} users\n")
    print("| dense vectors | load s | first query per user, ms | again, ms |")
    print("|---|---:|---:|---:|")
    for tier, runs in rows.items():
        cells = [", ".join(f"{run[k]:.2f}" for run in runs) for k in ("load", "first", "again")]
        print(f"| {tier} | " + " | ".join(cells) + " |")


def _config(tier: str) -> Any:
    config = shard_config(SPEC)
    if tier == "cold":
        vectors = qe.EdgeVectorParams(
            size=SPEC.dimension, distance=qe.Distance.Cosine, memory=qe.Memory.Cold
        )
        config = qe.EdgeConfig(
            vectors={DENSE: vectors},
            sparse_vectors=config.sparse_vectors,
            max_search_threads=config.max_search_threads,
        )
    return config


def _build(shard_dir: Path, tier: str, points: int) -> None:
    shard = qe.EdgeShard.create(str(shard_dir), _config(tier))
    add_payload_indexes(shard)
    rng = np.random.default_rng(3)
    users = max(1, points // POINTS_PER_USER)
    for start in range(0, points, UPSERT_BATCH):
        vectors = rng.normal(size=(min(UPSERT_BATCH, points - start), SPEC.dimension))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        batch = [
            qe.Point(
                str(uuid.UUID(int=start + j + 1)),
                {DENSE: vector.astype(np.float32).tolist()},
                {"user_id": f"user-{(start + j) % users}", "memory_type": "episodic"},
            )
            for j, vector in enumerate(vectors)
        ]
        shard.update(qe.UpdateOperation.upsert_points(batch))
    shard.flush()
    shard.close()


def _open_and_query(shard_dir: Path, users: int) -> dict[str, float]:
    started = time.perf_counter()
    shard = qe.EdgeShard.load(str(shard_dir))
    loaded = time.perf_counter() - started
    rng = np.random.default_rng(5)
    queries = [rng.normal(size=SPEC.dimension).astype(np.float32).tolist() for _ in range(users)]

    def query(user: int) -> float:
        where = to_edge_filter(read_filter(Scope(user_id=f"user-{user}")))
        request = qe.QueryRequest(
            query=qe.Query.Nearest(queries[user], using=DENSE), filter=where, limit=5
        )
        began = time.perf_counter()
        shard.query(request)
        return (time.perf_counter() - began) * 1000

    first = statistics.median(query(user) for user in range(users))
    again = statistics.median(query(user) for user in range(users))
    shard.close()
    return {"load": loaded, "first": first, "again": again}


if __name__ == "__main__":
    main()
