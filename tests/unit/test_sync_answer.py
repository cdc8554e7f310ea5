"""A SYNC write is answered once it is in the index, before its outcome's commit to the log."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.memories import Memories
from memoryd.core.model import ListQuery, NewMemory, Scope, Selection, WriteMode, WriteState
from memoryd.store.edge import EdgeIndex
from memoryd.store.sqlite_journal import SqliteJournal

from support.core_stack import core_memories, open_edge_index


class FinishHoldingJournal(SqliteJournal):
    """The real journal, holding each finish (the commit of a write's outcome)
    until ``release`` is set: a finish cancelled meanwhile never commits, as
    when the process dies first."""

    release: asyncio.Event

    async def finish(self, *args: Any, **kwargs: Any) -> Any:
        await self.release.wait()
        return await super().finish(*args, **kwargs)


def test_a_sync_create_is_answered_before_its_outcome_commits_and_replays_to_the_same_memory(
    tmp_path: Path, model
):
    """The answer and a read after it wait for the index only. A stop before the
    outcome's commit (as a crash) leaves the write pending in the log: the next
    start applies it again, to the same memory, stored once, with the outcome
    the writer was given."""
    scope = Scope(user_id="u")

    def open_memories() -> tuple[EdgeIndex, FinishHoldingJournal, Indexer, Memories]:
        index = open_edge_index(tmp_path, model)
        journal = FinishHoldingJournal.open(tmp_path / "journal.sqlite3")
        journal.release = asyncio.Event()
        indexer, memories = core_memories(index, journal, model, IndexerSettings())
        return index, journal, indexer, memories

    async def run() -> None:
        index, journal, indexer, memories = open_memories()
        await memories.start()
        try:
            async with asyncio.timeout(30):  # without the early answer: held for good
                receipt = await memories.writes.create(
                    [NewMemory("the user's cat is called Miso", scope)], WriteMode.SYNC
                )
            created = receipt.result[0]
            assert created.outcome.value == "created"
            assert indexer.applied_seq == 1 and indexer.done_seq == 0  # its commit is held
            assert indexer.backlog == 0
            assert memories.barrier.is_current(scope, receipt.token)
            async with asyncio.timeout(30):
                read = await memories.reads.get(created.memory.id, scope, receipt.token)
            assert read == created.memory
        finally:
            await memories.stop(0)  # cancels the held commit: the log keeps the write pending
            await journal.close()
            await index.close()

        index, journal, indexer, memories = open_memories()
        journal.release.set()
        await memories.start()
        try:
            assert await indexer.drain(60)
            status = await memories.writes.write_status(receipt.token)
            assert status.state is WriteState.APPLIED
            (replayed,) = status.outcome
            assert replayed.outcome == created.outcome and replayed.memory == created.memory
            page = await memories.reads.list(ListQuery(Selection(scope), page_size=10))
            assert page.memories == (created.memory,)
        finally:
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())
