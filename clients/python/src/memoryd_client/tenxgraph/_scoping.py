"""Which memoryd scope a 10xgraph config dict addresses.

The rule (documented in the README):
- A config with ``agent_id`` addresses the memory shared by that agent (and its
  ``app_id``, if given), never the user's, whatever ``user_id`` it also carries.
  10xgraph's agent_memory_tool builds exactly such configs (it also sets
  ``thread_id = agent_id``).
- Otherwise a ``user_id`` (passed through ``BaseStore._scope_user_id``) addresses
  that user's private memory; ``app_id`` and ``thread_id`` are recorded on writes.
- Otherwise an ``app_id`` alone addresses the app's shared memory.
- Shared memory is written only by application code: a write into a shared scope
  from a config that carries an authz policy (``config["user"]["authz"]`` or
  ``config["authz"]``, i.e. on behalf of an end user, as the 10xgraph API and
  authz-aware SDK calls do) is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tenxgraph.core.authz import get_authz

from memoryd.v1 import memory_pb2 as pb


class SharedMemoryWriteRefused(PermissionError, ValueError):
    """A write into agent/app shared memory came from a request on behalf of an end user.

    A ValueError too, so the 10xgraph API answers 422 rather than 500.
    """


def _text(config: dict[str, Any], key: str) -> str:
    value = config.get(key)
    return "" if value is None else str(value)


def memory_scope(
    config: dict[str, Any],
    scope_user_id: Callable[[dict[str, Any], str | int | None], str | int | None],
    *,
    for_write: bool,
) -> pb.Scope:
    """The Scope a config addresses (see the module docstring).

    Raises ValueError when the config names no owner, and SharedMemoryWriteRefused
    for an end user's write into shared memory.
    """
    agent_id, app_id = _text(config, "agent_id"), _text(config, "app_id")
    user_id = ""
    if not agent_id:
        scoped = scope_user_id(config, config.get("user_id"))
        # Under authz scope "none" 10xgraph means "every user"; memoryd has no
        # cross-user reads, so the caller's own memory is what it gets.
        user_id = _text(config, "user_id") if scoped is None else str(scoped)
    if user_id:
        thread_id = _text(config, "thread_id") if for_write else ""
        return pb.Scope(user_id=user_id, app_id=app_id, thread_id=thread_id)
    if not (agent_id or app_id):
        raise ValueError(
            "config names no memory owner: set user_id, or agent_id/app_id for shared memory"
        )
    if for_write and get_authz(config) is not None:
        raise SharedMemoryWriteRefused(
            "agent/app shared memory is written by application code only, not on behalf "
            "of a user; drop agent_id/app_id from this config"
        )
    return pb.Scope(agent_id=agent_id, app_id=app_id)


def forget_scope(
    config: dict[str, Any],
    scope_user_id: Callable[[dict[str, Any], str | int | None], str | int | None],
) -> pb.Scope:
    """The scope of a forget: as a write; for a user, only thread_id narrows it, as
    QdrantStore deletes by user_id and thread_id."""
    scope = memory_scope(config, scope_user_id, for_write=True)
    if scope.user_id:
        scope.app_id = ""
    return scope
