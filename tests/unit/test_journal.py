"""core.journal: durable appends, request ids, group commit and purging."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from memoryd.core.changes import Change, ChangeType
from memoryd.core.model import NewMemory, Scope, WriteState, as_memory
from memoryd.core.write_log import Append
from memoryd.store.sqlite_journal import SqliteJournal as Journal

APPLIED, PENDING = WriteState.APPLIED, WriteState.PENDING


def test_appends_survive_reopening_and_keep_order(tmp_path: Path):
    async def run() -> None:
        journal = Journal.open(tmp_path / "j.sqlite3")
        first = await journal.append(Append("create", {"n": 1}))
        second = await journal.append(Append("delete", {"n": 2}))
        journal_id = journal.journal_id
        await journal.close()

        reopened = Journal.open(tmp_path / "j.sqlite3")
        assert reopened.journal_id == journal_id
        pending = await reopened.pending(after=0, limit=10)
        assert [(e.seq, e.kind, e.operation, e.state) for e in pending] == [
            (first.seq, "create", {"n": 1}, PENDING),
            (second.seq, "delete", {"n": 2}, PENDING),
        ]
        await reopened.close()

    asyncio.run(run())


def test_concurrent_appends_share_commits_and_get_distinct_seqs(tmp_path: Path):
    async def run() -> None:
        journal = Journal.open(tmp_path / "j.sqlite3")
        results = await asyncio.gather(
            *(journal.append(Append("create", {"i": i})) for i in range(200))
        )
        assert sorted(r.seq for r in results) == list(range(1, 201))
        assert await journal.last_seq() == 200
        await journal.close()

    asyncio.run(run())


def test_request_id_finds_the_first_entry(tmp_path: Path):
    async def run() -> None:
        journal = Journal.open(tmp_path / "j.sqlite3")
        first = await journal.append(Append("create", {"a": 1}, "req-1", "fp"))
        retry = await journal.append(Append("create", {"a": 1}, "req-1", "fp"))
        assert (retry.seq, retry.is_retry, first.is_retry) == (first.seq, True, False)
        assert len(await journal.pending(after=0, limit=10)) == 1
        await journal.close()

    asyncio.run(run())


class FakeClock:
    """Wall-clock seconds that move only when a test says so."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_finished_write_is_remembered_for_the_retention_counted_from_when_it_finished(
    tmp_path: Path,
):
    async def run() -> None:
        clock = FakeClock(1_000.0)
        journal = Journal.open(tmp_path / "j.sqlite3", retention_seconds=50, clock=clock)
        first = await journal.append(Append("create", {}, "req", "fp"))
        assert first.create_time == 1_000.0
        clock.now = 1_100.0  # the write waited in the queue for longer than the retention
        await journal.finish(first.seq, APPLIED, {"created": []})

        clock.now = 1_149.0
        entry = await journal.get(first.seq)
        assert entry is not None and not journal.is_forgotten(entry)
        assert entry.create_time == 1_000.0 and entry.apply_time == 1_100.0
        retry = await journal.append(Append("create", {}, "req", "fp"))
        assert retry.is_retry and retry.seq == first.seq and retry.create_time == 1_000.0

        clock.now = 1_150.0
        assert journal.is_forgotten(entry)
        # Forgotten before any purge: the request id names no write any more.
        again = await journal.append(Append("create", {}, "req", "fp"))
        assert not again.is_retry and again.seq != first.seq
        await journal.close()

    asyncio.run(run())


def test_purge_drops_forgotten_entries_and_their_request_ids_only(tmp_path: Path):
    async def run() -> None:
        clock = FakeClock(1_000.0)
        journal = Journal.open(tmp_path / "j.sqlite3", retention_seconds=50, clock=clock)
        done = await journal.append(Append("create", {}, "req-done", "fp"))
        waiting = await journal.append(Append("create", {}, "req-waiting", "fp"))
        recent = await journal.append(Append("create", {}, "req-recent", "fp"))
        await journal.finish(done.seq, APPLIED, {"created": []})
        clock.now = 1_040.0
        await journal.finish(recent.seq, APPLIED, {"created": []})

        clock.now = 1_060.0
        assert await journal.purge_forgotten() == 1
        assert await journal.get(done.seq) is None
        assert await journal.get(waiting.seq) is not None  # pending, however old
        assert await journal.get(recent.seq) is not None
        assert not (await journal.append(Append("create", {}, "req-done", "fp"))).is_retry
        assert (await journal.append(Append("create", {}, "req-waiting", "fp"))).is_retry
        assert (await journal.append(Append("create", {}, "req-recent", "fp"))).is_retry
        await journal.close()

    asyncio.run(run())


