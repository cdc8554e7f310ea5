"""Test hooks that no production setting offers, plugged into memoryd.server.Seams.

- SlowIndex: every engine write takes longer, so tests can keep writes pending
  (the backlog bound, reads waiting for writes, draining on SIGTERM).
- in_memory_qdrant_standin: the Qdrant server backend's client, on
  qdrant-client's pure-Python in-memory mode.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from qdrant_client import AsyncQdrantClient

from memoryd.core.filters import Filter
from memoryd.core.ports import Hit, Point, Record, ScrollCursor, ScrollPage, Search, VectorIndex


def in_memory_qdrant_standin() -> AsyncQdrantClient:
    """A stand-in for a Qdrant server, because no server binary can run here.

    qdrant-client's local mode runs RemoteIndex's own code unchanged against a
    pure-Python engine that scans every point and is not thread-safe: good for
    checking our mapping, never for serving users.
    """
    return AsyncQdrantClient(location=":memory:")


class SlowIndex:
    """Delays each write (upsert, delete, delete_where) by ``delay`` seconds.

    Reads pass straight through, so a slowed server still answers searches at
    once when nothing of their scope is pending.
    """

    def __init__(self, inner: VectorIndex, delay: float) -> None:
        self._inner = inner
        self._delay = delay
        self.supports_hybrid = inner.supports_hybrid

    async def upsert(self, points: Sequence[Point]) -> None:
        await asyncio.sleep(self._delay)
        await self._inner.upsert(points)

    async def delete(self, ids: Sequence[str]) -> None:
        await asyncio.sleep(self._delay)
        await self._inner.delete(ids)

    async def delete_where(self, where: Filter) -> None:
        await asyncio.sleep(self._delay)
        await self._inner.delete_where(where)

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        return await self._inner.search(searches)

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        return await self._inner.retrieve(ids, with_vectors=with_vectors)

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        return await self._inner.scroll_newest_first(where, limit, after)

    async def count(self, where: Filter) -> int:
        return await self._inner.count(where)

    async def close(self) -> None:
        await self._inner.close()
