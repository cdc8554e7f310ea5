"""core.journal: durable appends, request ids, group commit and purging."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from memoryd.core.journal import APPLIED, PENDING, Append, Journal


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


def test_purge_drops_old_finished_entries_and_request_ids_only(tmp_path: Path):
    async def run() -> None:
        journal = Journal.open(tmp_path / "j.sqlite3")
        done = await journal.append(Append("create", {}, "req-done", "fp"))
        waiting = await journal.append(Append("create", {}, "req-waiting", "fp"))
        await journal.finish(done.seq, APPLIED, {"created": []})
        purged = await journal.forget_requests_before(time.time() + 1)
        assert purged == 1
        assert await journal.get(done.seq) is None
        assert (await journal.get(waiting.seq)) is not None
        again = await journal.append(Append("create", {}, "req-done", "fp"))
        assert not again.is_retry
        await journal.close()

    asyncio.run(run())
