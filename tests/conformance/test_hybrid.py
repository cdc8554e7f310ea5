"""Hybrid retrieval and diversity, on every backend (see conftest.py), plus schema migration.

Dense vectors are hand-made 4-d vectors; texts are chosen so the dense and
the BM25 ranking disagree, which shows the fusion (store/formulas.py).
"""

from __future__ import annotations

import asyncio
import json
import math
import warnings
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import qdrant_edge as qe
from qdrant_client import AsyncQdrantClient, models

from memoryd.core.documents import iso_time
from memoryd.core.filters import AllOf, Condition, Filter, Operator
from memoryd.core.ports import IndexSpec, Point, Recency, Search, VectorIndex
from memoryd.store.edge import EdgeIndex
from memoryd.store.edge_shards import SCHEMA
from memoryd.store.remote import RemoteIndex

if TYPE_CHECKING:
    from conftest import IndexBackend

SPEC = IndexSpec(embedder_id="conformance-test-embedder", dimension=4)
A = "00000000-0000-4000-8000-00000000000a"
B = "00000000-0000-4000-8000-00000000000b"
C = "00000000-0000-4000-8000-00000000000c"
D = "00000000-0000-4000-8000-00000000000d"
E = "00000000-0000-4000-8000-00000000000e"
Q = (1.0, 0.0, 0.0, 0.0)


def unit(*xs: float) -> tuple[float, ...]:
    norm = math.sqrt(sum(x * x for x in xs))
    return tuple(x / norm for x in xs)


def point(point_id: str, vector: Sequence[float], text: str, user: str = "user-1") -> Point:
    return Point(point_id, vector, {"user_id": user, "content": text}, text=text)


# Dense order for Q: A, B, C, D. Lexical order for "peanut allergy": A, C.
POINTS = (
    point(A, Q, "The user has a peanut allergy"),
    point(B, unit(0.9, 0.3, 0, 0), "The user likes hiking in the Alps"),
    point(C, unit(0.2, 1, 0, 0), "Peanuts cause a severe allergic reaction"),
    point(D, unit(0, 0, 1, 0.1), "The user's cat is called Miso"),
    point(E, Q, "Peanut allergy of another user", user="user-2"),
)


def of_user(user: str) -> Filter:
    return AllOf((Condition("user_id", Operator.EQ, (user,)),))


def search(**fields: object) -> Search:
    defaults: dict[str, object] = {"vector": Q, "where": of_user("user-1"), "limit": 4}
    return Search(**(defaults | fields))  # type: ignore[arg-type]


def run(backend: IndexBackend, scenario: Callable[[VectorIndex], Awaitable[None]]) -> None:
    async def main() -> None:
        index = await backend.open(SPEC)
        try:
            await index.upsert(POINTS)
            await scenario(index)
        finally:
            await index.close()

    asyncio.run(main())


