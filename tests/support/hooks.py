"""Test hooks that no production setting offers, plugged into memoryd.server.Seams.

- SlowIndex: every engine write takes longer, so tests can keep writes pending
  (the backlog bound, reads waiting for writes, draining on SIGTERM).
- in_memory_qdrant_standin: the Qdrant server backend's client, on
  qdrant-client's pure-Python in-memory mode.
- FakeGeminiApi: Gemini's embedding HTTP API, for re-embedding to "gemini".
- PageGate: holds a re-embedding at a page boundary until the test lets it go.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Sequence

import httpx2
from qdrant_client import AsyncQdrantClient

from memoryd.core.filters import Filter
from memoryd.core.ports import (
    Hit,
    Point,
    Record,
    ScanPage,
    ScrollCursor,
    ScrollPage,
    Search,
    VectorIndex,
)
from memoryd.core.reembed_status import ReembedStatus


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

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        return await self._inner.scan(where, limit, offset, with_vectors=with_vectors)

    async def count(self, where: Filter) -> int:
        return await self._inner.count(where)

    async def flush(self) -> None:
        await self._inner.flush()

    async def close(self) -> None:
        await self._inner.close()


class FakeGeminiApi(httpx2.AsyncBaseTransport):
    """A fake of Gemini's batchEmbedContents HTTP API (unreachable here): the
    real GeminiEmbedder and google-genai SDK run against it.

    A text's vector is a hashed bag of its lowercase words, of the requested
    dimension (plus a small constant, so that no vector is zero): texts that
    share words are near, so a search finds the memories with the query's
    exact words. Deterministic; ``texts`` counts what it embedded.
    """

    def __init__(self) -> None:
        self.texts = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(await request.aread())
        embeddings = []
        for entry in body["requests"]:
            text = entry["content"]["parts"][0]["text"]
            values = bag_of_words(text, int(entry["outputDimensionality"]))
            embeddings.append({"values": values})
        self.texts += len(embeddings)
        return httpx2.Response(200, json={"embeddings": embeddings})


def bag_of_words(text: str, dimension: int) -> list[float]:
    values = [0.0] * dimension
    values[0] = 0.05
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        values[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dimension] += 1.0
    return values


class PageGate:
    """A re-embedding's after-page seam that holds the job at chosen pages.

    The job waits at page ``hold_at`` (1 is the first page this server runs)
    until ``release()``; ``reached`` is set when it gets there, and
    ``statuses`` has each page's status. No sleeps: the test waits on
    ``reached`` and lets the job go when it is done with the paused state.
    """

    def __init__(self, hold_at: int | None = 1) -> None:
        self.hold_at = hold_at
        self.reached = threading.Event()
        self._released = threading.Event()
        self.statuses: list[ReembedStatus] = []

    async def __call__(self, status: ReembedStatus) -> None:
        self.statuses.append(status)
        if len(self.statuses) == self.hold_at:
            self.reached.set()
            await asyncio.to_thread(self._released.wait)

    def release(self) -> None:
        self._released.set()
