"""The VectorIndex contract, run against every backend (see conftest.py).

Vectors are tiny hand-made 4-d vectors, so similarities are known exactly.
Every filter is checked through search, scroll and count alike, inside a
user_id condition as core's real read filters are.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

import pytest
from qdrant_client import models

from memoryd.core.documents import iso_time, micros
from memoryd.core.errors import IncompatibleIndex
from memoryd.core.filters import AllOf, AnyOf, Condition, Filter, Not, Operator, Value
from memoryd.core.ports import IndexSpec, Point, ScrollCursor, Search, VectorIndex

if TYPE_CHECKING:
    from conftest import IndexBackend, QdrantClientInMemoryStandIn

SPEC = IndexSpec(embedder_id="conformance-test-embedder", dimension=4)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: int, microseconds: int = 0, *, hours: int = 0) -> datetime:
    """A time shortly after T0."""
    return T0 + timedelta(hours=hours, seconds=seconds, microseconds=microseconds)


# Canonical (lowercase, hyphenated) UUIDs: both engines return ids this way.
A = "00000000-0000-4000-8000-00000000000a"
B = "00000000-0000-4000-8000-00000000000b"
C = "00000000-0000-4000-8000-00000000000c"
D = "00000000-0000-4000-8000-00000000000d"
E = "00000000-0000-4000-8000-00000000000e"
MISSING = "00000000-0000-4000-8000-0000000000ff"

E1 = (1.0, 0.0, 0.0, 0.0)
E2 = (0.0, 1.0, 0.0, 0.0)
E3 = (0.0, 0.0, 1.0, 0.0)
ALL_ROUND = (0.5, 0.5, 0.5, 0.5)


def document(
    user_id: str,
    create_time: datetime,
    metadata: dict[str, Any],
    *,
    agent_id: str = "agent-1",
    category: str = "work",
) -> dict[str, Any]:
    """A payload shaped like core.documents.to_document writes it."""
    return {
        "memory_id": f"m-{micros(create_time)}",
        "content": "text",
        "user_id": user_id,
        "agent_id": agent_id,
        "app_id": "app-1",
        "thread_id": "",
        "memory_type": "semantic",
        "category": category,
        "metadata": metadata,
        "memory_key": "",
        "create_time": iso_time(create_time),
        "update_time": iso_time(create_time + timedelta(hours=1)),
        "version": 1,
    }


# A..D belong to user-1 and differ in every filterable way; E belongs to user-2
# and looks like A, so any filter that leaks across users shows.
POINTS = (
    Point(
        A,
        E1,
        document(
            "user-1",
            at(1),
            {"plan": "pro", "seats": 3, "ratio": 0.5, "active": True, "tags": ["red", "blue"]},
        ),
    ),
    Point(
        B,
        (0.8, 0.6, 0.0, 0.0),
        document(
            "user-1",
            at(2, 500),
            {"plan": "free", "seats": 10, "ratio": 1.5, "active": False},
        ),
    ),
    Point(
        C,
        E2,
        document(
            "user-1",
            at(3),
            {"plan": "team", "seats": 1, "active": None},
            agent_id="agent-2",
        ),
    ),
    Point(
        D,
        E3,
        document("user-1", at(4), {}, agent_id="agent-2", category="home"),
    ),
    Point(
        E,
        E1,
        document(
            "user-2",
            at(5),
            {"plan": "pro", "seats": 3, "ratio": 0.5, "active": True},
        ),
    ),
)


def cond(field: str, operator: Operator, *values: Value) -> Condition:
    return Condition(field, operator, tuple(values))


def of_user(user_id: str, *filters: Filter) -> Filter:
    return AllOf((cond("user_id", Operator.EQ, user_id), *filters))


def run(
    backend: IndexBackend,
    scenario: Callable[[VectorIndex], Awaitable[None]],
    points: Sequence[Point] = POINTS,
) -> None:
    """Opens an index holding ``points``, runs ``scenario`` on it, closes it."""

    async def main() -> None:
        index = await backend.open(SPEC)
        try:
            await index.upsert(points)
            await scenario(index)
        finally:
            await index.close()

    asyncio.run(main())


def cosine(u: Sequence[float], v: Sequence[float]) -> float:
    dot = sum(a * b for a, b in zip(u, v, strict=True))
    return dot / (math.sqrt(sum(a * a for a in u)) * math.sqrt(sum(b * b for b in v)))


# --- upsert and retrieve -------------------------------------------------------------------


def test_retrieve_returns_payloads_without_vectors(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        records = await index.retrieve([A, C])
        assert {r.id: dict(r.payload) for r in records} == {
            A: POINTS[0].payload,
            C: POINTS[2].payload,
        }
        assert all(r.vector is None for r in records)

    run(backend, scenario)


def test_retrieve_with_vectors_returns_the_stored_direction(backend: IndexBackend) -> None:
    # Cosine engines may store the normalized vector; the direction must survive.
    point = Point(A, (3.0, 4.0, 0.0, 0.0), POINTS[0].payload)

    async def scenario(index: VectorIndex) -> None:
        (record,) = await index.retrieve([A], with_vectors=True)
        assert record.vector is not None
        assert len(record.vector) == SPEC.dimension
        assert cosine(record.vector, point.vector) == pytest.approx(1.0)

    run(backend, scenario, [point])


def test_retrieve_skips_missing_ids(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        records = await index.retrieve([MISSING, B])
        assert [r.id for r in records] == [B]
        assert await index.retrieve([MISSING]) == []

    run(backend, scenario)


def test_upsert_replaces_a_point_with_the_same_id(backend: IndexBackend) -> None:
    replacement = Point(A, E3, {**POINTS[0].payload, "content": "changed"})

    async def scenario(index: VectorIndex) -> None:
        await index.upsert([replacement])
        (record,) = await index.retrieve([A])
        assert record.payload["content"] == "changed"
        assert await index.count(of_user("user-1")) == 4
        (hits,) = await index.search([Search(E3, of_user("user-1"), limit=2)])
        assert {h.id for h in hits} == {A, D}

    run(backend, scenario)


def test_empty_inputs_are_no_ops(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        await index.upsert([])
        await index.delete([])
        assert await index.search([]) == []
        assert await index.retrieve([]) == []
        assert await index.count(of_user("user-1")) == 4

    run(backend, scenario)


# --- search --------------------------------------------------------------------------------


def test_search_orders_hits_by_cosine_similarity(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search([Search(E1, of_user("user-1"), limit=10)])
        assert [h.id for h in hits[:2]] == [A, B]
        assert {h.id for h in hits[2:]} == {C, D}
        assert [h.similarity for h in hits] == pytest.approx([1.0, 0.8, 0.0, 0.0], abs=1e-6)
        assert dict(hits[0].payload) == POINTS[0].payload

    run(backend, scenario)


def test_search_similarity_is_cosine_not_dot_product(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search([Search((2.0, 2.0, 0.0, 0.0), of_user("user-1"), limit=1)])
        assert [h.id for h in hits] == [B]
        assert hits[0].similarity == pytest.approx(cosine((2.0, 2.0, 0.0, 0.0), (0.8, 0.6, 0, 0)))

    run(backend, scenario)


def test_search_returns_at_most_limit_hits(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search([Search(E1, of_user("user-1"), limit=1)])
        assert [h.id for h in hits] == [A]

    run(backend, scenario)


@pytest.mark.parametrize(
    ("min_similarity", "expected"), [(0.5, [A, B]), (0.9, [A]), (-0.5, [A, B, C, D])]
)
def test_min_similarity_drops_less_similar_hits(
    backend: IndexBackend, min_similarity: float, expected: list[str]
) -> None:
    async def scenario(index: VectorIndex) -> None:
        search = Search(E1, of_user("user-1"), limit=10, min_similarity=min_similarity)
        (hits,) = await index.search([search])
        assert [h.id for h in hits[:2]] == expected[:2]
        assert {h.id for h in hits} == set(expected)

    run(backend, scenario)


def test_batch_search_results_line_up_with_searches(backend: IndexBackend) -> None:
    searches = [
        Search(E1, of_user("user-1"), limit=1),
        Search(E3, of_user("user-1"), limit=1),
        Search(E1, of_user("nobody"), limit=5),
        Search(E1, of_user("user-2"), limit=5),
        Search(E2, of_user("user-1"), limit=1, min_similarity=0.99),
    ]

    async def scenario(index: VectorIndex) -> None:
        results = await index.search(searches)
        assert [[h.id for h in hits] for hits in results] == [[A], [D], [], [E], [C]]

    run(backend, scenario)


# --- filters -------------------------------------------------------------------------------

EQ, NE, IN, NOT_IN = Operator.EQ, Operator.NE, Operator.IN, Operator.NOT_IN
GT, GTE, LT, LTE, EXISTS = Operator.GT, Operator.GTE, Operator.LT, Operator.LTE, Operator.EXISTS
B_TIME = at(2, 500)
PLUS_2 = timezone(timedelta(hours=2))

FILTER_CASES: list[tuple[str, Filter, set[str]]] = [
    # strings
    ("eq_string", cond("metadata.plan", EQ, "pro"), {A}),
    ("ne_string_matches_missing_key", cond("metadata.plan", NE, "pro"), {B, C, D}),
    ("in_strings", cond("metadata.plan", IN, "pro", "team"), {A, C}),
    ("not_in_strings_matches_missing_key", cond("metadata.plan", NOT_IN, "pro", "free"), {C, D}),
    ("eq_string_matches_an_array_element", cond("metadata.tags", EQ, "blue"), {A}),
    # numbers: stored integers compare with floats as numbers
    ("eq_integer_given_as_float", cond("metadata.seats", EQ, 3.0), {A}),
    ("eq_fraction", cond("metadata.ratio", EQ, 0.5), {A}),
    ("ne_number_matches_missing_key", cond("metadata.seats", NE, 3.0), {B, C, D}),
    ("in_numbers", cond("metadata.seats", IN, 1.0, 10.0), {B, C}),
    ("not_in_numbers_matches_missing_key", cond("metadata.seats", NOT_IN, 3.0, 1.0), {B, D}),
    ("gt_number", cond("metadata.seats", GT, 3.0), {B}),
    ("gte_number", cond("metadata.seats", GTE, 3.0), {A, B}),
    ("lt_number", cond("metadata.seats", LT, 3.0), {C}),
    ("lte_fraction", cond("metadata.ratio", LTE, 1.5), {A, B}),
    ("gt_fraction", cond("metadata.ratio", GT, 0.5), {B}),
    # bools
    ("eq_true", cond("metadata.active", EQ, True), {A}),
    ("eq_false", cond("metadata.active", EQ, False), {B}),
    ("ne_true_matches_null_and_missing", cond("metadata.active", NE, True), {B, C, D}),
    ("in_bools", cond("metadata.active", IN, True, False), {A, B}),
    ("not_in_bools", cond("metadata.active", NOT_IN, False), {A, C, D}),
    # exists: present and not null
    ("exists", cond("metadata.plan", EXISTS), {A, B, C}),
    ("exists_is_false_for_null", cond("metadata.active", EXISTS), {A, B}),
    ("not_exists", Not(cond("metadata.plan", EXISTS)), {D}),
    # create_time: B is at T0 + 2.0005 s, so bounds are exact to the microsecond
    ("create_time_gt", cond("create_time", GT, B_TIME), {C, D}),
    ("create_time_gte", cond("create_time", GTE, B_TIME), {B, C, D}),
    ("create_time_lt", cond("create_time", LT, B_TIME), {A}),
    ("create_time_lte", cond("create_time", LTE, B_TIME), {A, B}),
    ("create_time_gt_a_microsecond_earlier", cond("create_time", GT, at(2, 499)), {B, C, D}),
    ("create_time_eq", cond("create_time", EQ, at(3)), {C}),
    ("create_time_ne", cond("create_time", NE, at(3)), {A, B, D}),
    ("create_time_in", cond("create_time", IN, at(1), B_TIME), {A, B}),
    ("create_time_in_another_zone", cond("create_time", GTE, at(3).astimezone(PLUS_2)), {C, D}),
    (
        "create_time_between",
        AllOf((cond("create_time", GTE, B_TIME), cond("create_time", LT, at(4)))),
        {B, C},
    ),
    ("update_time_lt", cond("update_time", LT, at(2, hours=1)), {A}),
    # scope fields (indexed keywords)
    ("agent_id_eq", cond("agent_id", EQ, "agent-2"), {C, D}),
    ("category_ne", cond("category", NE, "work"), {D}),
    # nesting
    (
        "all_of",
        AllOf((cond("metadata.plan", IN, "pro", "free"), cond("metadata.seats", GT, 5.0))),
        {B},
    ),
    (
        "any_of",
        AnyOf((cond("metadata.plan", EQ, "team"), cond("metadata.active", EQ, True))),
        {A, C},
    ),
    ("not", Not(cond("metadata.plan", EQ, "pro")), {B, C, D}),
    ("double_not", Not(Not(cond("metadata.plan", EQ, "pro"))), {A}),
    (
        "not_any_of_all_of",
        Not(
            AnyOf(
                (
                    AllOf((cond("metadata.plan", EQ, "free"), cond("metadata.seats", GT, 5.0))),
                    Not(cond("metadata.plan", EXISTS)),
                )
            )
        ),
        {A, C},
    ),
    (
        "any_of_inside_all_of",
        AllOf(
            (
                AnyOf((cond("agent_id", EQ, "agent-2"), cond("metadata.ratio", GT, 1.0))),
                Not(cond("category", EQ, "home")),
            )
        ),
        {B, C},
    ),
]


@pytest.mark.parametrize(
    ("where", "expected"),
    [pytest.param(where, expected, id=name) for name, where, expected in FILTER_CASES],
)
def test_filter_selects_the_same_points_in_search_scroll_and_count(
    backend: IndexBackend, where: Filter, expected: set[str]
) -> None:
    scoped = of_user("user-1", where)

    async def scenario(index: VectorIndex) -> None:
        (hits,) = await index.search([Search(ALL_ROUND, scoped, limit=10)])
        assert {h.id for h in hits} == expected, "search"
        page = await index.scroll_newest_first(scoped, 10, None)
        assert {r.id for r in page.records} == expected, "scroll"
        assert await index.count(scoped) == len(expected), "count"

    run(backend, scenario)


# --- scroll_newest_first -------------------------------------------------------------------


def test_scroll_orders_newest_first_with_create_time_micros(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        page = await index.scroll_newest_first(of_user("user-1"), 10, None)
        assert [r.id for r in page.records] == [D, C, B, A]
        assert [dict(r.payload) for r in page.records] == [p.payload for p in POINTS[3::-1]]
        assert page.order_values == tuple(micros(t) for t in (at(4), at(3), B_TIME, at(1)))

    run(backend, scenario)


def test_scroll_resumes_strictly_before_the_cursor(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        cursor = ScrollCursor(micros(at(3)), (C,))
        page = await index.scroll_newest_first(of_user("user-1"), 10, cursor)
        assert [r.id for r in page.records] == [B, A]

    run(backend, scenario)


def _tie_points() -> list[Point]:
    """Eight points of user-1 over three times, four of them at one time.

    A point of user-2 shares the tied time, so the cursor's id exclusion
    and the scope filter must combine.
    """
    newest = at(9, 7)
    tied = at(8, 1)
    oldest = at(7)
    times = [newest, tied, tied, tied, tied, oldest, oldest, oldest]
    points = [
        Point(f"00000000-0000-4000-8000-{n:012x}", E1, document("user-1", t, {"n": n}))
        for n, t in enumerate(times, start=0x100)
    ]
    points.append(Point("00000000-0000-4000-8000-000000000200", E1, document("user-2", tied, {})))
    return points


@pytest.mark.parametrize("page_size", [1, 2, 3, 5])
def test_scroll_pages_across_ties_lose_and_repeat_nothing(
    backend: IndexBackend, page_size: int
) -> None:
    points = _tie_points()
    users = {p.id: p.payload["user_id"] for p in points}

    async def scenario(index: VectorIndex) -> None:
        where = of_user("user-1")
        returned: list[str] = []
        values: list[int] = []
        cursor: ScrollCursor | None = None
        for _ in range(len(points) + 1):
            page = await index.scroll_newest_first(where, page_size, cursor)
            if not page.records:
                break
            assert len(page.records) <= page_size
            returned += [r.id for r in page.records]
            values += page.order_values
            # The cursor as core builds it: the last time, and every id
            # already returned at that time, across pages.
            last = page.order_values[-1]
            seen = [r.id for r, v in zip(page.records, page.order_values, strict=True) if v == last]
            if cursor is not None and cursor.order_value == last:
                seen = [*cursor.seen_ids, *seen]
            cursor = ScrollCursor(last, tuple(seen))
        expected = [p.id for p in points if users[p.id] == "user-1"]
        assert sorted(returned) == sorted(expected), "every point exactly once"
        assert len(returned) == len(set(returned))
        assert values == sorted(values, reverse=True)
        by_id = {p.id: micros(datetime.fromisoformat(p.payload["create_time"])) for p in points}
        assert values == [by_id[i] for i in returned]

    run(backend, scenario, points)


# --- count, delete, delete_where -----------------------------------------------------------


def test_count_counts_matching_points_exactly(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        assert await index.count(of_user("user-1")) == 4
        assert await index.count(of_user("user-2")) == 1
        assert await index.count(of_user("nobody")) == 0
        assert await index.count(of_user("user-1", cond("agent_id", EQ, "agent-1"))) == 2

    run(backend, scenario)


def test_delete_removes_points_and_ignores_missing_ids(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        await index.delete([A, MISSING])
        assert [r.id for r in await index.retrieve([A, B])] == [B]
        assert await index.count(of_user("user-1")) == 3
        (hits,) = await index.search([Search(E1, of_user("user-1"), limit=1)])
        assert [h.id for h in hits] == [B]
        page = await index.scroll_newest_first(of_user("user-1"), 10, None)
        assert [r.id for r in page.records] == [D, C, B]

    run(backend, scenario)


def test_delete_where_removes_only_matching_points(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        await index.delete_where(of_user("user-1", cond("metadata.plan", IN, "pro", "team")))
        assert {r.id for r in await index.retrieve([A, B, C, D, E])} == {B, D, E}
        assert await index.count(of_user("user-1")) == 2
        await index.delete_where(of_user("user-1"))
        assert await index.count(of_user("user-1")) == 0
        assert [r.id for r in await index.retrieve([E])] == [E]

    run(backend, scenario)


def test_delete_where_matching_nothing_is_a_no_op(backend: IndexBackend) -> None:
    async def scenario(index: VectorIndex) -> None:
        await index.delete_where(of_user("nobody"))
        assert await index.count(of_user("user-1")) == 4

    run(backend, scenario)


# --- lifecycle -----------------------------------------------------------------------------


def test_reopen_with_the_same_spec_keeps_the_points(backend: IndexBackend) -> None:
    async def main() -> None:
        index = await backend.open(SPEC)
        await index.upsert(POINTS)
        index = await backend.reopen(index, SPEC)
        try:
            assert await index.count(of_user("user-1")) == 4
            (hits,) = await index.search([Search(E3, of_user("user-1"), limit=1)])
            assert [h.id for h in hits] == [D]
            await index.upsert([Point(MISSING, E2, document("user-1", T0, {}))])
            assert await index.count(of_user("user-1")) == 5
        finally:
            await index.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(IndexSpec("another-embedder", SPEC.dimension), id="other_embedder"),
        pytest.param(IndexSpec(SPEC.embedder_id, SPEC.dimension + 1), id="other_dimension"),
    ],
)
def test_reopen_with_another_spec_raises_incompatible_index(
    backend: IndexBackend, other: IndexSpec
) -> None:
    async def main() -> None:
        index = await backend.open(SPEC)
        await index.upsert(POINTS)
        with pytest.raises(IncompatibleIndex, match=SPEC.embedder_id):
            index = await backend.reopen(index, other)
        await index.close()

    asyncio.run(main())


def test_close_is_idempotent(backend: IndexBackend) -> None:
    async def main() -> None:
        index = await backend.open(SPEC)
        await index.upsert(POINTS[:1])
        await index.close()
        await index.close()

    asyncio.run(main())


# --- RemoteIndex only: how the embedder spec is recorded -----------------------------------


def test_remote_index_refuses_a_collection_memoryd_did_not_create(
    qdrant_client_in_memory_standin: QdrantClientInMemoryStandIn,
) -> None:
    standin = qdrant_client_in_memory_standin

    async def main() -> None:
        await standin.client.create_collection(
            standin.collection,
            vectors_config={"dense": models.VectorParams(size=4, distance=models.Distance.COSINE)},
        )
        with pytest.raises(IncompatibleIndex, match="not created by memoryd"):
            await standin.open(SPEC)

    asyncio.run(main())


def test_remote_index_records_its_spec_as_collection_metadata_not_as_a_point(
    qdrant_client_in_memory_standin: QdrantClientInMemoryStandIn,
) -> None:
    standin = qdrant_client_in_memory_standin

    async def main() -> None:
        index = await standin.open(SPEC)
        info = await standin.client.get_collection(standin.collection)
        assert info.config.metadata == {
            "memoryd": {"embedder_id": SPEC.embedder_id, "dimension": 4, "schema": 2}
        }
        assert (await standin.client.count(standin.collection, exact=True)).count == 0
        await index.close()

    asyncio.run(main())
