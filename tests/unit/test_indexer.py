"""The indexer keeps flowing when one write cannot be embedded: retried, then failed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from memoryd.core.apply_entry import CREATE_CHUNK
from memoryd.core.errors import EmbeddingError, WriteFailed
from memoryd.core.indexer import IndexerSettings
from memoryd.core.memories import Memories
from memoryd.core.model import NewMemory, Scope, WriteMode, WriteState
from memoryd.core.ports import Point, Vector
from memoryd.core.write_log import Append, Appended
from memoryd.embed.cache import CachedEmbedder
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.edge import EdgeIndex
from memoryd.store.sqlite_journal import SqliteJournal as Journal

from support.core_stack import core_memories, open_edge_index
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


def test_a_write_that_keeps_failing_is_marked_failed_and_later_writes_apply(tmp_path: Path, model):
    async def run() -> None:
        embedder = PoisonInjectingEmbedder(model)
        index = open_edge_index(tmp_path, embedder)
        journal = Journal.open(tmp_path / "journal.sqlite3")
        _, memories = core_memories(index, journal, embedder, IndexerSettings(max_attempts=3))
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
        index = WriteHeldIndex(open_edge_index(tmp_path, model))
        journal = Journal.open(tmp_path / "journal.sqlite3")
        indexer, memories = core_memories(index, journal, model)
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


class TextCountingEmbedder(PoisonInjectingEmbedder):
    """The real model, counting how often it embeds each text."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        super().__init__(inner)
        self.embedded: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        self.embedded.extend(texts)
        return await super().embed(texts)


def _memories(tmp_path: Path, embedder, settings: IndexerSettings) -> Memories:
    index = open_edge_index(tmp_path, embedder)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    return core_memories(index, journal, embedder, settings)[1]


def test_a_batch_larger_than_a_chunk_applies_in_order_and_dedups_across_chunks(
    tmp_path: Path, model
):
    """A create applies chunk by chunk while the next chunk embeds, with the outcomes
    of the same creates sent one at a time: item 70 still sees item 3 as its
    near-duplicate, and every result keeps its position."""
    texts = [f"the user keeps note number {i} about the {i}th garden bed" for i in range(80)]
    texts[70] = texts[3]
    counting = TextCountingEmbedder(model)

    async def run() -> None:
        memories = _memories(tmp_path, counting, IndexerSettings())
        await memories.start()
        try:
            batched = await memories.writes.create(
                [NewMemory(t, Scope("batch")) for t in texts], WriteMode.SYNC, is_batch=True
            )
            results = batched.result
            one_by_one = [
                (await memories.writes.create([NewMemory(t, Scope("single"))], WriteMode.SYNC))
                .result[0]
                .outcome
                for t in texts
            ]
            assert [r.outcome for r in results] == one_by_one
            created = [i for i, r in enumerate(results) if r.outcome.value == "created"]
            assert [results[i].memory.content for i in created] == [texts[i] for i in created]
            assert results[70].outcome.value == "skipped_duplicate"
            assert results[70].memory.id == results[3].memory.id
            assert [r.memory.create_time for r in results] == [results[0].memory.create_time] * 80
        finally:
            await memories.stop(0)

    asyncio.run(run())


class StartRecordingEmbedder(PoisonInjectingEmbedder):
    """The real model, logging ("embed", first text) as each call starts."""

    def __init__(self, inner: OnnxMiniLMEmbedder, log: list[tuple[str, str]]) -> None:
        super().__init__(inner)
        self.log = log

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        self.log.append(("embed", texts[0]))
        return await super().embed(texts)


class UpsertRecordingIndex(SlowIndex):
    """The real index, logging ("upsert", text) per upsert; unlike SlowIndex's,
    its upserts never suspend, as the engine's own do not."""

    def __init__(self, inner: EdgeIndex, log: list[tuple[str, str]]) -> None:
        super().__init__(inner, delay=0)
        self.log = log

    async def upsert(self, points: Sequence[Point]) -> None:
        self.log.append(("upsert", points[0].text))
        await self._inner.upsert(points)


