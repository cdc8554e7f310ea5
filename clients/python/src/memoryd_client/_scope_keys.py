"""Scope keys: which of a client's writes a read must wait for, keyed as the server keys them.

A user's memory is keyed by ``user_id`` alone (``agent_id``, ``app_id`` and
``thread_id`` do not narrow a user's reads), shared memory by its ``agent_id``
and by its ``app_id``, and a forget of shared memory that leaves out the app
(or the agent) also by a wildcard that the reads it reaches consult (see
server/memoryd/core/freshness.py). A scope with no ids at all (a credential's
own user, filled in by the server) has a key of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

Keys = frozenset[str]

_OWN_SCOPE = "self"

#: A forget of shared memory without an app_id (agent_id) reaches every app's
#: (agent's) shared memory.
_EVERY_APP, _EVERY_AGENT = "app\x1f*", "agent\x1f*"


def scope_keys(scope: pb.Scope) -> tuple[str, ...]:
    """The keys a write to ``scope`` touches (as the server's)."""
    if scope.user_id:
        return (f"user\x1f{scope.user_id}",)
    keys = tuple(
        f"{name}\x1f{value}"
        for name, value in (("agent", scope.agent_id), ("app", scope.app_id))
        if value
    )
    return keys or (_OWN_SCOPE,)


def _forget_keys(scope: pb.Scope) -> tuple[str, ...]:
    keys = scope_keys(scope)
    if scope.user_id or keys == (_OWN_SCOPE,):
        return keys
    if not scope.app_id:
        keys += (_EVERY_APP,)
    if not scope.agent_id:
        keys += (_EVERY_AGENT,)
    return keys


def read_keys(scope: pb.Scope) -> tuple[str, ...]:
    """The keys a read of ``scope`` consults: its own, and the wildcards of the
    forgets that reach it (a read of an app's memory sees every agent's)."""
    keys = scope_keys(scope)
    if scope.user_id or keys == (_OWN_SCOPE,):
        return keys
    if scope.app_id and not scope.agent_id:
        keys += (_EVERY_APP,)
    if scope.agent_id and not scope.app_id:
        keys += (_EVERY_AGENT,)
    return keys


def reads_of(scopes: Iterable[pb.Scope]) -> Keys:
    """The keys a read of ``scopes`` consults."""
    return frozenset(key for scope in scopes for key in read_keys(scope))


def read_keys_of(request: Any) -> Keys:
    """The keys a read request (Get, List, Search, Preload) consults."""
    if isinstance(request, svc.PreloadRequest):
        scopes = [request.user_scope]
        if request.HasField("agent_scope"):
            scopes.append(request.agent_scope)
        return reads_of(scopes)
    return reads_of([request.scope])


def write_keys(request: Any) -> Keys:
    """The keys a write request (Create, BatchCreate, Update, Delete, Forget) touches."""
    if isinstance(request, svc.BatchCreateMemoriesRequest):
        return frozenset(key for item in request.requests for key in scope_keys(item.memory.scope))
    if isinstance(request, svc.CreateMemoryRequest | svc.UpdateMemoryRequest):
        return frozenset(scope_keys(request.memory.scope))
    if isinstance(request, svc.ForgetMemoriesRequest):
        return frozenset(_forget_keys(request.scope))
    return frozenset(scope_keys(request.scope))
