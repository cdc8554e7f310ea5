"""The two dedup rules of CreateMemory, as index filters.

- memory_key: at most one memory per (user_id, agent_id, app_id, memory_key).
- no key: content at least ``threshold`` similar to a memory of the same
  scope and type is not stored again.

Both are check-then-write, so both would race under concurrent writes. The
indexer applies journaled writes one at a time, in order (core/indexer.py),
which is what makes them hold.
"""

from __future__ import annotations

from memoryd.core.filters import Filter, all_of, equals
from memoryd.core.model import MemoryType, Scope


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
