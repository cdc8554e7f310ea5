"""The write log in SQLite: core/write_log.py's port, durable on every acknowledgement.

WAL mode with synchronous=FULL: a write is acknowledged only after its commit
is on disk, so neither kill -9 nor power loss loses the journaled write.
Concurrent appends share one commit (group commit). All SQLite work runs on
one thread, off the event loop. The change history (store/sqlite_changes.py),
and the index checkpoint in it, live in the same database.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from memoryd.core.changes import Change
from memoryd.core.model import OperationKind, WriteState
from memoryd.core.write_log import (
    DEFAULT_RETENTION_SECONDS,
    Append,
    Appended,
    ChangeBounds,
    Entry,
)
from memoryd.store import sqlite_changes, sqlite_journal_schema


class SqliteJournal:
    """The durable journal in ``path`` (a SQLite file); open with SqliteJournal.open().

    ``retention_seconds`` is how long a finished entry and its request id are
    remembered after it finished; ``clock`` gives the time (epoch seconds).
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        journal_id: str,
        *,
        retention_seconds: float = DEFAULT_RETENTION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._db = connection
        self.journal_id = journal_id
        self._retention_seconds = retention_seconds
        self._clock = clock
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal")
        self._waiting: list[tuple[Append, asyncio.Future[Appended]]] = []
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        retention_seconds: float = DEFAULT_RETENTION_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> SqliteJournal:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(sqlite_journal_schema.SCHEMA + sqlite_changes.SCHEMA)
        sqlite_changes.start_checkpoint(db)
        columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
        if "trace_context" not in columns:  # journals written before tracing
            db.execute("ALTER TABLE entries ADD COLUMN trace_context TEXT")
        row = db.execute("SELECT value FROM meta WHERE key = 'journal_id'").fetchone()
        if row is None:
            journal_id = uuid.uuid4().hex[:12]
            db.execute("INSERT INTO meta VALUES ('journal_id', ?)", (journal_id,))
        else:
            journal_id = row[0]
        return cls(db, journal_id, retention_seconds=retention_seconds, clock=clock)

    async def _run[T](self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def append(self, write: Append) -> Appended:
        """Journals a write durably; returns once its commit is on disk."""
        future: asyncio.Future[Appended] = asyncio.get_running_loop().create_future()
        self._waiting.append((write, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_waiting())
        return await future

    async def _commit_waiting(self) -> None:
        # Appends that arrive while a commit runs go together in the next one.
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await self._run(self._insert, [write for write, _ in batch])
            except Exception as exc:  # every caller of the failed commit gets the error
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)

    def _insert(self, writes: Sequence[Append]) -> list[Appended]:
        # One time for the whole commit: its entries became durable together.
        now = self._clock()
        results = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for write in writes:
                if write.request_id:
                    row = self._db.execute(
                        "SELECT seq, fingerprint FROM requests WHERE request_id = ?",
                        (write.request_id,),
                    ).fetchone()
                    if row is not None:
                        first = self._entry_at(row[0])
                        if first is not None and not self.is_forgotten(first):
                            results.append(Appended(row[0], True, row[1], first.create_time, first))
                            continue
                        # Past its retention the request id names no write: a new request.
                        self._db.execute(
                            "DELETE FROM requests WHERE request_id = ?", (write.request_id,)
                        )
                kind, state = OperationKind(write.kind).value, WriteState.PENDING.value
                operation = json.dumps(write.operation)
                trace = json.dumps(write.trace_context) if write.trace_context else None
                cursor = self._db.execute(
                    "INSERT INTO entries (kind, operation, state, create_time, trace_context) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (kind, operation, state, now, trace),
                )
                seq = int(cursor.lastrowid or 0)
                if write.request_id:
                    self._db.execute(
                        "INSERT INTO requests VALUES (?, ?, ?, ?)",
                        (write.request_id, write.fingerprint, seq, now),
                    )
                # Decoded from the stored row: exactly the entry pending() would read.
                entry = _entry((seq, kind, operation, state, None, now, None, trace))
                results.append(Appended(seq, False, write.fingerprint, now, entry=entry))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return results

    async def pending(self, after: int, limit: int) -> list[Entry]:
        """Pending entries with seq > ``after``, oldest first."""
        rows = await self._run(
            lambda: self._db.execute(
                "SELECT * FROM entries WHERE state = ? AND seq > ? ORDER BY seq LIMIT ?",
                (WriteState.PENDING.value, after, limit),
            ).fetchall()
        )
        return [_entry(row) for row in rows]

    async def get(self, seq: int) -> Entry | None:
        """The entry ``seq``, if it is still in the journal (forgotten or not)."""
        return await self._run(self._entry_at, seq)

    def _entry_at(self, seq: int) -> Entry | None:
        row = self._db.execute("SELECT * FROM entries WHERE seq = ?", (seq,)).fetchone()
        return _entry(row) if row else None

    def is_forgotten(self, entry: Entry) -> bool:
        """Whether a finished entry is past its retention, counted from when it finished."""
        return (
            entry.state is not WriteState.PENDING
            and entry.apply_time is not None
            and entry.apply_time <= self._clock() - self._retention_seconds
        )

    async def record_outcome(self, seq: int, outcome: dict[str, Any]) -> None:
        """Stores an entry's outcome before its effect, keeping it pending."""
        await self._run(self._update, seq, WriteState.PENDING, outcome, False)

    async def finish(
        self,
        seq: int,
        state: WriteState,
        outcome: dict[str, Any],
        changes: Sequence[Change] = (),
        kept_operation: dict[str, Any] | None = None,
    ) -> list[Change]:
        """Marks an entry applied or failed, durably, with its outcome, and
        records its changes in the same transaction; returns them numbered.
        ``kept_operation`` replaces the entry's operation in that transaction."""
        return await self._run(self._finish, seq, state, outcome, changes, kept_operation)

    def _finish(
        self,
        seq: int,
        state: WriteState,
        outcome: dict[str, Any],
        changes: Sequence[Change],
        kept_operation: dict[str, Any] | None,
    ) -> list[Change]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._update(seq, state, outcome, True, kept_operation)
            numbered = sqlite_changes.insert(self._db, changes, self._clock())
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return numbered

    def _update(
        self,
        seq: int,
        state: WriteState,
        outcome: dict[str, Any],
        done: bool,
        operation: dict[str, Any] | None = None,
    ) -> None:
        # One statement: SQLite rewrites the whole row on any update, and an
        # import's row is over a megabyte; a second UPDATE would write it twice.
        applied_at = self._clock() if done else None
        kept = None if operation is None else json.dumps(operation)
        self._db.execute(
            "UPDATE entries SET state = ?, outcome = ?, apply_time = ?, "
            "operation = COALESCE(?, operation) WHERE seq = ?",
            (state.value, json.dumps(outcome), applied_at, kept, seq),
        )

    async def changes_after(self, after: int, limit: int) -> list[Change]:
        """The kept changes with seq > ``after``, oldest first."""
        return await self._run(sqlite_changes.after, self._db, after, limit)

    async def change_bounds(self) -> ChangeBounds:
        return await self._run(sqlite_changes.bounds, self._db)

    async def last_seq(self) -> int:
        """The highest seq ever journaled, also once its entry is purged.

        Kept write tokens name seqs: if this went back on a purge, they would
        look like tokens from the future. AUTOINCREMENT keeps it in sqlite_sequence.
        """

        def highest() -> int:
            row = self._db.execute(
                "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'entries'), 0),"
                " COALESCE((SELECT MAX(seq) FROM entries), 0))"
            ).fetchone()
            return int(row[0] or 0)

        return await self._run(highest)

    async def purge_forgotten(self) -> int:
        """Deletes the entries that finished longer ago than the retention, their
        request ids and changes (core/write_log.py); pending entries stay."""

        def purge() -> int:
            cutoff = self._clock() - self._retention_seconds
            forgotten = "SELECT seq FROM entries WHERE state != ? AND apply_time <= ?"
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                f"DELETE FROM requests WHERE seq IN ({forgotten})",
                (WriteState.PENDING.value, cutoff),
            )
            cursor = self._db.execute(
                "DELETE FROM entries WHERE state != ? AND apply_time <= ?",
                (WriteState.PENDING.value, cutoff),
            )
            sqlite_changes.purge(self._db, cutoff)
            self._db.execute("COMMIT")
            return cursor.rowcount

        return await self._run(purge)

    async def index_checkpoint(self) -> int:
        return await self._run(sqlite_changes.checkpoint, self._db)

    async def set_index_checkpoint(self, change_seq: int) -> None:
        await self._run(sqlite_changes.set_checkpoint, self._db, change_seq)

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.gather(self._committer, return_exceptions=True)
        await self._run(self._db.close)
        self._executor.shutdown(wait=True)


def _entry(row: Any) -> Entry:
    seq, kind, operation, state, outcome, create_time, apply_time, trace_context = row
    return Entry(
        seq=seq,
        kind=OperationKind(kind),
        operation=json.loads(operation),
        state=WriteState(state),
        outcome=json.loads(outcome) if outcome else None,
        create_time=create_time,
        apply_time=apply_time,
        trace_context=json.loads(trace_context) if trace_context else {},
    )
