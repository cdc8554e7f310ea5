"""Hybrid retrieval and diversity, on every backend (see conftest.py), plus schema migration.

Dense vectors are hand-made 4-d vectors; texts are chosen so the dense and
the BM25 ranking disagree, which shows the fusion.
"""

from __future__ import annotations

import asyncio
import json
import math
import warnings
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import qdrant_edge as qe
from qdrant_client import AsyncQdrantClient, models

from memoryd.core.filters import AllOf, Condition, Filter, Operator
from memoryd.core.ports import IndexSpec, Point, Search, VectorIndex
from memoryd.store.edge import EdgeIndex
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


def test_hybrid_fuses_dense_and_lexical_rankings(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        dense, hybrid = await index.search(
            [search(text="peanut allergy"), search(text="peanut allergy", is_hybrid=True)]
        )
        assert [h.id for h in dense] == [A, B, C, D]
        assert [h.id for h in hybrid][:3] == [A, C, B], "the lexical match C overtakes B"
        assert hybrid[0].similarity == pytest.approx(1.0), "first in both rankings"
        assert all(0.0 <= h.similarity <= 1.0 for h in hybrid)
        assert E not in {h.id for h in hybrid}, "the filter holds in both rankings"

    run(backend, scenario)


def test_hybrid_threshold_bounds_the_fused_score(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search(
            [search(text="peanut allergy", is_hybrid=True, min_similarity=0.6)]
        )
        assert [h.id for h in hits] == [A, C]

    run(backend, scenario)


def test_hybrid_query_without_known_words_ranks_by_meaning(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search([search(text="the of and", is_hybrid=True)])
        assert [h.id for h in hits] == [A, B, C, D]

    run(backend, scenario)


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


def _write_old_data_dir(
    data_dir: Path, config: qe.EdgeConfig, *, schema: int, setup: Sequence[Any] = ()
) -> None:
    """A data directory as an older memoryd left it: a shard of ``config`` (after the
    ``setup`` updates) holding POINTS' dense vectors, and a manifest of ``schema``."""
    shard = qe.EdgeShard.create(str(data_dir / "shard"), config)
    for operation in setup:
        shard.update(operation)
    shard.update(
        qe.UpdateOperation.upsert_points(
            [qe.Point(p.id, {"dense": list(p.vector)}, dict(p.payload)) for p in POINTS]
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
            (hits,) = await index.search([search(text="peanut allergy", is_hybrid=True)])
            assert [h.id for h in hits][:3] == [A, C, B]
        finally:
            await index.close()
        reopened = EdgeIndex.open(tmp_path, SPEC)
        await reopened.close()

    asyncio.run(main())
    assert json.loads((tmp_path / "index.json").read_text())["schema"] == 3


def test_edge_index_of_schema_2_gains_the_expire_time_index_on_open(tmp_path: Path) -> None:
    """A data directory made before the expire_time index keeps its points and gains the index,
    so every read's not-expired filter is answered from an index."""
    config = qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=4, distance=qe.Distance.Cosine)},
        sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
    )
    tenant = qe.UpdateOperation.create_field_index("user_id", qe.KeywordIndexParams(is_tenant=True))
    _write_old_data_dir(tmp_path, config, schema=2, setup=[tenant])

    async def main() -> None:
        index = EdgeIndex.open(tmp_path, SPEC)
        try:
            assert {"user_id", "expire_time", "create_time"} <= set(
                index._shard.info().payload_schema
            )
            assert await index.count(Condition("user_id", Operator.EXISTS)) == len(POINTS)
        finally:
            await index.close()

    asyncio.run(main())
    assert json.loads((tmp_path / "index.json").read_text())["schema"] == 3


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