def test_backends_declare_hybrid_support(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        assert index.supports_hybrid

    run(backend, scenario)


def test_hybrid_raises_the_cosine_by_the_words_a_memory_shares(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        dense, hybrid = await index.search(
            [search(text="cat Miso"), search(text="cat Miso", is_hybrid=True)]
        )
        assert [h.id for h in dense] == [A, B, C, D]
        by_id = {h.id: h.similarity for h in hybrid}
        assert set(by_id) == {A, B, C, D}, "the filter holds in both rankings"
        for shares_no_word in (A, B, C):
            cosine = next(h.similarity for h in dense if h.id == shares_no_word)
            assert by_id[shares_no_word] == pytest.approx(cosine, abs=1e-6)
        assert dense[3].similarity == pytest.approx(0.0, abs=1e-6)
        assert 0.1 < by_id[D] < 1.0, "D's cosine is 0, its two rare words raise it"
        assert all(0.0 <= h.similarity <= 1.0 for h in hybrid)

    run(backend, scenario)


def test_hybrid_lets_the_words_decide_between_equally_distant_memories(
    backend: IndexBackend,
) -> None:
    async def scenario(index: VectorIndex) -> None:
        # Equally far from A and D by meaning: the words name A.
        between = unit(1, 0, 1, 0.1)
        dense, hybrid = await index.search(
            [
                search(text="peanut allergy", vector=between),
                search(text="peanut allergy", vector=between, is_hybrid=True),
            ]
        )
        assert dense[0].similarity == pytest.approx(dense[1].similarity, abs=0.05)
        assert hybrid[0].id == A
        assert hybrid[0].similarity > dense[0].similarity

    run(backend, scenario)


def test_hybrid_threshold_bounds_the_hybrid_score(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        dense, hybrid = await index.search(
            [
                search(text="cat Miso", min_similarity=0.15),
                search(text="cat Miso", is_hybrid=True, min_similarity=0.15),
            ]
        )
        assert [h.id for h in dense] == [A, B, C]
        assert [h.id for h in hybrid] == [A, B, C, D], "D's words lift it over the threshold"
        assert all(h.similarity >= 0.15 for h in hybrid)

    run(backend, scenario)


def test_hybrid_query_without_known_words_ranks_by_meaning(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        dense, hybrid = await index.search(
            [search(text="the of and"), search(text="the of and", is_hybrid=True)]
        )
        assert [h.id for h in hybrid] == [A, B, C, D]
        assert [h.similarity for h in hybrid] == pytest.approx([h.similarity for h in dense])

    run(backend, scenario)


def aged(point_id: str, vector: Sequence[float], updated: datetime) -> Point:
    text = "The user lives somewhere"
    payload = {"user_id": "user-1", "content": text, "update_time": iso_time(updated)}
    return Point(point_id, vector, payload, text=text)


@pytest.mark.parametrize("is_hybrid", [False, True])
def test_recency_weighs_relevance_by_age(backend: IndexBackend, is_hybrid: bool) -> None:
    """The weight is 1 now, 0.75 after one half-life, towards 0.5 with age; it
    orders alike memories newest first and bounds what a threshold keeps."""
    now = datetime(2026, 6, 1, tzinfo=UTC)
    half_life = timedelta(days=30)
    closer = unit(1, 0.05, 0, 0)
    points = [
        aged(A, closer, now - 4 * half_life),  # the closer one, but old
        aged(B, unit(1, 0.1, 0, 0), now),
        aged(C, Q, now - half_life),
        aged(D, Q, now - 400 * half_life),
    ]
    recency = Recency(now, half_life.total_seconds())

    async def main() -> None:
        index = await backend.open(SPEC)
        try:
            await index.upsert(points)
            plain, weighted, thresholded = await index.search(
                [
                    search(is_hybrid=is_hybrid, text="x"),
                    search(is_hybrid=is_hybrid, text="x", recency=recency),
                    search(is_hybrid=is_hybrid, text="x", recency=recency, min_similarity=0.7),
                ]
            )
        finally:
            await index.close()
        assert [h.id for h in plain][:2] in ([C, D], [D, C])
        assert [h.id for h in weighted] == [B, C, A, D]
        scores = {h.id: h.similarity for h in weighted}
        assert scores[B] == pytest.approx(unit(1, 0.1, 0, 0)[0], abs=1e-4)
        assert scores[C] == pytest.approx(0.75, abs=1e-4)
        assert scores[A] == pytest.approx(unit(1, 0.05, 0, 0)[0] * (0.5 + 0.5 / 16), abs=1e-4)
        assert scores[D] == pytest.approx(0.5, abs=1e-4)
        assert [h.id for h in thresholded] == [B, C]

    asyncio.run(main())


@pytest.mark.parametrize("is_hybrid", [False, True])
def test_diversity_reranks_by_mmr_with_cosine_scores(
    backend: IndexBackend, is_hybrid: bool
) -> None:
    async def scenario(index: VectorIndex) -> None:
        relevant, diverse = await index.search(
            [
                search(limit=2, text="user", is_hybrid=is_hybrid, diversity=0.0),
                search(limit=2, text="user", is_hybrid=is_hybrid, diversity=1.0),
            ]
        )
        assert [h.id for h in relevant] == [A, B]
        assert diverse[0].id == A and diverse[1].id != B
        assert relevant[1].similarity == pytest.approx(unit(0.9, 0.3, 0, 0)[0], abs=1e-4)

    run(backend, scenario)


def _hybrid_config() -> qe.EdgeConfig:
    """The shard config of schema 2 and up: dense and BM25 vectors."""
    return qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)},
        sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
    )


def _write_old_data_dir(
    data_dir: Path,
    config: qe.EdgeConfig,
    *,
    schema: int,
    setup: Sequence[Any] = (),
    points: Sequence[Point] = POINTS,
) -> None:
    """A data directory as an older memoryd left it: a shard of ``config`` (after the
    ``setup`` updates) holding ``points``' dense vectors, and a manifest of ``schema``."""
    shard = qe.EdgeShard.create(str(data_dir / "shard"), config)
    for operation in setup:
        shard.update(operation)
    shard.update(
        qe.UpdateOperation.upsert_points(
            [qe.Point(p.id, {"dense": list(p.vector)}, dict(p.payload)) for p in points]
        )
    )
    shard.flush()
    shard.close()
    manifest = {"embedder_id": SPEC.embedder_id, "dimension": 4, "schema": schema}
    (data_dir / "index.json").write_text(json.dumps(manifest))


def test_edge_index_of_schema_1_is_migrated_on_open(tmp_path: Path) -> None:
    """A data directory made before hybrid retrieval (dense only) gains BM25 vectors."""
    config = qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)}
    )
    _write_old_data_dir(tmp_path, config, schema=1)

    async def main() -> None:
        index = EdgeIndex.open(tmp_path, SPEC)
        try:
            (hits,) = await index.search([search(text="cat Miso", is_hybrid=True)])
            assert [h.id for h in hits] == [A, B, C, D]
            assert hits[3].similarity > 0.1, "D's cosine is 0: its words count"
        finally:
            await index.close()
        reopened = EdgeIndex.open(tmp_path, SPEC)
        await reopened.close()

    asyncio.run(main())
    assert json.loads((tmp_path / "index.json").read_text())["schema"] == SCHEMA


