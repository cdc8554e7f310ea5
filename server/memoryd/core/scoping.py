"""Who owns a memory and which memories a request may see.

The rules, in one place:
- A memory with a user_id is that user's private memory, whatever agent, app
  or thread wrote it. Reading with a user_id sees exactly those memories;
  agent_id, app_id and thread_id never narrow it (long-term memory is
  cross-thread, and 10xgraph reads user memory by user alone).
- A memory without a user_id is shared memory of its agent_id and/or app_id.
  Reading without a user_id sees the shared memories whose agent_id and
  app_id equal the ones given (an empty one matches any).
- A memory is addressed by (owner, id), the owner being the user, or the
  (agent_id, app_id) pair for shared memory. Point ids derive from both, so
  one owner's id can never reach another owner's memory, and two owners may
  use the same id without learning of each other.
- Forgetting selects like reading, and then every other id given, thread_id
  included, narrows the selection.
"""

from __future__ import annotations

import uuid

from memoryd.core.errors import InvalidArgument
from memoryd.core.filters import Filter, all_of, equals, one_of
from memoryd.core.model import Memory, Scope, Selection

#: Fixed namespace for point ids; changing it orphans every stored memory.
_POINT_NAMESPACE = uuid.UUID("5b0c3f0e-6c7d-4f0b-9a57-3c1d2f1e8a11")
MAX_ID_CHARS = 128


def check_id(value: str, field: str, *, required: bool) -> None:
    """Raises InvalidArgument unless ``value`` is a valid id (or empty, if allowed)."""
    if not value:
        if required:
            raise InvalidArgument(field, "must not be empty")
        return
    if len(value) > MAX_ID_CHARS:
        raise InvalidArgument(field, f"is {len(value)} characters; at most {MAX_ID_CHARS} allowed")
    if not value.isprintable() or value.strip() != value:
        raise InvalidArgument(
            field, "must be printable characters without leading or trailing spaces"
        )


def check_scope(scope: Scope, field: str) -> None:
    """Checks the ids of a scope and that it names an owner."""
    for name in ("user_id", "agent_id", "app_id", "thread_id"):
        check_id(getattr(scope, name), f"{field}.{name}", required=False)
    if not (scope.user_id or scope.agent_id or scope.app_id):
        raise InvalidArgument(field, "set user_id, or agent_id and/or app_id for shared memory")


def owner_key(scope: Scope) -> str:
    """The owner a memory of this scope belongs to, as one string."""
    if scope.user_id:
        return f"user\x1f{scope.user_id}"
    return f"shared\x1f{scope.agent_id}\x1f{scope.app_id}"


def point_id(scope: Scope, memory_id: str) -> str:
    """The index id of memory ``memory_id`` of the scope's owner."""
    return str(uuid.uuid5(_POINT_NAMESPACE, f"{owner_key(scope)}\x1e{memory_id}"))


def read_filter(scope: Scope) -> Filter:
    """The memories a read in this scope may see."""
    if scope.user_id:
        return equals("user_id", scope.user_id)
    return all_of(
        equals("user_id", ""),
        equals("agent_id", scope.agent_id) if scope.agent_id else None,
        equals("app_id", scope.app_id) if scope.app_id else None,
    )


def forget_filter(scope: Scope) -> Filter:
    """The memories a forget in this scope deletes: the readable ones, narrowed."""
    if not scope.user_id:
        return all_of(
            read_filter(scope), equals("thread_id", scope.thread_id) if scope.thread_id else None
        )
    return all_of(
        read_filter(scope),
        *(
            equals(name, getattr(scope, name))
            for name in ("agent_id", "app_id", "thread_id")
            if getattr(scope, name)
        ),
    )


def same_owner(scope: Scope, stored: Scope) -> bool:
    """Whether a stored memory belongs to the owner the request names."""
    return owner_key(scope) == owner_key(stored)


def read_selection_filter(selection: Selection) -> Filter:
    """The memories a read of ``selection`` sees."""
    return selection_filter(selection, read_filter(selection.scope))


def selection_filter(selection: Selection, scope_filter: Filter) -> Filter:
    """The scope filter narrowed by a selection's types, categories and filter."""
    return all_of(
        scope_filter,
        one_of("memory_type", tuple(t.value for t in selection.memory_types))
        if selection.memory_types
        else None,
        one_of("category", selection.categories) if selection.categories else None,
        selection.where,
    )


def forget_selection_filter(selection: Selection) -> Filter:
    """The memories a forget of ``selection`` deletes."""
    return selection_filter(selection, forget_filter(selection.scope))


def visible(scope: Scope, memory: Memory) -> bool:
    """Whether a read in ``scope`` sees ``memory``: read_filter's rule, for one
    memory in hand (a change WatchMemories may send)."""
    stored = memory.scope
    if scope.user_id:
        return stored.user_id == scope.user_id
    return (
        not stored.user_id
        and (not scope.agent_id or stored.agent_id == scope.agent_id)
        and (not scope.app_id or stored.app_id == scope.app_id)
    )
