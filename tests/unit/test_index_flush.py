"""The indexer flushes the embedded index to disk a while after it applies writes.

Qdrant Edge syncs its log and segments to disk only when flushed: until then an
applied write survives kill -9 but not a power loss, and the engine's log (which
a restart after a crash replays) keeps growing. The index here is the real
EdgeIndex, its calls recorded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.memories import Memories
from memoryd.core.model import NewMemory, Scope, WriteMode, WriteOutcome
from memoryd.core.ports import Point
from memoryd.store.edge import EdgeIndex
from memoryd.store.sqlite_journal import SqliteJournal as Journal

from support.core_stack import core_memories, open_edge_index
from support.hooks import SlowIndex


class CallRecordingIndex(SlowIndex):
    """The real EdgeIndex (no delay); records its upserts and flushes in order.
    ``failing_flushes`` of the first flushes raise, as a full disk would."""

    def __init__(self, inner: EdgeIndex, *, failing_flushes: int = 0) -> None:
        super().__init__(inner, delay=0)
        self.calls: list[str] = []
        self.flushed = asyncio.Event()
        self._failing_flushes = failing_flushes

    async def upsert(self, points: Sequence[Point]) -> None:
        self.calls.append("upsert")
        await super().upsert(points)

    async def flush(self) -> None:
        if self._failing_flushes:
            self._failing_flushes -= 1
            self.calls.append("flush failed")
            raise OSError(28, "No space left on device")
        self.calls.append("flush")
        await super().flush()
        self.flushed.set()


class CheckpointRecordingJournal:
    """The real journal; puts each index checkpoint it records in ``recorded``."""

    def __init__(self, journal: Journal) -> None:
        self._journal = journal
        self.recorded: asyncio.Queue[int] = asyncio.Queue()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)

    async def set_index_checkpoint(self, change_seq: int) -> None:
        await self._journal.set_index_checkpoint(change_seq)
        self.recorded.put_nowait(change_seq)


def _recording_into(
    journals: list[CheckpointRecordingJournal],
) -> Callable[[Journal], CheckpointRecordingJournal]:
    def wrap(journal: Journal) -> CheckpointRecordingJournal:
        journals.append(CheckpointRecordingJournal(journal))
        return journals[-1]

    return wrap


def _run(
    tmp_path: Path, model, settings: IndexerSettings, index_calls, scenario, journal_calls=None
) -> None:
    async def run() -> None:
        index = index_calls(open_edge_index(tmp_path, model))
        journal = Journal.open(tmp_path / "journal.sqlite3")
        log = journal_calls(journal) if journal_calls else journal
        indexer, memories = core_memories(index, log, model, settings)
        await memories.start()
        try:
            await scenario(memories, indexer, index)
        finally:
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())


async def _create(memories: Memories, text: str) -> None:
    await memories.writes.create([NewMemory(text, Scope("u"))], WriteMode.SYNC)


def test_each_applied_write_is_flushed_after_it_is_in_the_index_and_none_while_idle(
    tmp_path: Path, model
):
    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        await _create(memories, "the user's timezone is Europe/Berlin")
        async with asyncio.timeout(30):  # bounds a hang; the flush follows the write at once
            await index.flushed.wait()
        assert index.calls == ["upsert", "flush"]
        index.flushed.clear()
        await _create(memories, "the user prefers answers in German")
        async with asyncio.timeout(30):
            await index.flushed.wait()
        # Flushed once per write, not again while nothing changed in between.
        assert index.calls == ["upsert", "flush", "upsert", "flush"]

    _run(tmp_path, model, IndexerSettings(flush_interval_seconds=0), CallRecordingIndex, scenario)


def test_a_write_that_changes_nothing_in_the_index_makes_no_flush(tmp_path: Path, model):
    """A skipped near-duplicate leaves the index as it was: a flush for it would
    stall every call for nothing (at 1M memories written, for up to 110 ms)."""

    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        await _create(memories, "the user's timezone is Europe/Berlin")
        async with asyncio.timeout(30):
            await index.flushed.wait()
        index.flushed.clear()
        again = NewMemory("the user's timezone is Europe/Berlin", Scope("u"))
        skipped = await memories.writes.create([again], WriteMode.SYNC)
        assert skipped.result[0].outcome == WriteOutcome.SKIPPED_DUPLICATE
        await _create(memories, "the user prefers tea to coffee")
        async with asyncio.timeout(30):
            await index.flushed.wait()
        # The indexer decides about a flush after each write, before it takes the
        # next: none came between the skipped write and the next create.
        assert index.calls == ["upsert", "flush", "upsert", "flush"]

    _run(tmp_path, model, IndexerSettings(flush_interval_seconds=0), CallRecordingIndex, scenario)


def test_writes_wait_for_the_interval_before_a_flush(tmp_path: Path, model):
    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        for text in ("the user's timezone is Europe/Berlin", "the user prefers tea to coffee"):
            await _create(memories, text)
        assert await indexer.wait_done(indexer.last_seq, 30)
        assert index.calls == ["upsert", "upsert"]  # an hour is not up: no flush per write

    _run(
        tmp_path, model, IndexerSettings(flush_interval_seconds=3600), CallRecordingIndex, scenario
    )


def test_a_failed_flush_is_tried_again_and_writes_go_on(tmp_path: Path, model):
    journals: list[CheckpointRecordingJournal] = []

    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        await _create(memories, "the user's timezone is Europe/Berlin")
        async with asyncio.timeout(30):
            checkpoint = await journals[0].recorded.get()
        assert index.calls == ["upsert", "flush failed", "flush"]
        # The flush that succeeded recorded the write's change.
        assert [c.seq for c in await journals[0].changes_after(0, 10)] == [checkpoint]
        await _create(memories, "the user prefers tea to coffee")
        assert index.calls[3] == "upsert"

    _run(
        tmp_path,
        model,
        IndexerSettings(flush_interval_seconds=0),
        lambda inner: CallRecordingIndex(inner, failing_flushes=1),
        scenario,
        _recording_into(journals),
    )


def test_each_flush_records_the_last_change_the_index_then_holds(tmp_path: Path, model):
    """A start after a power loss puts back only the changes after it
    (core/index_redo.py), and the journal purges only the changes up to it."""
    journals: list[CheckpointRecordingJournal] = []

    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        journal = journals[0]
        for text in ("the user's timezone is Europe/Berlin", "the user prefers tea to coffee"):
            await _create(memories, text)
            async with asyncio.timeout(30):
                checkpoint = await journal.recorded.get()
            changes = await journal.changes_after(0, 10)
            assert checkpoint == changes[-1].seq == await journal.index_checkpoint()
            assert changes[-1].memory.content == text
        assert journal.recorded.empty() and index.calls.count("flush") == 2

    _run(
        tmp_path,
        model,
        IndexerSettings(flush_interval_seconds=0),
        CallRecordingIndex,
        scenario,
        _recording_into(journals),
    )


def test_enough_unflushed_changes_are_flushed_before_the_interval_is_up(tmp_path: Path, model):
    """A stream of writes (an import, say) is flushed every flush_max_changes
    changes: a flush's stall grows with what it syncs, and the engine's log too."""
    journals: list[CheckpointRecordingJournal] = []
    texts = [
        "the user's timezone is Europe/Berlin",
        "the user prefers tea to coffee",
        "the user's dog is called Rex",
        "the user is learning the cello",
        "the user's flight to Lisbon leaves on Friday",
        "the user is allergic to peanuts",
    ]

    async def scenario(memories: Memories, indexer: Indexer, index: CallRecordingIndex) -> None:
        journal = journals[0]
        for flushes, first in enumerate((0, 3), start=1):
            for text in texts[first : first + 3]:
                await _create(memories, text)
            async with asyncio.timeout(30):  # the hour is not up; the third change is due
                checkpoint = await journal.recorded.get()
            # None after the first two changes, one after the third; the count starts again.
            assert index.calls == ["upsert", "upsert", "upsert", "flush"] * flushes
            changes = await journal.changes_after(0, 10)
            assert checkpoint == changes[-1].seq
            assert changes[-1].memory.content == texts[first + 2]

    _run(
        tmp_path,
        model,
        IndexerSettings(flush_interval_seconds=3600, flush_max_changes=3),
        CallRecordingIndex,
        scenario,
        _recording_into(journals),
    )
