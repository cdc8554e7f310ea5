"""One watcher's bounded queue of live changes, and how it overflows.

The indexer hands every applied write's changes to each watcher (ChangeFeed
calls ``offer``), synchronously and without waiting: a watcher that reads
slowly must never slow the writes down. So each queue is bounded. When a
change arrives at a full queue, the watcher is marked ``overflowed`` and takes
no more: the changes it missed are durable in the write log already (the
indexer publishes only what the log has committed), so the watch either reads
them back from the log (while it is catching up) or tells its client where to
resume (once live). Nothing is dropped without one of the two.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence

from memoryd.core.changes import Change
from memoryd.core.errors import ShuttingDown
from memoryd.core.model import Memory


class Watcher:
    """The live changes one watch may see, queued until it sends them.

    ``sees`` decides which changes are queued at all (the watch's scope), so
    ``capacity`` counts only changes this watcher will send.
    """

    def __init__(self, sees: Callable[[Memory], bool], capacity: int) -> None:
        if capacity < 1:
            raise ValueError("a watcher needs room for at least one change")
        self.sees = sees
        self._capacity = capacity
        self._queue: deque[Change] = deque()
        self._wake = asyncio.Event()
        #: A change came while the queue was full; no change is queued after it.
        self.overflowed = False
        self.is_closed = False

    def offer(self, changes: Sequence[Change]) -> None:
        """Queues the changes this watcher sees, in order, until the queue is full."""
        if self.overflowed or self.is_closed:
            return
        for change in changes:
            if not self.sees(change.memory):
                continue
            if len(self._queue) >= self._capacity:
                self.overflowed = True
                break
            self._queue.append(change)
        self._wake.set()

    def restart(self) -> None:
        """Empties the queue and takes changes again: for a watch still catching
        up, which reads everything it dropped from the log anyway."""
        self._queue.clear()
        self.overflowed = False

    def close(self) -> None:
        """The server is stopping: ``next`` raises ShuttingDown from now on."""
        self.is_closed = True
        self._wake.set()

    def check_open(self) -> None:
        if self.is_closed:
            raise ShuttingDown()

    async def next(self) -> Change | None:
        """The next queued change, waiting for one; None once the queue is
        empty after an overflow (the watch fell behind). Raises ShuttingDown
        once closed."""
        while True:
            self.check_open()
            if self._queue:
                return self._queue.popleft()
            if self.overflowed:
                return None
            self._wake.clear()
            await self._wake.wait()

    def __len__(self) -> int:
        return len(self._queue)
