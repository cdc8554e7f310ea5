"""core.feed and core.watcher: catching up from the log, the live queue, falling behind.

The feed runs over a real SQLite write log; each test plays the indexer's
part itself: it finishes a journaled write with its changes (numbered by the
log, in the same commit) and then publishes them, exactly as the indexer does.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memoryd.core.changes import Change, ChangeType
from memoryd.core.errors import ChangeHistoryExpired, PermissionDenied, ShuttingDown
from memoryd.core.feed import ChangeFeed, FellBehind, WatchEvent, WatchStarted
from memoryd.core.filters import AllOf, Condition, Filter, Operator
from memoryd.core.model import Memory, MemoryType, OperationKind, Scope, WriteState
from memoryd.core.policy import ADMIN, UNRESTRICTED, Principal
from memoryd.core.scoping import read_filter, visible
from memoryd.core.watcher import Watcher
from memoryd.core.write_log import Append, WriteLog
from memoryd.store.sqlite_journal import SqliteJournal

NOW = datetime(2026, 1, 1, tzinfo=UTC)
_ids = itertools.count()


def memory(scope: Scope) -> Memory:
    return Memory(
        id=f"m{next(_ids)}",
        content="c",
        scope=scope,
        memory_type=MemoryType.EPISODIC,
        category="general",
        metadata={},
        memory_key="",
        create_time=NOW,
        update_time=NOW,
        version=1,
    )


class Listeners:
    """The indexer's side of the feed: who is told of applied changes."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[Sequence[Change]], None]] = []

    def on_changes(self, listener: Callable[[Sequence[Change]], None]) -> None:
        self.listeners.append(listener)


class EmptyReads:
    """The real log, telling the test when a catch-up read found nothing new:
    from then on the watch waits on its live queue."""

    def __init__(self, journal: WriteLog) -> None:
        self._journal = journal
        self.caught_up = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)

    async def changes_after(self, after: int, limit: int) -> list[Change]:
        page = await self._journal.changes_after(after, limit)
        if not page:
            self.caught_up.set()
        return page


class Rig:
    def __init__(self, journal: SqliteJournal, buffer_events: int) -> None:
        self.journal = journal
        self.log = EmptyReads(journal)
        self.indexer = Listeners()
        self.feed = ChangeFeed(self.log, self.indexer, buffer_events=buffer_events)  # type: ignore[arg-type]

    async def apply(self, *memories: Memory) -> list[Change]:
        """One write with a CREATED change per memory, committed, then published."""
        appended = await self.journal.append(Append(OperationKind.CREATE, {}))
        changes = [Change(ChangeType.CREATED, m, NOW, appended.seq) for m in memories]
        numbered = await self.journal.finish(appended.seq, WriteState.APPLIED, {}, changes)
        for listener in self.indexer.listeners:
            listener(numbered)
        return numbered


def run_with_rig(
    tmp_path: Path, test: Callable[[Rig], Awaitable[None]], buffer_events: int = 3
) -> None:
    async def run() -> None:
        journal = SqliteJournal.open(tmp_path / "journal.sqlite3")
        try:
            await test(Rig(journal, buffer_events))
        finally:
            await journal.close()

    asyncio.run(run())


async def take(events: AsyncIterator[WatchEvent], count: int) -> list[WatchEvent]:
    return [await anext(events) for _ in range(count)]


USER = Scope(user_id="u")


def test_a_watch_catches_up_past_an_overflow_without_a_signal(tmp_path: Path) -> None:
    async def test(rig: Rig) -> None:
        events = rig.feed.watch(UNRESTRICTED, USER, None)
        assert await anext(events) == WatchStarted(0)
        # Ten changes against a queue of three, before the watch reads any:
        # it is still catching up, so it reads them all from the log.
        applied = [c for _ in range(5) for c in await rig.apply(memory(USER), memory(USER))]
        assert await take(events, 10) == applied
        live = await rig.apply(memory(USER))
        assert await take(events, 1) == live
        await events.aclose()
        assert rig.feed.watch_count == 0

    run_with_rig(tmp_path, test)


def test_a_live_watch_that_overflows_sends_its_queue_then_where_to_resume(tmp_path: Path) -> None:
    async def test(rig: Rig) -> None:
        events = rig.feed.watch(UNRESTRICTED, USER, None)
        await anext(events)
        waiting = asyncio.create_task(anext(events))
        await rig.log.caught_up.wait()  # the watch now waits on its live queue
        applied = await rig.apply(*(memory(USER) for _ in range(5)))
        assert [await waiting, *await take(events, 3)] == [
            *applied[:3],
            FellBehind(applied[2].seq),
        ]
        with pytest.raises(StopAsyncIteration):
            await anext(events)
        assert rig.feed.watch_count == 0

        resumed = rig.feed.watch(UNRESTRICTED, USER, applied[2].seq)
        assert await take(resumed, 3) == [WatchStarted(applied[2].seq), *applied[3:]]
        await resumed.aclose()

    run_with_rig(tmp_path, test)


