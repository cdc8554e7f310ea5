"""The vector index seam: what core needs from a vector store, and nothing of Qdrant.

A point is a document (the payload: a JSON object) plus one dense vector and,
on backends that support hybrid retrieval, a BM25 sparse vector of its text,
under a UUID string id. Filters are core.filters trees over payload paths.
Backends translate them to their engine one to one and make one engine call
per method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from memoryd.core.filters import Filter

Vector = Sequence[float]
Payload = Mapping[str, Any]

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


@dataclass(frozen=True, slots=True)
class IndexSpec:
    """What the index is built for; a mismatch on open is refused."""

    embedder_id: str
    dimension: int


@dataclass(frozen=True, slots=True)
class Point:
    """A point to store; ``text`` feeds the lexical (BM25) vector where supported."""

    id: str
    vector: Vector
    payload: Payload
    text: str = ""


@dataclass(frozen=True, slots=True)
class Record:
    """A stored point. ``vector`` is set only when asked for."""

    id: str
    payload: Payload
    vector: Vector | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result. ``similarity`` is the raw cosine similarity, except for
    a hybrid search without diversity, where it is the fused_score."""

    id: str
    payload: Payload
    similarity: float


@dataclass(frozen=True, slots=True)
class Search:
    """A nearest-neighbour search among the points matching ``where``.

    With ``is_hybrid``, the dense ranking and a BM25 ranking of ``text`` are
    fused by RRF; ``min_similarity`` then bounds the fused_score. With
    ``diversity`` (0 to 1), the candidates are re-ranked by maximal marginal
    relevance on the dense vectors, and scores are cosine similarities.
    """

    vector: Vector
    where: Filter
    limit: int
    min_similarity: float | None = None
    text: str = ""
    is_hybrid: bool = False
    diversity: float | None = None


@dataclass(frozen=True, slots=True)
class ScrollCursor:
    """Where a newest-first scroll resumes: before ``order_value`` (a
    create_time in microseconds), skipping ``seen_ids`` that share it."""

    order_value: int
    seen_ids: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, slots=True)
class ScrollPage:
    records: tuple[Record, ...]
    order_values: tuple[int, ...]


class VectorIndex(Protocol):
    """A collection of points, safe to call concurrently from one event loop.

    ``supports_hybrid`` says whether points carry a BM25 vector, so that
    hybrid searches work; a backend without it must never get one.
    """

    supports_hybrid: bool

    async def upsert(self, points: Sequence[Point]) -> None:
        """Inserts or replaces points, durably, in one engine call."""
        ...

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        """Runs searches in one engine call; result lists line up with them."""
        ...

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        """Returns the points that exist among ``ids``, in no particular order."""
        ...

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        """Pages through matching points by ORDER_FIELD, newest first."""
        ...

    async def count(self, where: Filter) -> int:
        """Counts matching points exactly."""
        ...

    async def delete(self, ids: Sequence[str]) -> None:
        """Deletes points by id; missing ids are ignored."""
        ...

    async def delete_where(self, where: Filter) -> None:
        """Deletes every matching point."""
        ...

    async def close(self) -> None:
        """Flushes and releases the engine; idempotent."""
        ...
