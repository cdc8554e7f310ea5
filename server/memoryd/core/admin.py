"""The operator's view: what GetStats reports, and the entry to re-embedding.

Every call here is for admin principals only (``require_admin``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from memoryd.core.errors import InvalidArgument, PermissionDenied
from memoryd.core.expiry import expired_at
from memoryd.core.filters import AllOf, Filter, Not, equals
from memoryd.core.indexer import Indexer
from memoryd.core.policy import ADMIN, Principal
from memoryd.core.ports import Embedder, VectorIndex
from memoryd.core.reembed_status import NO_JOB, ReembedStatus
from memoryd.core.write_log import WriteLog

#: Memories by kind of owner, as scoping.py stores them (empty ids are "").
USER_MEMORY: Filter = Not(equals("user_id", ""))
AGENT_MEMORY: Filter = AllOf((equals("user_id", ""), Not(equals("agent_id", ""))))
APP_MEMORY: Filter = AllOf(
    (equals("user_id", ""), equals("agent_id", ""), Not(equals("app_id", "")))
)


@dataclass(frozen=True, slots=True)
class Stats:
    """What the server holds; see GetStatsResponse in the contract."""

    user_memories: int
    agent_memories: int
    app_memories: int
    expired_memories: int
    journal_backlog: int
    change_sequence: int
    embedder_id: str
    dimension: int
    backend: str
    index_disk_bytes: int
    journal_disk_bytes: int
    reembed: ReembedStatus


@dataclass(frozen=True, slots=True)
class DiskUsage:
    """Measures bytes on disk; called on a worker thread (they walk directories)."""

    index_bytes: Callable[[], int]
    journal_bytes: Callable[[], int]


class Reembedding(Protocol):
    """The re-embedding job as Admin drives it (core/reembed.py)."""

    def status(self) -> ReembedStatus: ...

    async def start(self, target: str) -> ReembedStatus: ...

    async def resume(self) -> None: ...

    async def stop(self) -> None: ...


def require_admin(principal: Principal) -> None:
    """Raises PermissionDenied unless the principal is unrestricted or has ``memory:admin``."""
    if not (principal.is_unrestricted or principal.has(ADMIN)):
        raise PermissionDenied(f"use the operator's RPCs (needs {ADMIN})")


class Admin:
    """Stats and re-embedding, for admin principals.

    ``index`` and ``embedder`` are the ones reads use (after a re-embedding,
    the new pair); ``backend`` is "edge" or "qdrant".
    """

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        journal: WriteLog,
        indexer: Indexer,
        *,
        backend: str,
        disk: DiskUsage,
        reembedding: Reembedding | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._index = index
        self._embedder = embedder
        self._journal = journal
        self._indexer = indexer
        self._backend = backend
        self._disk = disk
        self._reembedding = reembedding
        self._clock = clock

    async def stats(self, principal: Principal) -> Stats:
        """The counts, sizes and job status; raises PermissionDenied."""
        require_admin(principal)
        count = self._index.count
        users, agents, apps, expired = await asyncio.gather(
            count(USER_MEMORY),
            count(AGENT_MEMORY),
            count(APP_MEMORY),
            count(expired_at(self._clock())),
        )
        bounds = await self._journal.change_bounds()
        index_bytes, journal_bytes = await asyncio.to_thread(self._measure)
        return Stats(
            user_memories=users,
            agent_memories=agents,
            app_memories=apps,
            expired_memories=expired,
            journal_backlog=self._indexer.backlog,
            change_sequence=bounds.last,
            embedder_id=self._embedder.model_id,
            dimension=self._embedder.dimension,
            backend=self._backend,
            index_disk_bytes=index_bytes,
            journal_disk_bytes=journal_bytes,
            reembed=self._status(),
        )

    def reembed_status(self, principal: Principal) -> ReembedStatus:
        """The current or last job; raises PermissionDenied."""
        require_admin(principal)
        return self._status()

    async def start_reembed(self, principal: Principal, target: str) -> ReembedStatus:
        """Starts (or returns the running) job to ``target``; raises PermissionDenied,
        InvalidArgument (unknown or current embedder), ReembedInProgress."""
        require_admin(principal)
        if self._reembedding is None:
            raise InvalidArgument("embedder", "this server cannot re-embed its index")
        return await self._reembedding.start(target)

    async def resume(self) -> None:
        """On start: resumes a re-embedding the last run left running."""
        if self._reembedding is not None:
            await self._reembedding.resume()

    async def close(self) -> None:
        """Stops a running re-embedding; it resumes on the next start."""
        if self._reembedding is not None:
            await self._reembedding.stop()

    def _status(self) -> ReembedStatus:
        return NO_JOB if self._reembedding is None else self._reembedding.status()

    def _measure(self) -> tuple[int, int]:
        return self._disk.index_bytes(), self._disk.journal_bytes()
