"""When the indexer flushes the index to disk: a while after a write is applied.

Qdrant Edge syncs its log and segments to disk only when flushed. Until then an
applied write survives kill -9 but not a power loss, and the engine's log, which
a restart after a crash replays, grows with every write (50k points left 160 MB
of it, replayed in 1.8 s). Not after every write either: a flush holds the GIL
for 10-25 ms at 1M memories.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Sequence

from memoryd.core.changes import Change
from memoryd.core.ports import VectorIndex
from memoryd.core.write_log import WriteLog

logger = logging.getLogger(__name__)


class FlushSchedule:
    """Flushes ``index`` once its oldest unflushed write is ``interval`` seconds
    old (0: at the next chance), then records in ``journal`` the last change
    it holds on disk (the index checkpoint), so a start after a power loss
    puts back at most that much of its writes (core/index_redo.py). A failed
    flush is tried again an interval later."""

    def __init__(self, index: VectorIndex, interval: float, journal: WriteLog) -> None:
        self._index = index
        self._interval = interval
        self._journal = journal
        self._unflushed_since: float | None = None
        self._last_change = self._checkpoint = 0

    def applied(self) -> None:
        """A write reached the index."""
        if self._unflushed_since is None:
            self._unflushed_since = time.monotonic()

    def finished(self, changes: Sequence[Change]) -> None:
        """Changes of applied writes are in the log, numbered."""
        if changes:
            self._last_change = changes[-1].seq

    def due_at(self) -> float:
        """When the next flush is due (time.monotonic); infinity when nothing waits."""
        if self._unflushed_since is None:
            return math.inf
        return self._unflushed_since + self._interval

    def is_due(self) -> bool:
        return time.monotonic() >= self.due_at()

    async def flush(self) -> None:
        """Flushes; every change finished before this call is then on disk."""
        self._unflushed_since = None
        through = self._last_change
        try:
            await self._index.flush()
            if through > self._checkpoint:
                await self._journal.set_index_checkpoint(through)
                self._checkpoint = through
        except Exception:  # a full disk, say: the writes stay in the engine's log meanwhile
            logger.exception("could not flush the index; trying again in %.0f s", self._interval)
            self._unflushed_since = time.monotonic()