def test_purge_finds_what_it_deletes_through_indexes_without_reading_kept_rows(tmp_path: Path):
    """A journal's rows can be megabytes (an import message with its vectors), so a
    purge that scanned them would read the whole journal on every start and every
    purge interval: 4.6 s with a cold cache at 1M imported memories."""

    async def run() -> None:
        clock = FakeClock(1_000.0)
        journal = Journal.open(tmp_path / "j.sqlite3", retention_seconds=50, clock=clock)
        kept = await journal.append(Append("import", {"vectors": "x" * 100_000}, "req", "fp"))
        await journal.finish(kept.seq, APPLIED, {"created": []})
        statements: list[str] = []
        journal._db.set_trace_callback(statements.append)
        await journal.purge_forgotten()
        journal._db.set_trace_callback(None)

        purges = [s for s in statements if s.lstrip().upper().startswith("DELETE")]
        assert len(purges) == 3, statements  # entries, their request ids, changes
        for statement in purges:
            plan = journal._db.execute(f"EXPLAIN QUERY PLAN {statement}").fetchall()
            steps = [str(row[-1]) for row in plan]
            assert not any(step.startswith("SCAN") for step in steps), (statement, steps)
        assert await journal.get(kept.seq) is not None
        await journal.close()

    asyncio.run(run())


async def _applied_with_a_change(journal: Journal, text: str) -> int:
    """Journals and finishes a write that created one memory; its change's seq."""
    appended = await journal.append(Append("create", {}))
    memory = as_memory(NewMemory(text, Scope("u")), datetime.now(UTC), version=1)
    change = Change(ChangeType.CREATED, memory, memory.create_time, appended.seq)
    (numbered,) = await journal.finish(appended.seq, APPLIED, {"created": []}, [change])
    return numbered.seq


def test_changes_after_the_index_checkpoint_outlive_their_retention(tmp_path: Path):
    """A start after a power loss puts back from them what the index lost (core/index_redo.py)."""

    async def run() -> None:
        clock = FakeClock(1_000.0)
        journal = Journal.open(tmp_path / "j.sqlite3", retention_seconds=50, clock=clock)
        assert await journal.index_checkpoint() == 0
        flushed = await _applied_with_a_change(journal, "on disk in the index")
        unflushed = await _applied_with_a_change(journal, "in the index's memory only")
        await journal.set_index_checkpoint(flushed)

        clock.now = 2_000.0  # both past their retention
        await journal.purge_forgotten()
        assert [c.seq for c in await journal.changes_after(0, 10)] == [unflushed]
        await journal.set_index_checkpoint(unflushed)
        await journal.purge_forgotten()
        assert await journal.changes_after(0, 10) == []
        await journal.close()
        reopened = Journal.open(tmp_path / "j.sqlite3")
        assert await reopened.index_checkpoint() == unflushed
        await reopened.close()

    asyncio.run(run())


def test_a_journal_from_before_index_checkpoints_starts_at_its_last_change(tmp_path: Path):
    """Its server flushed the index at a clean stop, and kill -9 loses nothing
    from it: no change of it needs putting back, and none is read at start."""

    async def run() -> None:
        journal = Journal.open(tmp_path / "j.sqlite3")
        await _applied_with_a_change(journal, "first")
        last = await _applied_with_a_change(journal, "second")
        await journal.close()
        with sqlite3.connect(tmp_path / "j.sqlite3") as db:
            db.execute("DELETE FROM meta WHERE key = 'index_checkpoint'")
        db.close()

        reopened = Journal.open(tmp_path / "j.sqlite3")
        assert await reopened.index_checkpoint() == last
        await reopened.close()

    asyncio.run(run())
