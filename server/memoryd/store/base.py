"""The vector index seam: what core needs from a vector store, and nothing of Qdrant.

A point is a document (the payload: a JSON object) plus one dense vector,
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


@dataclass(frozen=True, slots=True)
class IndexSpec:
    """What the index is built for; a mismatch on open is refused."""

    embedder_id: str
    dimension: int


@dataclass(frozen=True, slots=True)
class Point:
    id: str
    vector: Vector
    payload: Payload


@dataclass(frozen=True, slots=True)
class Record:
    """A stored point. ``vector`` is set only when asked for."""

    id: str
    payload: Payload
    vector: Vector | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result; ``similarity`` is the raw cosine similarity."""

    id: str
    payload: Payload
    similarity: float


@dataclass(frozen=True, slots=True)
class Search:
    vector: Vector
    where: Filter
    limit: int
    min_similarity: float | None = None


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
    """A collection of points, safe to call concurrently from one event loop."""

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
