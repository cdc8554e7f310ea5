"""The expiry purge: a background task that journals the deletion of expired memories.

Reads already hide expired memories (core/expiry.py); the purge only gives
their space back. It is a write like any other, journaled and applied in
order (an EXPIRE entry, core/apply_entry.py), so every deletion is durable
and becomes an EXPIRED change. An idle server journals nothing: a purge is
written only when the index holds expired memories, and never while the
previous one still waits to be applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from memoryd.core.errors import Overloaded, ShuttingDown
from memoryd.core.expiry import expired_at
from memoryd.core.indexer import Indexer
from memoryd.core.ports import VectorIndex
from memoryd.core.writes import Writes

logger = logging.getLogger(__name__)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class ExpiryPurge:
    """Every ``interval_seconds`` (and once at start), journals a purge of the
    memories expired by then; 0 turns the purge off."""

    def __init__(
        self,
        index: VectorIndex,
        writes: Writes,
        indexer: Indexer,
        interval_seconds: float,
        *,
        clock: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._index = index
        self._writes = writes
        self._indexer = indexer
        self._interval = interval_seconds
        self._clock = clock
        self._queued_seq = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._interval > 0 and self._task is None:
            self._task = asyncio.create_task(self._run(), name="memoryd-expiry-purge")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def purge_once(self) -> int | None:
        """Journals a purge if anything has expired and no earlier purge is
        still queued; returns its sequence number, else None."""
        if self._indexer.done_seq < self._queued_seq:
            return None
        now = self._clock()
        if not await self._index.count(expired_at(now)):
            return None
        self._queued_seq = await self._writes.purge_expired(now)
        logger.info("expiry purge journaled as write %d", self._queued_seq)
        return self._queued_seq

    async def _run(self) -> None:
        while True:
            pause = self._interval
            try:
                if await self.purge_once() is not None:
                    # One purge deletes at most MAX_EXPIRED_PER_PURGE (core/apply_entry.py):
                    # a large backlog of expired memories is taken in quick steps.
                    pause = min(self._interval, 1.0)
            except ShuttingDown:
                return  # the server refuses writes: no purge until the next start
            except Overloaded:
                logger.info("expiry purge skipped: the write backlog is full")
            except Exception:
                # A failed count or append is retried at the next interval; the
                # loop itself must outlive it, or expired memories pile up.
                logger.exception("expiry purge failed; retrying in %.0f s", self._interval)
            await asyncio.sleep(pause)