def test_edge_index_of_schema_2_gains_the_expire_time_index_on_open(tmp_path: Path) -> None:
    """A data directory made before the expire_time index keeps its points and gains the index
    (and update_time's), so every read's not-expired filter is answered from an index."""
    config = _hybrid_config()
    tenant = qe.UpdateOperation.create_field_index("user_id", qe.KeywordIndexParams(is_tenant=True))
    _write_old_data_dir(tmp_path, config, schema=2, setup=[tenant])

    async def main() -> None:
        index = EdgeIndex.open(tmp_path, SPEC)
        try:
            assert {"user_id", "expire_time", "create_time", "update_time"} <= set(
                index._shard.info().payload_schema
            )
            assert await index.count(Condition("user_id", Operator.EXISTS)) == len(POINTS)
        finally:
            await index.close()

    asyncio.run(main())
    assert json.loads((tmp_path / "index.json").read_text())["schema"] == SCHEMA


def test_edge_index_of_schema_3_gains_the_update_time_index_and_still_weighs_by_age(
    tmp_path: Path,
) -> None:
    """A data directory made before the update_time index gains it on open; the recency
    weight, now read from that index, orders its memories as it did from their payloads."""
    now = datetime(2026, 6, 1, tzinfo=UTC)
    half_life = timedelta(days=30)
    points = [
        aged(A, unit(1, 0.05, 0, 0), now - 4 * half_life),
        aged(B, unit(1, 0.1, 0, 0), now),
        aged(C, Q, now - half_life),
    ]
    config = _hybrid_config()
    indexes = [
        qe.UpdateOperation.create_field_index("user_id", qe.KeywordIndexParams(is_tenant=True)),
        qe.UpdateOperation.create_field_index("create_time", qe.PayloadSchemaType.Datetime),
        qe.UpdateOperation.create_field_index("expire_time", qe.PayloadSchemaType.Datetime),
    ]
    _write_old_data_dir(tmp_path, config, schema=3, setup=indexes, points=points)

    async def main() -> None:
        index = EdgeIndex.open(tmp_path, SPEC)
        try:
            assert "update_time" in index._shard.info().payload_schema
            (weighted,) = await index.search(
                [search(text="x", recency=Recency(now, half_life.total_seconds()))]
            )
        finally:
            await index.close()
        assert [h.id for h in weighted] == [B, C, A]
        assert weighted[1].similarity == pytest.approx(0.75, abs=1e-4)

    asyncio.run(main())
    assert json.loads((tmp_path / "index.json").read_text())["schema"] == SCHEMA


def test_remote_collection_without_sparse_vector_stays_dense() -> None:
    async def main() -> None:
        client = AsyncQdrantClient(location=":memory:")
        dense = models.VectorParams(size=4, distance=models.Distance.COSINE)
        built_for = {"embedder_id": SPEC.embedder_id, "dimension": 4, "schema": 1}
        await client.create_collection(
            "old", vectors_config={"dense": dense}, metadata={"memoryd": built_for}
        )
        with warnings.catch_warnings():
            warnings.filterwarnings(
                "ignore", message="Payload indexes have no effect", category=UserWarning
            )
            index = await RemoteIndex.open(client, "old", SPEC)
        try:
            assert not index.supports_hybrid
            await index.upsert(POINTS)
            (hits,) = await index.search([search()])
            assert [h.id for h in hits] == [A, B, C, D]
        finally:
            await index.close()

    asyncio.run(main())
