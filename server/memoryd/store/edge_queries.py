"""Builds Qdrant Edge query requests from store/query_plan.py's plans."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, assert_never

import qdrant_edge as qe

from memoryd.store import formulas as f
from memoryd.store.qdrant_filters import to_edge_filter
from memoryd.store.query_plan import Prefetch, QueryPlan, to_request


class EdgeQueries:
    """qdrant-edge-py's query constructors; a query names the vector it reads."""

    def sparse_vector(self, indices: list[int], values: list[float]) -> qe.SparseVector:
        return qe.SparseVector(indices, values)

    def nearest(self, vector: Any, using: str) -> qe.Query:
        return qe.Query.Nearest(vector, using=using)

    def formula(self, expression: f.Expression, prefetches: int) -> qe.Formula:
        return _formula(expression, prefetches)

    def mmr(self, vector: Sequence[float], diversity: float, candidates: int, using: str) -> qe.Mmr:
        # Qdrant Edge's MMR takes lambda, the weight of relevance: diversity's complement.
        return qe.Mmr(list(vector), 1.0 - diversity, candidates, using=using)

    def prefetch(self, stage: Prefetch, query: Any, prefetches: list[Any] | None) -> qe.Prefetch:
        return qe.Prefetch(stage.limit, query=query, prefetches=prefetches)

    def request(self, plan: QueryPlan, query: Any, prefetches: list[Any] | None) -> qe.QueryRequest:
        return qe.QueryRequest(
            limit=plan.limit,
            query=query,
            prefetches=prefetches,
            filter=to_edge_filter(plan.where),
            score_threshold=plan.score_threshold,
            with_payload=True,
        )


@functools.lru_cache(maxsize=64)
def _formula(expression: f.Expression, prefetches: int) -> qe.Formula:
    """Built once per formula: a search's formula changes only with its mode,
    half-life and recency clock step, not with its query."""
    # A point missing from a prefetch scores 0 there.
    defaults = {_score(i): 0.0 for i in range(prefetches)}
    return qe.Formula(_expression(expression), defaults)


def _score(prefetch: int) -> str:
    return f"$score[{prefetch}]"


def _expression(node: f.Expression) -> qe.Expression:
    e = qe.Expression
    match node:
        case f.Constant(value):
            return e.Constant(value)
        case f.PrefetchScore(index):
            return e.Variable(_score(index))
        case f.Sum(terms):
            return e.Sum([_expression(t) for t in terms])
        case f.Product(factors):
            return e.Mult([_expression(x) for x in factors])
        case f.Negative(value):
            return e.Neg(_expression(value))
        case f.Quotient(left, right):
            return e.Div(_expression(left), _expression(right), 0.0)
        case f.HalvingWithAge(field, now, half_life_seconds):
            return e.Decay(
                qe.DecayKind.Exp, e.DatetimeKey(field), e.Datetime(now), 0.5, half_life_seconds
            )
        case _:
            assert_never(node)


_EDGE = EdgeQueries()


def to_edge_request(plan: QueryPlan) -> qe.QueryRequest:
    """The Qdrant Edge query request that runs ``plan``."""
    request: qe.QueryRequest = to_request(plan, _EDGE)
    return request
