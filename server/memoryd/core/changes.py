"""Change events: what each applied write did to each memory, for WatchMemories.

The indexer derives them from a write's outcome and hands them to the write
log together with the write's final state, in one commit (core/write_log.py),
so a crash never loses or doubles one. The log numbers them: ``seq`` rises
across the server's whole history and is what a watcher resumes from.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memoryd.core.documents import from_document, iso_time, to_document
from memoryd.core.model import Memory
from memoryd.core.scoping import point_id


class ChangeType(enum.StrEnum):
    """What happened to a memory; the values are stored in the change log."""

    CREATED = "created"
    UPDATED = "updated"
    DELETED = "deleted"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class Change:
    """One change to one memory. ``memory`` is the memory after it (as last
    stored, for DELETED and EXPIRED); ``change_time`` is when the write that
    made it was journaled; ``seq`` is 0 until the log has numbered it."""

    type: ChangeType
    memory: Memory
    change_time: datetime
    write_seq: int
    seq: int = 0


def change_to_json(change: Change) -> dict[str, Any]:
    return {
        "type": change.type.value,
        "memory": to_document(change.memory),
        "change_time": iso_time(change.change_time),
        "write_seq": change.write_seq,
    }


def change_from_json(seq: int, document: dict[str, Any]) -> Change:
    return Change(
        type=ChangeType(document["type"]),
        memory=from_document(document["memory"]),
        change_time=datetime.fromisoformat(document["change_time"].replace("Z", "+00:00")),
        write_seq=int(document["write_seq"]),
        seq=seq,
    )


def last_per_point(changes: Iterable[Change]) -> dict[str, Change]:
    """The last of ``changes`` to each memory, by its index point id: what the
    memory is after all of them (an after-image, or gone)."""
    return {point_id(c.memory.scope, c.memory.id): c for c in changes}
