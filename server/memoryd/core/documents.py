"""How a memory is stored: the JSON document (payload) beside its vector."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from memoryd.core.model import Memory, MemoryType, Scope

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_MAX_EXACT_INT = 2**53


def iso_time(value: datetime) -> str:
    """RFC 3339 in UTC with microseconds: the stored and filtered time format."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def micros(value: datetime) -> int:
    """Microseconds since the epoch, the order value of a create_time. (An aware
    time subtracts from the epoch as it is: no conversion on this hot path.)"""
    delta = (value if value.tzinfo else value.astimezone(UTC)) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def to_document(memory: Memory) -> dict[str, Any]:
    """The stored payload. ``expire_time`` is present only when set, so that
    "never expires" is a missing field (core/expiry.py filters on that)."""
    document = {
        "memory_id": memory.id,
        "content": memory.content,
        "user_id": memory.scope.user_id,
        "agent_id": memory.scope.agent_id,
        "app_id": memory.scope.app_id,
        "thread_id": memory.scope.thread_id,
        "memory_type": memory.memory_type.value,
        "category": memory.category,
        "metadata": normalize_metadata(memory.metadata),
        "memory_key": memory.memory_key,
        "create_time": iso_time(memory.create_time),
        "update_time": iso_time(memory.update_time),
        "version": memory.version,
    }
    if memory.expire_time is not None:
        document["expire_time"] = iso_time(memory.expire_time)
    return document


def from_document(document: Mapping[str, Any]) -> Memory:
    return Memory(
        id=document["memory_id"],
        content=document["content"],
        scope=Scope(
            user_id=document["user_id"],
            agent_id=document["agent_id"],
            app_id=document["app_id"],
            thread_id=document["thread_id"],
        ),
        memory_type=MemoryType(document["memory_type"]),
        category=document["category"],
        metadata=document.get("metadata") or {},
        memory_key=document["memory_key"],
        create_time=_parse_time(document["create_time"]),
        update_time=_parse_time(document["update_time"]),
        version=int(document["version"]),
        expire_time=_parse_time(document["expire_time"]) if document.get("expire_time") else None,
    )


def normalize_metadata(value: Any) -> Any:
    """Stores whole numbers as integers.

    Protobuf Struct carries every number as a double; storing 3 rather than
    3.0 keeps documents readable and lets integer matches in the engine work.
    """
    if isinstance(value, Mapping):
        return {k: normalize_metadata(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize_metadata(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) <= _MAX_EXACT_INT:
        return int(value)
    return value


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
