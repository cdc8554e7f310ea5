"""What makes Qdrant Edge faster here, and that it changes no answer.

- Shards search on one thread: new ones, and old ones once opened. The thread
  count is a setting Edge keeps in the shard's own config file
  (edge_config.json); it is read from there, as Edge reads it.
- Edge filters are made once and reused (store/qdrant_filters.py).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import qdrant_edge as qe

from memoryd.core.filters import AllOf, Condition, Operator
from memoryd.core.ports import IndexSpec, Point, Search
from memoryd.store.edge import EdgeIndex
from memoryd.store.edge_shards import SEARCH_THREADS

SPEC = IndexSpec(embedder_id="search-threads-test-embedder", dimension=4)
NEAR = "00000000-0000-4000-8000-00000000000a"
FAR = "00000000-0000-4000-8000-00000000000b"


def _search_threads(data_dir: Path) -> object:
    return json.loads((data_dir / "shard" / "edge_config.json").read_text()).get(
        "max_search_threads"
    )


def _ids_by_nearness(index: EdgeIndex) -> list[str]:
    (hits,) = asyncio.run(
        index.search([Search((1.0, 0.0, 0.0, 0.0), Condition("user_id", Operator.EQ, ("u",)), 5)])
    )
    return [h.id for h in hits]


def test_a_new_shard_searches_on_one_thread(tmp_path: Path) -> None:
    index = EdgeIndex.open(tmp_path, SPEC)
    try:
        assert _search_threads(tmp_path) == SEARCH_THREADS == 1
    finally:
        asyncio.run(index.close())


def test_a_shard_made_with_edges_default_threads_takes_one_thread_and_keeps_its_points(
    tmp_path: Path,
) -> None:
    # As memoryd made shards before: the vectors of schema 2 and up, Edge's default threads.
    config = qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)},
        sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
    )
    shard = qe.EdgeShard.create(str(tmp_path / "shard"), config)
    shard.update(qe.UpdateOperation.create_field_index("user_id", qe.PayloadSchemaType.Keyword))
    shard.flush()
    shard.close()
    manifest = {"embedder_id": SPEC.embedder_id, "dimension": 4, "schema": 3}
    (tmp_path / "index.json").write_text(json.dumps(manifest))
    assert _search_threads(tmp_path) is None

    index = EdgeIndex.open(tmp_path, SPEC)
    try:
        points = [
            Point(NEAR, (0.9, 0.1, 0.0, 0.0), {"user_id": "u", "content": "near"}, "near"),
            Point(FAR, (0.0, 1.0, 0.0, 0.0), {"user_id": "u", "content": "far"}, "far"),
        ]
        asyncio.run(index.upsert(points))
        assert _ids_by_nearness(index) == [NEAR, FAR]
    finally:
        asyncio.run(index.close())
    assert _search_threads(tmp_path) == 1

    reopened = EdgeIndex.open(tmp_path, SPEC)
    try:
        assert _ids_by_nearness(reopened) == [NEAR, FAR]
    finally:
        asyncio.run(reopened.close())


# --- filters are made once and reused ------------------------------------------------


def test_a_filter_on_true_and_one_on_the_number_1_stay_apart_however_often_asked(
    tmp_path: Path,
) -> None:
    # True == 1 in Python, with the same hash: a filter made for one must never
    # be reused for the other (a stored bool and a stored number never match both).
    flagged = "00000000-0000-4000-8000-0000000000f1"
    counted = "00000000-0000-4000-8000-0000000000c1"
    points = [
        Point(flagged, (1.0, 0.0, 0.0, 0.0), {"user_id": "u", "marker": True}),
        Point(counted, (0.0, 1.0, 0.0, 0.0), {"user_id": "u", "marker": 1}),
    ]

    async def matching(value: object) -> list[str]:
        where = AllOf(
            (Condition("user_id", Operator.EQ, ("u",)), Condition("marker", Operator.EQ, (value,)))
        )
        (hits,) = await index.search([Search((1.0, 0.0, 0.0, 0.0), where, 5)])
        return [h.id for h in hits]

    index = EdgeIndex.open(tmp_path, SPEC)

    async def scenario() -> None:
        await index.upsert(points)
        for _ in range(2):
            assert await matching(1) == [counted]
            assert await matching(True) == [flagged]
            assert await matching(1.0) == [counted]

    try:
        asyncio.run(scenario())
    finally:
        asyncio.run(index.close())
