"""The ports: what core needs from a vector index and an embedder, declared by core.

Adapters implement them (store/edge.py, store/remote.py; embed/onnx_local.py,
embed/gemini.py) and import core; core imports none of them. Only server.py
picks which adapter fills each port. The write log's port is core/write_log.py.

A point is a document (the payload: a JSON object) plus one dense vector and,
on backends that support hybrid retrieval, a BM25 sparse vector of its text,
under a UUID string id. Filters are core.filters trees over payload paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from memoryd.core.filters import Filter

#: A dense embedding: L2-normalised floats. The one alias every layer uses.
Vector = Sequence[float]
Payload = Mapping[str, Any]


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
    """A search result. ``similarity`` is the score Search documents: the raw
    cosine similarity, or the formula's score of a hybrid or recency search."""

    id: str
    payload: Payload
    similarity: float


@dataclass(frozen=True, slots=True)
class Recency:
    """Discount memories by age, measured at ``now`` from their update_time:
    the weight falls from 1 towards 0.5, halfway there after
    ``half_life_seconds`` (store/formulas.py)."""

    now: datetime
    half_life_seconds: float


@dataclass(frozen=True, slots=True)
class Search:
    """A nearest-neighbour search among the points matching ``where``.

    The score is the cosine similarity; with ``is_hybrid``, the dense ranking
    and a BM25 ranking of ``text`` are fused into one relevance in [0, 1]
    instead. With ``recency``, the relevance is weighted by age.
    ``min_similarity`` bounds that final score. With ``diversity`` (0 to 1),
    the candidates are re-ranked by maximal marginal relevance on the dense
    vectors, and scores are cosine similarities.
    """

    vector: Vector
    where: Filter
    limit: int
    min_similarity: float | None = None
    text: str = ""
    is_hybrid: bool = False
    diversity: float | None = None
    recency: Recency | None = None


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


@dataclass(frozen=True, slots=True)
class ScanPage:
    """A page of a scan; ``next_offset`` None means the scan is complete."""

    records: tuple[Record, ...]
    next_offset: str | None


class VectorIndex(Protocol):
    """A collection of points, safe to call concurrently from one event loop.

    ``supports_hybrid`` says whether points carry a BM25 vector, so that
    hybrid searches work; a backend without it must never get one.
    """

    supports_hybrid: bool

    async def upsert(self, points: Sequence[Point]) -> None:
        """Inserts or replaces points in one engine call. They survive the
        process's end at once, and the machine's once flushed (``flush``)."""
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
        """Pages through matching points by create_time, newest first."""
        ...

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        """Pages through matching points (all, for None) in id order, from
        ``offset`` (a ``next_offset``; None: the start)."""
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

    async def flush(self) -> None:
        """Writes every change so far through to disk, so that a power loss
        keeps it, and lets the engine drop its write-ahead log up to here."""
        ...

    async def close(self) -> None:
        """Flushes and releases the engine; idempotent."""
        ...


class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of ``dimension`` floats.

    ``model_id`` names the model and its settings; the index records it, so
    vectors of different models are never mixed.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Embeds texts in order; raises core.errors.EmbeddingError on provider failure."""
        ...

    async def close(self) -> None:
        """Releases threads or connections; idempotent."""
        ...


class TokenCounter(Protocol):
    """Counts the tokens a text takes for a language model's budget."""

    @property
    def tokenizer_id(self) -> str:
        """Names the tokenizer, so budgets can say what they count."""
        ...

    def count_tokens(self, text: str) -> int:
        """The number of tokens of ``text``, without special tokens."""
        ...
