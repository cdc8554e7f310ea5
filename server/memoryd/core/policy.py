"""Who may read and write which scope: the authorization rules, in one place.

A Principal is the authenticated caller. The rules:
- Unrestricted (auth mode ``none``, and in-process callers): the scope comes
  from the request, unchanged.
- User memory (the request names a user_id, or names no agent_id/app_id):
  an end user (``user_id`` set) acts only on its own user_id; an empty
  request user_id is filled in with it, another one is PermissionDenied.
  ``memory:act_as_user`` lifts this: the request's user_id is used as given
  (a service acting for its end users). ``memory:admin`` may forget any scope.
- Shared memory (no user_id, and an agent_id and/or app_id): reading needs
  ``agent_memory:read``, ``agent_memory:read:<agent_id>``,
  ``app_memory:read:<app_id>``, ``agent_memory:write`` or ``memory:admin``;
  writing needs ``agent_memory:write``; forgetting ``agent_memory:write`` or
  ``memory:admin``. End users get shared-memory reads by grant only, and never
  write it.
Authorization happens before any lookup, so a denial never depends on whether
a memory exists; within an allowed scope, another owner's memory is
MemoryNotFound (see scoping.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from memoryd.core.errors import PermissionDenied
from memoryd.core.model import Scope, Selection

ACT_AS_USER = "memory:act_as_user"
AGENT_MEMORY_READ = "agent_memory:read"
AGENT_MEMORY_WRITE = "agent_memory:write"
ADMIN = "memory:admin"


class Access(enum.Enum):
    READ = "read"
    WRITE = "write"
    FORGET = "forget"


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller. ``name`` identifies it in audit logs and rate
    limits; ``user_id`` is the end user it is, if any; ``scopes`` its grants."""

    name: str
    user_id: str = ""
    scopes: frozenset[str] = field(default_factory=frozenset)
    is_unrestricted: bool = False

    def has(self, grant: str) -> bool:
        return grant in self.scopes


#: The caller when authentication is off (auth mode ``none``), and for
#: in-process callers: scopes come from the request.
UNRESTRICTED = Principal("anonymous", is_unrestricted=True)


def is_shared(scope: Scope) -> bool:
    """Whether the scope addresses shared agent/app memory, not a user's."""
    return not scope.user_id and bool(scope.agent_id or scope.app_id)


def authorize(principal: Principal, scope: Scope, access: Access) -> Scope:
    """The scope the principal acts in: the request's, with an end user's own
    user_id filled in. Raises PermissionDenied for a scope it may not use."""
    if principal.is_unrestricted:
        return scope
    if is_shared(scope):
        if _may_use_shared(principal, scope, access):
            return scope
        raise PermissionDenied(f"{access.value} shared agent/app memory")
    if principal.has(ACT_AS_USER) or (access is Access.FORGET and principal.has(ADMIN)):
        return scope
    if not principal.user_id:
        raise PermissionDenied(f"{access.value} user memory (needs {ACT_AS_USER})")
    if not scope.user_id:
        return replace(scope, user_id=principal.user_id)
    if scope.user_id != principal.user_id:
        raise PermissionDenied(f"{access.value} another user's memory")
    return scope


def may(principal: Principal, scope: Scope, access: Access) -> bool:
    """Whether ``authorize`` would let the principal use ``scope`` as given."""
    try:
        return authorize(principal, scope, access) == scope
    except PermissionDenied:
        return False


def _may_use_shared(principal: Principal, scope: Scope, access: Access) -> bool:
    if access is Access.WRITE:
        return principal.has(AGENT_MEMORY_WRITE)
    if access is Access.FORGET:
        return principal.has(AGENT_MEMORY_WRITE) or principal.has(ADMIN)
    grants = {AGENT_MEMORY_READ, AGENT_MEMORY_WRITE, ADMIN}
    if scope.agent_id:
        grants.add(f"{AGENT_MEMORY_READ}:{scope.agent_id}")
    if scope.app_id:
        grants.add(f"app_memory:read:{scope.app_id}")
    return not grants.isdisjoint(principal.scopes)


def readable(principal: Principal, selection: Selection) -> Selection:
    """The selection in the scope the principal reads; raises PermissionDenied."""
    return replace(selection, scope=authorize(principal, selection.scope, Access.READ))
