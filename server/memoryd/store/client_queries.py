"""Builds qdrant-client query requests from query_plan.py's plans (edge_queries.py for Edge)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from qdrant_client import models

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

    def rrf(self, k: int) -> models.RrfQuery:
        return models.RrfQuery(rrf=models.Rrf(k=k))

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


_CLIENT = ClientQueries()


def to_client_request(plan: QueryPlan) -> models.QueryRequest:
    """The qdrant-client query request that runs ``plan``."""
    request: models.QueryRequest = to_request(plan, _CLIENT)
    return request
