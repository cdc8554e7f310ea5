"""Write serialization and the two dedup rules of CreateMemory.

- memory_key: at most one memory per (user_id, agent_id, app_id, memory_key).
- no key: content at least ``threshold`` similar to a memory of the same
  scope and type is not stored again.

Both are check-then-write, so both race unless writes to one owner are
serialized: OwnerLocks gives one asyncio lock per owner (one process owns the
index, see store/edge.py). Embedding happens before the lock is taken, so the
lock is held only for the few index calls of one write.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from memoryd.core.filters import Filter, all_of, equals
from memoryd.core.model import MemoryType, Scope


class OwnerLocks:
    """One lock per owner key, dropped again when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._locks[key]


def same_key(scope: Scope, memory_key: str) -> Filter:
    """The memory that owns ``memory_key`` in exactly this scope (at most one)."""
    return all_of(
        equals("user_id", scope.user_id),
        equals("agent_id", scope.agent_id),
        equals("app_id", scope.app_id),
        equals("memory_key", memory_key),
    )


def same_scope_and_type(scope: Scope, memory_type: MemoryType) -> Filter:
    """The memories a new unkeyed memory could duplicate."""
    return all_of(
        equals("user_id", scope.user_id),
        equals("agent_id", scope.agent_id),
        equals("app_id", scope.app_id),
        equals("memory_type", memory_type.value),
    )
