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

from memoryd.core.ports import VectorIndex

logger = logging.getLogger(__name__)


class FlushSchedule:
    """Flushes ``index`` once its oldest unflushed write is ``interval`` seconds
    old (0: at the next chance), so a power loss costs the index at most that
    much of its writes. A failed flush is tried again an interval later."""

    def __init__(self, index: VectorIndex, interval: float) -> None:
        self._index = index
        self._interval = interval
        self._unflushed_since: float | None = None

    def applied(self) -> None:
        """A write reached the index."""
        if self._unflushed_since is None:
            self._unflushed_since = time.monotonic()

    def due_at(self) -> float:
        """When the next flush is due (time.monotonic); infinity when nothing waits."""
        if self._unflushed_since is None:
            return math.inf
        return self._unflushed_since + self._interval

    def is_due(self) -> bool:
        return time.monotonic() >= self.due_at()

    async def flush(self) -> None:
        self._unflushed_since = None
        try:
            await self._index.flush()
        except Exception:  # a full disk, say: the writes stay in the engine's log meanwhile
            logger.exception("could not flush the index; trying again in %.0f s", self._interval)
            self._unflushed_since = time.monotonic()
