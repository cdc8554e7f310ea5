"""Switchable ports: the embedder and index that reads and writes use, swapped
together when a re-embedding switches over (core/reembed.py).

Each call costs one attribute lookup more than calling the wrapped port. The
one invariant: a search never queries an index with a vector of another
embedder. Vectors this embedder returns are tagged with its generation; a
search whose vector predates the last swap (it was embedded just before, and
queried just after) is embedded again from its text before it runs. Writes
need no tag: the indexer applies them while holding the gate the swap holds
(Indexer.paused), and embeds again when the embedder changed meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memoryd.core.errors import EmbeddingError
from memoryd.core.filters import Filter
from memoryd.core.ports import (
    Embedder,
    Hit,
    Point,
    Record,
    ScanPage,
    ScrollCursor,
    ScrollPage,
    Search,
    Vector,
    VectorIndex,
)


class TaggedVector(list[float]):
    """A vector, with the generation of the embedder that made it."""

    __slots__ = ("generation",)

    def __init__(self, values: Vector, generation: int) -> None:
        super().__init__(values)
        self.generation = generation


class SwitchingEmbedder:
    """The current embedder; ``generation`` counts the swaps."""

    def __init__(self, embedder: Embedder) -> None:
        self.current = embedder
        self.generation = 0
        self._retired: list[Embedder] = []

    @property
    def model_id(self) -> str:
        return self.current.model_id

    @property
    def dimension(self) -> int:
        return self.current.dimension

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        generation = self.generation
        vectors = await self.current.embed(texts)
        return [TaggedVector(v, generation) for v in vectors]

    async def close(self) -> None:
        """Closes the current embedder and every one it replaced."""
        for embedder in (*self._retired, self.current):
            await embedder.close()
        self._retired.clear()


class SwitchingIndex:
    """The current index, switched with its embedder by ``swap``."""

    def __init__(self, index: VectorIndex, embedder: SwitchingEmbedder) -> None:
        self.current = index
        self.embedder = embedder
        self.supports_hybrid = index.supports_hybrid

    def swap(self, embedder: Embedder, index: VectorIndex) -> VectorIndex:
        """Switches both at once (no await in between) and returns the old
        index for the caller to close. The old embedder stays open until
        close(): a read may still be embedding with it."""
        if index.supports_hybrid != self.supports_hybrid:
            raise ValueError("the new index must support the same retrieval modes")
        old = self.current
        self.embedder._retired.append(self.embedder.current)
        self.embedder.current = embedder
        self.embedder.generation += 1
        self.current = index
        return old

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        while True:
            generation = self.embedder.generation
            stale = [
                i
                for i, s in enumerate(searches)
                if getattr(s.vector, "generation", generation) != generation
            ]
            if not stale:
                return await self.current.search(searches)
            searches = await self._embedded_again(searches, stale)

    async def _embedded_again(self, searches: Sequence[Search], stale: list[int]) -> list[Search]:
        if any(not searches[i].text for i in stale):
            raise EmbeddingError("the embedder was switched during this call; retry it")
        vectors = await self.embedder.embed([searches[i].text for i in stale])
        fresh = list(searches)
        for i, vector in zip(stale, vectors, strict=True):
            fresh[i] = replace(searches[i], vector=vector)
        return fresh

    async def upsert(self, points: Sequence[Point]) -> None:
        await self.current.upsert(points)

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        return await self.current.retrieve(ids, with_vectors=with_vectors)

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        return await self.current.scroll_newest_first(where, limit, after)

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        return await self.current.scan(where, limit, offset, with_vectors=with_vectors)

    async def count(self, where: Filter) -> int:
        return await self.current.count(where)

    async def delete(self, ids: Sequence[str]) -> None:
        await self.current.delete(ids)

    async def delete_where(self, where: Filter) -> None:
        await self.current.delete_where(where)

    async def flush(self) -> None:
        await self.current.flush()

    async def close(self) -> None:
        await self.current.close()
