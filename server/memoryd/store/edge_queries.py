"""Builds Qdrant Edge query requests from store/query_plan.py's plans."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import qdrant_edge as qe

from memoryd.store.qdrant_filters import to_edge_filter
from memoryd.store.query_plan import Prefetch, QueryPlan, to_request


class EdgeQueries:
    """qdrant-edge-py's query constructors; a query names the vector it reads."""

    def sparse_vector(self, indices: list[int], values: list[float]) -> qe.SparseVector:
        return qe.SparseVector(indices, values)

    def nearest(self, vector: Any, using: str) -> qe.Query:
        return qe.Query.Nearest(vector, using=using)

    def rrf(self, k: int) -> qe.Fusion.Rrf:
        return qe.Fusion.Rrf(k=k)

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


_EDGE = EdgeQueries()


def to_edge_request(plan: QueryPlan) -> qe.QueryRequest:
    """The Qdrant Edge query request that runs ``plan``."""
    request: qe.QueryRequest = to_request(plan, _EDGE)
    return request