def test_a_watch_sends_only_what_its_scope_sees_and_counts_only_that(tmp_path: Path) -> None:
    async def test(rig: Rig) -> None:
        events = rig.feed.watch(UNRESTRICTED, USER, None)
        await anext(events)
        waiting = asyncio.create_task(anext(events))
        await rig.log.caught_up.wait()
        others = [memory(Scope(user_id="v")) for _ in range(10)]
        (mine,) = [c for c in await rig.apply(*others, memory(USER)) if c.memory.scope == USER]
        assert await waiting == mine  # ten invisible changes did not fill a queue of three
        await events.aclose()

    run_with_rig(tmp_path, test)


def test_a_start_outside_the_kept_history_is_refused_and_zero_means_the_oldest(
    tmp_path: Path,
) -> None:
    async def test(rig: Rig) -> None:
        applied = await rig.apply(memory(USER), memory(USER))
        with pytest.raises(ChangeHistoryExpired):
            await anext(rig.feed.watch(UNRESTRICTED, USER, applied[-1].seq + 1))
        events = rig.feed.watch(UNRESTRICTED, USER, 0)
        assert await take(events, 3) == [WatchStarted(0), *applied]
        await events.aclose()

    run_with_rig(tmp_path, test)


def test_closing_the_feed_ends_open_watches_and_refuses_new_ones(tmp_path: Path) -> None:
    async def test(rig: Rig) -> None:
        events = rig.feed.watch(UNRESTRICTED, USER, None)
        await anext(events)
        waiting = asyncio.create_task(anext(events))
        await rig.log.caught_up.wait()
        rig.feed.close()
        with pytest.raises(ShuttingDown):
            await waiting
        with pytest.raises(ShuttingDown):
            await anext(rig.feed.watch(UNRESTRICTED, USER, None))
        assert rig.feed.watch_count == 0

    run_with_rig(tmp_path, test)


def test_only_admins_and_unrestricted_callers_watch_every_owner(tmp_path: Path) -> None:
    async def test(rig: Rig) -> None:
        everything = Scope()
        for principal in (Principal("u", user_id="u"), Principal("svc", scopes=frozenset())):
            with pytest.raises(PermissionDenied):
                await anext(rig.feed.watch(principal, everything, None))
        with pytest.raises(PermissionDenied):
            await anext(rig.feed.watch(Principal("u", user_id="u"), Scope(user_id="v"), None))
        admin = Principal("ops", scopes=frozenset({ADMIN}))
        for principal in (admin, UNRESTRICTED):
            events = rig.feed.watch(principal, everything, None)
            await anext(events)
            applied = await rig.apply(memory(USER), memory(Scope(agent_id="a")))
            assert await take(events, 2) == applied
            await events.aclose()

    run_with_rig(tmp_path, test)


def test_a_watcher_queue_holds_its_capacity_then_overflows() -> None:
    async def run() -> None:
        watcher = Watcher(lambda m: True, capacity=2)
        changes = [Change(ChangeType.CREATED, memory(USER), NOW, 1, seq) for seq in (1, 2, 3)]
        watcher.offer(changes[:1])
        watcher.offer(changes[1:])
        assert watcher.overflowed and len(watcher) == 2
        watcher.offer(changes)  # nothing is queued after an overflow
        assert [await watcher.next(), await watcher.next(), await watcher.next()] == [
            changes[0],
            changes[1],
            None,
        ]
        watcher.restart()
        watcher.offer(changes[2:])
        assert await watcher.next() == changes[2]

    asyncio.run(run())


# --- visible(): read_filter's rule, one memory at a time ----------------------


def matches(tree: Filter, stored: Scope) -> bool:
    """read_filter evaluated on a memory's scope (it uses only equality and conjunction)."""
    if isinstance(tree, AllOf):
        return all(matches(f, stored) for f in tree.filters)
    assert isinstance(tree, Condition) and tree.operator is Operator.EQ
    return bool(getattr(stored, tree.field) == tree.values[0])


IDS = ("", "x", "y")
SCOPES = [
    Scope(user_id=u, agent_id=a, app_id=p, thread_id=t)
    for u, a, p, t in itertools.product(IDS, IDS, IDS, ("", "t"))
]


@pytest.mark.parametrize("scope", [s for s in SCOPES if s.user_id or s.agent_id or s.app_id])
def test_visible_agrees_with_read_filter_for_every_stored_scope(scope: Scope) -> None:
    tree = read_filter(scope)
    for stored in SCOPES:
        assert visible(scope, memory(stored)) == matches(tree, stored), (scope, stored)
