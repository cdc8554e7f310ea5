"""When the indexer flushes the index to disk: a while after a write is applied,
or sooner once many changes wait.

Qdrant Edge syncs its log and segments to disk only when flushed. Until then an
applied write survives kill -9 but not a power loss (the journal puts it back,
core/index_redo.py), and the engine's log, which a restart after a crash
replays, grows with every write (50k points left 160 MB of it, replayed in
1.8 s). Not often either: a flush holds the GIL, so every call waits for it,
and it costs more the more points the process has written: Qdrant Edge 0.9.0
spends it mostly copying its payload indexes' flags, a copy that grows with
the points written since the shard was opened (one new point flushed in 20 ms
at 300k points just opened, in 64 ms at 300k written by the process, in 110 ms
at 1M), plus 9-19 us per unflushed point. A long interval makes those stalls
rare while writes trickle in; the bound on unflushed changes keeps each one
short under a stream of writes (an import), and the engine's log small.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence

from memoryd.core.changes import Change
from memoryd.core.indexer_settings import IndexerSettings
from memoryd.core.ports import VectorIndex
from memoryd.core.write_log import WriteLog

logger = logging.getLogger(__name__)


class FlushSchedule:
    """Flushes ``index`` once its oldest unflushed write is the settings'
    ``flush_interval_seconds`` old (0: at the next chance), or once
    ``flush_max_changes`` changes are unflushed, then records in ``journal``
    the last change it holds on disk (the index checkpoint), so a start after
    a power loss puts back at most that much of its writes
    (core/index_redo.py). A failed flush is tried again an interval later."""

    def __init__(self, index: VectorIndex, settings: IndexerSettings, journal: WriteLog) -> None:
        self._index = index
        self._interval = settings.flush_interval_seconds
        self._max_changes = settings.flush_max_changes
        self._journal = journal
        self._unflushed_since: float | None = None
        self._unflushed_changes = 0
        self._last_change = self._checkpoint = 0

    def finished(self, changes: Sequence[Change]) -> None:
        """An applied write's changes are in the log, numbered. A write without
        any (a skipped near-duplicate, an import of what is stored) left the
        index as it was: it makes no flush due, which would stall every call
        for nothing."""
        if changes:
            if self._unflushed_since is None:
                self._unflushed_since = time.monotonic()
            self._last_change = changes[-1].seq
            self._unflushed_changes += len(changes)

    def due_at(self) -> float:
        """When the next flush is due (time.monotonic); infinity when nothing waits."""
        if self._unflushed_since is None:
            return math.inf
        if self._unflushed_changes >= self._max_changes:
            return self._unflushed_since
        return self._unflushed_since + self._interval

    def is_due(self) -> bool:
        return time.monotonic() >= self.due_at()

    async def flush(self) -> None:
        """Flushes, unless no change waits; every change finished before this
        call is then on disk."""
        if self._unflushed_since is None:
            return
        self._unflushed_since = None
        self._unflushed_changes = 0
        through = self._last_change
        try:
            await self._index.flush()
            if through > self._checkpoint:
                await self._journal.set_index_checkpoint(through)
                self._checkpoint = through
        except Exception:  # a full disk, say: the writes stay in the engine's log meanwhile
            logger.exception("could not flush the index; trying again in %.0f s", self._interval)
            self._unflushed_since = time.monotonic()
