"""Builds qdrant-client query requests from query_plan.py's plans (edge_queries.py for Edge)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from qdrant_client import models

from memoryd.store import formulas as f
from memoryd.store.base import floats
from memoryd.store.client_filters import to_client_filter
from memoryd.store.query_plan import Prefetch, QueryPlan, to_request


class ClientQueries:
    """qdrant-client's query models; the prefetch or request names the vector a query reads."""

    def sparse_vector(self, indices: list[int], values: list[float]) -> models.SparseVector:
        return models.SparseVector(indices=indices, values=values)

    def nearest(self, vector: Any, using: str) -> Any:
        # A bare vector (dense list or SparseVector) is a nearest-neighbour query.
        return floats(vector) if isinstance(vector, list) else vector

    def formula(self, expression: f.Expression, prefetches: int) -> models.FormulaQuery:
        # A point missing from a prefetch scores 0 there.
        defaults: dict[str, Any] = {_score(i): 0.0 for i in range(prefetches)}
        return models.FormulaQuery(formula=_expression(expression), defaults=defaults)

    def mmr(
        self, vector: Sequence[float], diversity: float, candidates: int, using: str
    ) -> models.NearestQuery:
        mmr = models.Mmr(diversity=diversity, candidates_limit=candidates)
        return models.NearestQuery(nearest=floats(vector), mmr=mmr)

    def prefetch(
        self, stage: Prefetch, query: Any, prefetches: list[Any] | None
    ) -> models.Prefetch:
        using = stage.ranking.using
        return models.Prefetch(prefetch=prefetches, query=query, using=using, limit=stage.limit)

    def request(
        self, plan: QueryPlan, query: Any, prefetches: list[Any] | None
    ) -> models.QueryRequest:
        return models.QueryRequest(
            prefetch=prefetches,
            query=query,
            using=plan.ranking.using,
            filter=to_client_filter(plan.where),
            limit=plan.limit,
            score_threshold=plan.score_threshold,
            with_payload=True,
        )


def _score(prefetch: int) -> str:
    return f"$score[{prefetch}]"


def _expression(node: f.Expression) -> models.Expression:
    match node:
        case f.Constant(value):
            return value
        case f.PrefetchScore(index):
            return _score(index)
        case f.Sum(terms):
            return models.SumExpression(sum=[_expression(t) for t in terms])
        case f.Product(factors):
            return models.MultExpression(mult=[_expression(x) for x in factors])
        case f.Negative(value):
            return models.NegExpression(neg=_expression(value))
        case f.Quotient(left, right):
            div = models.DivParams(
                left=_expression(left), right=_expression(right), by_zero_default=0.0
            )
            return models.DivExpression(div=div)
        case f.HalvingWithAge(field, now, half_life_seconds):
            decay = models.DecayParamsExpression(
                x=models.DatetimeKeyExpression(datetime_key=field),
                target=models.DatetimeExpression(datetime=now),
                scale=half_life_seconds,
                midpoint=0.5,
            )
            return models.ExpDecayExpression(exp_decay=decay)
        case _:
            assert_never(node)


_CLIENT = ClientQueries()


def to_client_request(plan: QueryPlan) -> models.QueryRequest:
    """The qdrant-client query request that runs ``plan``."""
    request: models.QueryRequest = to_request(plan, _CLIENT)
    return request