def test_a_batch_embeds_its_next_chunk_while_it_applies_the_one_before(tmp_path: Path, model):
    """The model and the index calls overlap: each chunk's embedding has started
    before the last item of the chunk before it is stored."""
    texts = [f"the user keeps note number {i} about the {i}th garden bed" for i in range(80)]
    log: list[tuple[str, str]] = []
    embedder = StartRecordingEmbedder(model, log)

    async def run() -> None:
        index = UpsertRecordingIndex(open_edge_index(tmp_path, embedder), log)
        journal = Journal.open(tmp_path / "journal.sqlite3")
        # at 0.999 every note is stored
        _, memories = core_memories(index, journal, embedder, dedup_threshold=0.999)
        await memories.start()
        try:
            receipt = await memories.writes.create(
                [NewMemory(t, Scope("batch")) for t in texts], WriteMode.SYNC, is_batch=True
            )
            assert [r.outcome.value for r in receipt.result] == ["created"] * 80
        finally:
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())
    for chunk_start in (CREATE_CHUNK, 2 * CREATE_CHUNK):
        next_embedding = log.index(("embed", texts[chunk_start]))
        last_stored_before = log.index(("upsert", texts[chunk_start - 1]))
        assert next_embedding < last_stored_before, log


def test_a_sync_create_embeds_its_text_once_while_its_journal_commit_runs(tmp_path: Path, model):
    counting = TextCountingEmbedder(model)
    cached = CachedEmbedder(counting)

    async def run() -> None:
        memories = _memories(tmp_path, cached, IndexerSettings(embed_ahead=True))
        await memories.start()
        try:
            scope = Scope(user_id="u")
            receipt = await memories.writes.create(
                [NewMemory("the user's cat is called Miso", scope)], WriteMode.SYNC
            )
            assert receipt.result[0].outcome.value == "created"
            assert counting.embedded == ["the user's cat is called Miso"]
        finally:
            await memories.stop(0)

    asyncio.run(run())


class GatedEmbedder(PoisonInjectingEmbedder):
    """The real model, once ``gate`` opens."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        super().__init__(inner)
        self.gate = asyncio.Event()

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        await self.gate.wait()
        return await super().embed(texts)


class DurabilitySignallingJournal(Journal):
    """The real journal, setting ``durable`` once an append is committed."""

    durable: asyncio.Event

    async def append(self, write: Append) -> Appended:
        appended = await super().append(write)
        self.durable.set()
        return appended


def test_a_sync_create_reaches_the_indexer_once_durable_while_its_text_embeds(
    tmp_path: Path, model
):
    """The read barrier and the indexer take a SYNC create as soon as its journal
    commit is on disk, not once its embedding returns: the indexer joins that
    model call and applies the write right when it ends."""
    gated = GatedEmbedder(model)
    cached = CachedEmbedder(gated)

    async def run() -> None:
        index = open_edge_index(tmp_path, model)
        journal = DurabilitySignallingJournal.open(tmp_path / "journal.sqlite3")
        journal.durable = asyncio.Event()
        indexer, memories = core_memories(index, journal, cached, IndexerSettings(embed_ahead=True))
        await memories.start()
        scope = Scope(user_id="u")
        try:
            create = asyncio.ensure_future(
                memories.writes.create([NewMemory("the user's cat is Miso", scope)], WriteMode.SYNC)
            )
            async with asyncio.timeout(60):
                await journal.durable.wait()
            assert not gated.gate.is_set() and not create.done()
            assert indexer.last_seq == 1 and indexer.backlog == 1
            assert not memories.barrier.is_current(scope, "")  # a read now waits for it
            gated.gate.set()
            receipt = await create
            assert receipt.result[0].outcome.value == "created"
            assert indexer.backlog == 0
        finally:
            gated.gate.set()
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())
