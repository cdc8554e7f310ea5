"""The id a create gives its memory, derived where it can be from what a retry carries again."""

from __future__ import annotations

import uuid

from memoryd.core.model import NewMemory
from memoryd.core.policy import Principal

#: Fixed namespace of derived memory ids; changing it breaks replica convergence.
_ID_NAMESPACE = uuid.UUID("0d7c2a52-4b8e-4a51-9d0f-6f3f1c2b9e47")


def memory_id_for(new: NewMemory, principal: Principal, request_id: str, index: int) -> str:
    """The id a create gives its memory. Derived, where it can be, from what a
    retry carries again: from (owner, memory_key), else from (principal,
    request_id, position in the batch); memory_key is unique per (user_id,
    agent_id, app_id), so that is the key's owner here. Two replicas that both apply one
    retried create then write the same point and converge on one record
    (docs/deploy.md). Otherwise a random UUID."""
    if new.memory_id:
        return new.memory_id
    if new.memory_key:
        scope = new.scope  # a key is unique per (user_id, agent_id, app_id): core/dedup.py
        name = f"key\x1f{scope.user_id}\x1f{scope.agent_id}\x1f{scope.app_id}\x1f{new.memory_key}"
    elif request_id:
        name = f"request\x1f{principal.name}\x1f{request_id}\x1f{index}"
    else:
        return str(uuid.uuid4())
    return str(uuid.uuid5(_ID_NAMESPACE, name))
