"""How a search runs, once for every backend: its rankings, their fusion, and its scores.

plan_query turns a core.ports.Search into a QueryPlan, a backend-neutral tree
in the terms of Qdrant's universal query API. Each backend supplies a
QueryDialect, the constructors of its client library, and to_request builds
its request from the plan; QueryPlan.hits maps the engine's answer back.
- dense: the nearest neighbours of the dense vector, scored by cosine;
- hybrid: a dense and a BM25 ranking of candidate_count points each, rescored
  by one formula, their noisy-or (store/formulas.py), in the same engine call;
- with recency: the candidates' relevance (cosine, or the hybrid noisy-or)
  times their recency weight, so of two memories alike but for their age the
  newer ranks first;
- with diversity: MMR on the dense vectors re-ranks the candidates (in a
  hybrid or recency search, the rescored ones); scores are then cosine
  similarities.
A score threshold bounds the score the plan returns, so it means the same in
every mode: relevance in [0, 1], discounted by age when recency is on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, assert_never

from memoryd.core.documents import iso_time
from memoryd.core.filters import Filter
from memoryd.core.ports import Hit, Search
from memoryd.store import formulas
from memoryd.store.base import DENSE, ScoredPoint
from memoryd.store.lexical import SPARSE, query_terms


def candidate_count(limit: int) -> int:
    """How many candidates each ranking of a rescored or diversified search considers."""
    return min(500, max(50, 10 * limit))


@dataclass(frozen=True, slots=True)
class Terms:
    """A sparse query vector: term indices and their weights."""

    indices: list[int]
    values: list[float]


@dataclass(frozen=True, slots=True)
class Nearest:
    """Ranks points by the similarity of their ``using`` vector to ``vector``."""

    vector: Sequence[float] | Terms
    using: str


@dataclass(frozen=True, slots=True)
class Formula:
    """Rescores the prefetched candidates by ``expression``; it reads no vector."""

    expression: formulas.Expression

    @property
    def using(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Mmr:
    """Re-ranks ``candidates`` points by maximal marginal relevance to ``vector``:
    ``diversity`` 0 is pure relevance, 1 pure diversity."""

    vector: Sequence[float]
    diversity: float
    candidates: int
    using: str = DENSE


Ranking = Nearest | Formula | Mmr


@dataclass(frozen=True, slots=True)
class Prefetch:
    """A stage whose best ``limit`` points the enclosing ranking works on."""

    ranking: Ranking
    limit: int
    prefetches: tuple[Prefetch, ...] = ()


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """One engine query: ``ranking`` over ``prefetches`` (over the whole
    collection if none), among the points matching ``where``, keeping scores of
    at least ``score_threshold``."""

    ranking: Ranking
    prefetches: tuple[Prefetch, ...]
    where: Filter
    limit: int
    score_threshold: float | None

    def hits(self, points: Iterable[ScoredPoint]) -> list[Hit]:
        """The Hits of the engine's answer, with the score Hit documents."""
        return [Hit(str(p.id), p.payload or {}, float(p.score)) for p in points]


def plan_query(search: Search) -> QueryPlan:
    """The plan that answers ``search``; see the module docstring."""
    # As it came: the Edge binding takes any numbers, the client backend converts.
    dense = search.vector
    candidates = candidate_count(search.limit)
    rankings: tuple[Prefetch, ...] = (Prefetch(Nearest(dense, DENSE), candidates),)
    relevance: formulas.Expression = formulas.PrefetchScore(0)
    if search.is_hybrid:
        lexical = Terms(*query_terms(search.text))
        rankings = (*rankings, Prefetch(Nearest(lexical, SPARSE), candidates))
        relevance = formulas.noisy_or(0, 1)
    score = relevance
    if search.recency is not None:
        weight = formulas.recency_weight(
            iso_time(search.recency.now), search.recency.half_life_seconds
        )
        score = formulas.Product((relevance, weight))
    ranking: Ranking
    prefetches: tuple[Prefetch, ...]
    if search.recency is None and not search.is_hybrid:
        ranking, prefetches = Nearest(dense, DENSE), ()
    else:
        ranking, prefetches = Formula(score), rankings
    if search.diversity is not None:
        if prefetches:
            prefetches = (Prefetch(ranking, candidates, prefetches),)
        ranking = Mmr(dense, search.diversity, candidates)
    return QueryPlan(ranking, prefetches, search.where, search.limit, search.min_similarity)


class QueryDialect(Protocol):
    """The query constructors of one Qdrant client library.

    ``query`` and ``prefetches`` are the dialect's own, already built. A
    ranking's ``using`` names the vector it reads (None for a fusion); a
    library takes it either in the query or beside it, in the prefetch or
    request. A request asks for the points' payloads.
    """

    def sparse_vector(self, indices: list[int], values: list[float]) -> Any: ...

    def nearest(self, vector: Any, using: str) -> Any: ...

    def formula(self, expression: formulas.Expression, prefetches: int) -> Any:
        """``expression`` rescoring ``prefetches`` prefetched rankings."""
        ...

    def mmr(
        self, vector: Sequence[float], diversity: float, candidates: int, using: str
    ) -> Any: ...

    def prefetch(self, stage: Prefetch, query: Any, prefetches: list[Any] | None) -> Any: ...

    def request(self, plan: QueryPlan, query: Any, prefetches: list[Any] | None) -> Any: ...


def to_request(plan: QueryPlan, dialect: QueryDialect) -> Any:
    """The dialect's query request that runs ``plan``."""
    return dialect.request(
        plan,
        _query(plan.ranking, len(plan.prefetches), dialect),
        _prefetches(plan.prefetches, dialect),
    )


def _prefetches(stages: tuple[Prefetch, ...], dialect: QueryDialect) -> list[Any] | None:
    if not stages:
        return None
    return [
        dialect.prefetch(
            stage,
            _query(stage.ranking, len(stage.prefetches), dialect),
            _prefetches(stage.prefetches, dialect),
        )
        for stage in stages
    ]


def _query(ranking: Ranking, prefetches: int, dialect: QueryDialect) -> Any:
    match ranking:
        case Nearest(Terms(indices, values), using):
            return dialect.nearest(dialect.sparse_vector(indices, values), using)
        case Nearest(vector, using):
            return dialect.nearest(vector, using)
        case Formula(expression):
            return dialect.formula(expression, prefetches)
        case Mmr(vector, diversity, candidates, using):
            return dialect.mmr(vector, diversity, candidates, using)
        case _:
            assert_never(ranking)
