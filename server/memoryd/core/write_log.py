"""The write log port: every acknowledged write, durably, in order, until applied.

Declared here, implemented by store/sqlite_journal.py. Entries move PENDING
-> APPLIED or FAILED; their result (or error) is kept for GetWriteStatus.
Request ids map to the entry they created, for idempotent retries. A finished
entry and its request id are kept for the retention window counted from when
the entry finished, then forgotten: the log reports them as absent at once,
and purges them later. The retention is the log's alone (``retention_seconds``
of the adapter, MEMORYD_REQUEST_ID_RETENTION_SECONDS).

An entry's time (``create_time``) is when it was journaled: the time its write
stores as the memory's create or update time, so that the acknowledgement,
the stored memory and a replay after a restart all carry the same time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from memoryd.core.changes import Change
from memoryd.core.model import OperationKind, WriteState

#: How long a finished write is remembered, by default (MEMORYD_REQUEST_ID_RETENTION_SECONDS).
DEFAULT_RETENTION_SECONDS = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class Entry:
    """One journaled write. ``operation`` and ``outcome`` are JSON documents
    (core/operations.py writes and reads them)."""

    seq: int
    kind: OperationKind
    operation: dict[str, Any]
    state: WriteState
    outcome: dict[str, Any] | None
    create_time: float
    apply_time: float | None
    #: W3C trace context of the request that journaled it, for span links.
    trace_context: dict[str, str]

    @property
    def journaled_at(self) -> datetime:
        """When the write was journaled: the time it stores on the memories it changes."""
        return wall_time(self.create_time)


@dataclass(frozen=True, slots=True)
class Append:
    """A write to journal; with a request_id, a retry finds the first entry."""

    kind: OperationKind
    operation: dict[str, Any]
    request_id: str = ""
    fingerprint: str = ""
    trace_context: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Appended:
    """Where an append landed. ``is_retry`` means the request_id was seen;
    ``first`` is then the entry that request journaled."""

    seq: int
    is_retry: bool
    fingerprint: str
    #: When the entry was journaled (epoch seconds); the first entry's, for a retry.
    create_time: float
    first: Entry | None = None
    #: The new entry, as the log would read it back (None for a retry): handed
    #: to the indexer, which then applies it without a read of the log.
    entry: Entry | None = None

    @property
    def journaled_at(self) -> datetime:
        return wall_time(self.create_time)


@dataclass(frozen=True, slots=True)
class ChangeBounds:
    """The change history the log keeps (core/changes.py)."""

    #: The smallest sequence a watch may resume after: one before the oldest kept change.
    oldest_resumable: int
    #: The last change's sequence; 0 before the first.
    last: int


def wall_time(epoch_seconds: float) -> datetime:
    """A log time (epoch seconds) as a UTC datetime."""
    return datetime.fromtimestamp(epoch_seconds, UTC)


class WriteLog(Protocol):
    """The durable, ordered log of acknowledged writes."""

    #: Identifies this log, and so the write tokens it backs.
    journal_id: str

    async def append(self, write: Append) -> Appended:
        """Journals a write durably; returns once it is on disk."""
        ...

    async def pending(self, after: int, limit: int) -> list[Entry]:
        """Pending entries with seq > ``after``, oldest first."""
        ...

    async def get(self, seq: int) -> Entry | None:
        """The entry ``seq``, if it is still in the log (forgotten or not)."""
        ...

    def is_forgotten(self, entry: Entry) -> bool:
        """Whether a finished entry is past its retention, counted from when it finished."""
        ...

    async def record_outcome(self, seq: int, outcome: dict[str, Any]) -> None:
        """Stores an entry's outcome before its effect, keeping it pending."""
        ...

    async def finish(
        self,
        seq: int,
        state: WriteState,
        outcome: dict[str, Any],
        changes: Sequence[Change] = (),
        kept_operation: dict[str, Any] | None = None,
    ) -> list[Change]:
        """Marks an entry applied or failed, durably, with its outcome, and
        records its changes in the same commit; returns them numbered.
        ``kept_operation`` replaces the entry's operation in that commit (None:
        kept as journaled), for what a finished write no longer needs.
        Takes its place in the log's order when called, before its first
        await: any later call (a read of the entry, of the changes) sees it."""
        ...

    async def changes_after(self, after: int, limit: int) -> list[Change]:
        """The kept changes with seq > ``after``, oldest first."""
        ...

    async def change_bounds(self) -> ChangeBounds:
        """Which changes are kept; purged with the finished entries' retention."""
        ...

    async def last_seq(self) -> int:
        """The highest seq ever journaled, also once its entry is purged."""
        ...

    async def purge_forgotten(self) -> int:
        """Deletes the forgotten entries and their request ids, and the changes
        older than the retention but never those after the index checkpoint;
        returns how many entries went."""
        ...

    async def index_checkpoint(self) -> int:
        """The last change (its seq) the index held when it was last flushed to
        disk: a power loss can take from the index only the changes after it
        (core/index_redo.py). A log from before checkpoints starts at its last change."""
        ...

    async def set_index_checkpoint(self, change_seq: int) -> None:
        """Records, durably, that the index on disk holds every change up to ``change_seq``."""
        ...

    async def close(self) -> None: ...
