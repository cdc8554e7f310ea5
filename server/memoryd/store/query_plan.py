"""How a search runs, once for every backend: its rankings, their fusion, and its scores.

plan_query turns a core.ports.Search into a QueryPlan, a backend-neutral tree
in the terms of Qdrant's universal query API. Each backend supplies a
QueryDialect, the constructors of its client library, and to_request builds
its request from the plan; QueryPlan.hits maps the engine's answer back.
- dense: the nearest neighbours of the dense vector;
- hybrid: a dense and a BM25 ranking of candidate_count points each, fused by
  RRF. The engine's fused score is scaled to [0, 1] (fused_score), so a
  threshold on it is scaled back (raw_fused_score) for the engine;
- with diversity: MMR on the dense vectors re-ranks the candidates (in a
  hybrid search, the fused ones); scores are then cosine similarities.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, assert_never

from memoryd.core.filters import Filter
from memoryd.core.ports import Hit, Search
from memoryd.store.base import DENSE, ScoredPoint
from memoryd.store.lexical import SPARSE, query_terms

#: Reciprocal rank fusion's k: a point ranked r-th (from 0) in one ranking
#: gets 1 / (RRF_K + r) from it. 60 is the value of the original paper.
RRF_K = 60
#: The rankings a hybrid search fuses: dense and lexical.
FUSED_RANKINGS = 2


def fused_score(raw: float) -> float:
    """An RRF score divided by its maximum (first in every ranking), so in [0, 1]."""
    return min(1.0, max(0.0, raw * RRF_K / FUSED_RANKINGS))


def raw_fused_score(score: float) -> float:
    """The engine's RRF score for a fused_score, for thresholds."""
    return score * FUSED_RANKINGS / RRF_K


def candidate_count(limit: int) -> int:
    """How many candidates each ranking of a hybrid or diversified search considers."""
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
class Rrf:
    """Fuses the prefetched rankings by reciprocal rank; it reads no vector."""

    k: int = RRF_K

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


Ranking = Nearest | Rrf | Mmr


@dataclass(frozen=True, slots=True)
class Prefetch:
    """A stage whose best ``limit`` points the enclosing ranking works on."""

    ranking: Ranking
    limit: int
    prefetches: tuple[Prefetch, ...] = ()


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """One engine query: ``ranking`` over ``prefetches`` (over the whole
    collection if none), among the points matching ``where``.

    ``score_threshold`` is in the engine's terms; ``is_fused_score`` says the
    engine scores are raw RRF scores, which hits rescales.
    """

    ranking: Ranking
    prefetches: tuple[Prefetch, ...]
    where: Filter
    limit: int
    score_threshold: float | None
    is_fused_score: bool

    def hits(self, points: Iterable[ScoredPoint]) -> list[Hit]:
        """The Hits of the engine's answer, with the similarity Hit documents."""
        return [Hit(str(p.id), p.payload or {}, self._similarity(float(p.score))) for p in points]

    def _similarity(self, score: float) -> float:
        return fused_score(score) if self.is_fused_score else score


def plan_query(search: Search) -> QueryPlan:
    """The plan that answers ``search``; see the module docstring."""
    # As it came: the Edge binding takes any numbers, the client backend converts.
    dense = search.vector
    candidates = candidate_count(search.limit)
    ranking: Ranking = Nearest(dense, DENSE)
    prefetches: tuple[Prefetch, ...] = ()
    if search.is_hybrid:
        lexical = Terms(*query_terms(search.text))
        rankings = (
            Prefetch(Nearest(dense, DENSE), candidates),
            Prefetch(Nearest(lexical, SPARSE), candidates),
        )
        if search.diversity is None:
            ranking, prefetches = Rrf(), rankings
        else:
            prefetches = (Prefetch(Rrf(), candidates, rankings),)
    if search.diversity is not None:
        ranking = Mmr(dense, search.diversity, candidates)
    is_fused_score = isinstance(ranking, Rrf)
    threshold = search.min_similarity
    if is_fused_score and threshold is not None:
        threshold = raw_fused_score(threshold)
    return QueryPlan(ranking, prefetches, search.where, search.limit, threshold, is_fused_score)


class QueryDialect(Protocol):
    """The query constructors of one Qdrant client library.

    ``query`` and ``prefetches`` are the dialect's own, already built. A
    ranking's ``using`` names the vector it reads (None for a fusion); a
    library takes it either in the query or beside it, in the prefetch or
    request. A request asks for the points' payloads.
    """

    def sparse_vector(self, indices: list[int], values: list[float]) -> Any: ...

    def nearest(self, vector: Any, using: str) -> Any: ...

    def rrf(self, k: int) -> Any: ...

    def mmr(
        self, vector: Sequence[float], diversity: float, candidates: int, using: str
    ) -> Any: ...

    def prefetch(self, stage: Prefetch, query: Any, prefetches: list[Any] | None) -> Any: ...

    def request(self, plan: QueryPlan, query: Any, prefetches: list[Any] | None) -> Any: ...


def to_request(plan: QueryPlan, dialect: QueryDialect) -> Any:
    """The dialect's query request that runs ``plan``."""
    return dialect.request(
        plan, _query(plan.ranking, dialect), _prefetches(plan.prefetches, dialect)
    )


def _prefetches(stages: tuple[Prefetch, ...], dialect: QueryDialect) -> list[Any] | None:
    if not stages:
        return None
    return [
        dialect.prefetch(
            stage, _query(stage.ranking, dialect), _prefetches(stage.prefetches, dialect)
        )
        for stage in stages
    ]


def _query(ranking: Ranking, dialect: QueryDialect) -> Any:
    match ranking:
        case Nearest(Terms(indices, values), using):
            return dialect.nearest(dialect.sparse_vector(indices, values), using)
        case Nearest(vector, using):
            return dialect.nearest(vector, using)
        case Rrf(k):
            return dialect.rrf(k)
        case Mmr(vector, diversity, candidates, using):
            return dialect.mmr(vector, diversity, candidates, using)
        case _:
            assert_never(ranking)
