"""What both Qdrant backends share: the payload schema and the scores of fused rankings.

The port they implement is core/ports.py's VectorIndex.
"""

from __future__ import annotations

#: Payload fields with an index: scope fields select tenants, the rest are
#: frequent filters. user_id is the tenant key (Qdrant's is_tenant).
TENANT_FIELD = "user_id"
KEYWORD_FIELDS = ("agent_id", "app_id", "memory_type", "category", "memory_key")
DATETIME_FIELDS = ("create_time",)
#: The field ListMemories orders by, newest first.
ORDER_FIELD = "create_time"
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
