"""The change feed behind WatchMemories: the write log's change history, then live changes.

Every applied write's changes are committed to the write log with the write
and numbered there (core/changes.py); the sequence rises across the server's
whole history, so it is what a watch starts and resumes after. A watch:

1. registers its bounded queue (core/watcher.py) with the feed, so that no
   change applied from now on can pass it by;
2. catches up from the log, page by page, from where it starts: the log never
   falls behind, so only the live queue can overflow, and an overflow while
   catching up just means reading on from the log;
3. sends the live queue, skipping what the log already gave it. If the queue
   overflows now, it sends what it holds, then ``FellBehind`` naming the last
   sequence sent, and ends: the client resumes from there.

A watch sends only the changes its scope may read (scoping.visible), but its
starting point and its resume point are global sequences.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from memoryd.core.changes import Change
from memoryd.core.errors import (
    ChangeHistoryExpired,
    InvalidArgument,
    PermissionDenied,
    ShuttingDown,
)
from memoryd.core.indexer import Indexer
from memoryd.core.model import Memory, Scope
from memoryd.core.policy import ADMIN, Access, Principal, authorize
from memoryd.core.scoping import check_scope, visible
from memoryd.core.watcher import Watcher
from memoryd.core.write_log import WriteLog

logger = logging.getLogger(__name__)

#: Watcher queue size by default (MEMORYD_WATCH_BUFFER_EVENTS).
DEFAULT_BUFFER_EVENTS = 1024
#: Changes read from the log at a time while catching up.
CATCH_UP_PAGE = 256


@dataclass(frozen=True, slots=True)
class WatchStarted:
    """The first event: the watch sends the changes after ``after_sequence``."""

    after_sequence: int


@dataclass(frozen=True, slots=True)
class FellBehind:
    """The last event of a watch that read too slowly: resume after ``resume_after_sequence``."""

    resume_after_sequence: int


type WatchEvent = WatchStarted | Change | FellBehind


class ChangeFeed:
    """Fans the indexer's applied changes out to the open watches."""

    def __init__(
        self,
        journal: WriteLog,
        indexer: Indexer,
        *,
        buffer_events: int = DEFAULT_BUFFER_EVENTS,
        catch_up_page: int = CATCH_UP_PAGE,
    ) -> None:
        self._journal = journal
        self._buffer_events = buffer_events
        self._catch_up_page = catch_up_page
        self._watchers: set[Watcher] = set()
        self._is_closed = False
        indexer.on_changes(self.publish)

    def publish(self, changes: Sequence[Change]) -> None:
        """Hands a write's changes, durable and numbered, to every watch."""
        for watcher in tuple(self._watchers):
            watcher.offer(changes)

    def close(self) -> None:
        """Ends every open watch with ShuttingDown, and refuses new ones."""
        self._is_closed = True
        for watcher in tuple(self._watchers):
            watcher.close()

    @property
    def watch_count(self) -> int:
        return len(self._watchers)

    async def watch(
        self, principal: Principal, scope: Scope, start_after: int | None
    ) -> AsyncGenerator[WatchEvent]:
        """The events of one watch: WatchStarted, then changes, and FellBehind
        if the caller reads too slowly.

        ``scope`` with no id at all means every owner (admins only);
        ``start_after`` None means from now on, 0 from the oldest change kept.
        Raises PermissionDenied, InvalidArgument, ChangeHistoryExpired before
        the first event, and ShuttingDown when the server stops.
        """
        watcher = Watcher(_visibility(principal, scope), self._buffer_events)
        if self._is_closed:
            raise ShuttingDown()
        self._watchers.add(watcher)  # before reading the log: nothing can slip between
        try:
            after = await self._start_point(start_after)
            yield WatchStarted(after)
            async for event in self._changes(watcher, after):
                yield event
        finally:
            self._watchers.discard(watcher)

    async def _start_point(self, start_after: int | None) -> int:
        bounds = await self._journal.change_bounds()
        if start_after is None:
            return bounds.last
        if start_after < 0:
            raise InvalidArgument(
                "start_after_sequence", f"is {start_after}; sequences are 0 or more"
            )
        if start_after == 0:
            return bounds.oldest_resumable
        if not bounds.oldest_resumable <= start_after <= bounds.last:
            raise ChangeHistoryExpired(start_after, bounds.oldest_resumable, bounds.last)
        return start_after

    async def _changes(self, watcher: Watcher, after: int) -> AsyncIterator[Change | FellBehind]:
        position = after  # every change up to here is sent or not visible
        last_sent = after
        while True:  # catch up from the log
            watcher.check_open()
            if watcher.overflowed:
                # What the queue dropped is committed already: the reads below return it.
                watcher.restart()
            page = await self._journal.changes_after(position, self._catch_up_page)
            if not page:
                if watcher.overflowed:
                    continue
                break
            for change in page:
                if watcher.sees(change.memory):
                    yield change
                    last_sent = change.seq
            position = page[-1].seq
        while (live := await watcher.next()) is not None:  # then live
            if live.seq <= position:
                continue  # the log gave it already
            yield live
            position = last_sent = live.seq
        logger.info("a watch fell behind after sequence %d", last_sent)
        yield FellBehind(last_sent)


def _visibility(principal: Principal, scope: Scope) -> Callable[[Memory], bool]:
    """Which memories the principal may watch in ``scope``; raises
    PermissionDenied or InvalidArgument before anything is sent."""
    if not (scope.user_id or scope.agent_id or scope.app_id or scope.thread_id):
        if principal.is_unrestricted or principal.has(ADMIN):
            return _everything
        raise PermissionDenied(f"watch every owner's memory (needs {ADMIN}); set a scope")
    if not principal.has(ADMIN):  # an admin may watch everything, so any part of it
        scope = authorize(principal, scope, Access.READ)
    check_scope(scope, "scope")
    return functools.partial(visible, scope)


def _everything(memory: Memory) -> bool:
    return True
