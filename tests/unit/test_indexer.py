"""The indexer keeps flowing when one write cannot be embedded: retried, then failed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from memoryd.core.applier import Applier
from memoryd.core.errors import EmbeddingError, WriteFailed
from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.memories import Memories
from memoryd.core.model import NewMemory, Scope, WriteMode, WriteState
from memoryd.core.ports import IndexSpec, Point, Vector
from memoryd.core.validation import Limits
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.embed.tokens import WordPieceTokenCounter
from memoryd.store.edge import EdgeIndex
from memoryd.store.sqlite_journal import SqliteJournal as Journal

from support.hooks import SlowIndex


class PoisonInjectingEmbedder:
    """The real model, except that any batch with 'poison' in it fails: fault injection."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        self._inner = inner
        self.calls_with_poison = 0

    model_id = property(lambda self: self._inner.model_id)
    dimension = property(lambda self: self._inner.dimension)

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        if any("poison" in t for t in texts):
            self.calls_with_poison += 1
            raise EmbeddingError("injected failure")
        return await self._inner.embed(texts)

    async def close(self) -> None:
        await self._inner.close()


@pytest.fixture(scope="module")
def model():
    embedder = OnnxMiniLMEmbedder()
    yield embedder
    asyncio.run(embedder.close())


def test_a_write_that_keeps_failing_is_marked_failed_and_later_writes_apply(tmp_path: Path, model):
    async def run() -> None:
        embedder = PoisonInjectingEmbedder(model)
        index = EdgeIndex.open(tmp_path / "index", IndexSpec(embedder.model_id, embedder.dimension))
        journal = Journal.open(tmp_path / "journal.sqlite3")
        applier = Applier(index, limits=Limits(), dedup_threshold=0.95)
        indexer = Indexer(journal, applier, embedder, IndexerSettings(max_attempts=3))
        memories = Memories(
            index, embedder, journal, indexer, applier, tokens=WordPieceTokenCounter()
        )
        await memories.start()
        scope = Scope(user_id="u")
        try:
            bad = await memories.writes.create(
                [NewMemory("this is poison", scope)], WriteMode.ASYNC
            )
            good = await memories.writes.create([NewMemory("this is fine", scope)], WriteMode.SYNC)
            assert good.result[0].memory.content == "this is fine"
            status = await memories.writes.write_status(bad.token)
            assert status.state is WriteState.FAILED
            assert isinstance(status.error, WriteFailed)
            assert "3 attempts" in str(status.error)
            # one failed batch prefetch, then three attempts of its own
            assert embedder.calls_with_poison == 4
            with pytest.raises(WriteFailed):
                await memories.writes.create([NewMemory("more poison", scope)], WriteMode.SYNC)
        finally:
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())


class WriteHeldIndex(SlowIndex):
    """The real index, whose upserts wait for ``released``; ``writing`` is set once one waits."""

    def __init__(self, inner: EdgeIndex) -> None:
        super().__init__(inner, delay=0)
        self.writing = asyncio.Event()
        self.released = asyncio.Event()

    async def upsert(self, points: Sequence[Point]) -> None:
        self.writing.set()
        await self.released.wait()
        await super().upsert(points)


def test_stop_during_an_engine_write_ends_the_indexer_and_keeps_the_write(tmp_path: Path, model):
    async def run() -> None:
        spec = IndexSpec(model.model_id, model.dimension)
        index = WriteHeldIndex(EdgeIndex.open(tmp_path / "index", spec))
        journal = Journal.open(tmp_path / "journal.sqlite3")
        applier = Applier(index, limits=Limits(), dedup_threshold=0.95)
        indexer = Indexer(journal, applier, model)
        memories = Memories(index, model, journal, indexer, applier, tokens=WordPieceTokenCounter())
        await memories.start()
        stopping: asyncio.Future[None] | None = None
        try:
            await memories.writes.create(
                [NewMemory("held in the engine", Scope("u"))], WriteMode.ASYNC
            )
            async with asyncio.timeout(60):
                await index.writing.wait()
            stopping = asyncio.ensure_future(indexer.stop())
            # The bound only turns a hang into a failure: a retry loop that
            # swallowed the cancellation would wait in the engine again.
            done, _ = await asyncio.wait({stopping}, timeout=30)
            assert stopping in done, "the indexer outlived its cancellation"
            assert [e.kind for e in await journal.pending(after=0, limit=10)] == ["create"]
        finally:
            index.released.set()
            if stopping is not None and not stopping.done():
                # Let a surviving indexer apply the write and go idle, where a
                # cancellation does land, so the failure is reported, not hung.
                await indexer.wait_done(indexer.last_seq, 30)
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())
