"""Reads a mem0 OSS collection (mem0ai 2.x, Qdrant vector store) as memoryd import records.

mem0's ``Memory`` keeps one Qdrant point per memory: the point id (a UUID
string), an unnamed dense vector of its embedder (plus, from mem0 2.x, a named
sparse "bm25" vector, not imported), and a payload of the caller's metadata
with mem0's own keys: ``data`` (the text), ``hash`` (its MD5),
``text_lemmatized``, ``created_at`` and ``updated_at`` (ISO 8601, UTC),
``user_id``, ``agent_id``, ``run_id``, ``role`` and ``actor_id`` (from the
message), ``attributed_to``, ``memory_type`` ("procedural_memory" only) and
``expiration_date`` (YYYY-MM-DD). The mapping:

========================  =====================================================
mem0 payload              memoryd
========================  =====================================================
point id                  Memory.id (kept, so a re-run is idempotent)
data                      content (a point without it is skipped)
user_id                   scope.user_id: user memory
agent_id                  scope.agent_id: the writing agent of user memory, or,
                          without a user_id, the owner of shared agent memory
run_id                    scope.thread_id
memory_type               "procedural_memory" is PROCEDURAL; absent is SEMANTIC
                          (mem0 memories are facts and preferences); anything
                          else is CUSTOM, the original kept in metadata
category (metadata)       category, if a string ("general" otherwise)
memory_key (metadata)     memory_key, if a valid id
created_at, updated_at    create_time, update_time (the import time if absent)
expiration_date           expire_time: the end of that day, UTC (mem0 shows a
                          memory through its expiration date); the server skips
                          memories already expired
hash, text_lemmatized     dropped: both derive from the text
every other key           metadata (role, actor_id, attributed_to, the caller's
                          metadata; keys memoryd refuses are rewritten)
dense vector              vector, stamped ``vectors_embedder`` (none if "")
========================  =====================================================

Every record has version 1: mem0 keeps no version, so a memory changed in mem0
after it was imported is not imported again. A value a Memory field cannot take
stays in metadata. Skipped, with a warning that counts and names them: a point
with no text; one scoped only by run_id (it has no owner in memoryd); one with
an id memoryd cannot take (without its user_id a private memory would become
shared). mem0's entity collection (``<collection>_entities``) and its SQLite
history are not read.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from qdrant_client.models import Record

from memoryd.cli.sources._qdrant import (
    Skips,
    as_category,
    as_id,
    bad_id_key,
    connect,
    count_points,
    dense_vector,
    mapped,
    metadata_struct,
    parse_time,
    scroll,
    timestamp,
)
from memoryd.cli.sources.base import Source
from memoryd.v1 import memory_pb2, memory_service_pb2

__all__ = ["DEFAULT_COLLECTION", "open_mem0"]

#: mem0's collection when none is configured.
DEFAULT_COLLECTION = "mem0"

_PROCEDURAL = "procedural_memory"
#: Payload keys that become Memory fields, or are dropped, rather than metadata.
_MAPPED_KEYS = frozenset(
    {"data", "hash", "text_lemmatized", "created_at", "updated_at", "user_id", "agent_id"}
    | {"run_id", "memory_type", "category", "memory_key", "expiration_date"}
)


def open_mem0(
    *,
    path: Path | None,
    url: str | None,
    api_key: str | None,
    collection: str,
    vectors_embedder: str,
) -> Source:
    """Opens a mem0 collection in a local Qdrant directory (mem0's
    ``vector_store.config.path``) or on a Qdrant server (``url``, ``api_key``).

    ``collection`` "" means mem0's default. ``vectors_embedder`` is the embedder
    id the stored vectors are declared to come from: the server keeps them if it
    is its own, and embeds again otherwise; "" sends no vectors. Raises
    SourceError for bad options or a missing path or collection.
    """
    name = collection or DEFAULT_COLLECTION
    where = str(path) if path is not None else str(url)
    client = connect(path=path, url=url, api_key=api_key)
    total = count_points(client, name, where)
    description = f"mem0 collection {name!r} at {where}"
    now = datetime.now(UTC)

    def to_record(point: Record, skips: Skips) -> memory_service_pb2.ExportedMemory | None:
        return _record(point, skips, vectors_embedder=vectors_embedder, now=now)

    points = scroll(client, name, where, with_vectors=bool(vectors_embedder))
    return Source(description, total, mapped(points, to_record, Skips(description)))


def _record(
    point: Record, skips: Skips, *, vectors_embedder: str, now: datetime
) -> memory_service_pb2.ExportedMemory | None:
    payload: dict[str, Any] = dict(point.payload or {})
    memory_id = str(point.id)
    content = payload.get("data")
    if not isinstance(content, str) or not content.strip():
        skips.add(memory_id, "no data (text)")
        return None
    bad_key = bad_id_key(payload, ("user_id", "agent_id", "run_id"))
    if bad_key is not None:
        skips.add(memory_id, f"a {bad_key} memoryd cannot take (1-128 printable characters)")
        return None
    user_id = as_id(payload.get("user_id"))
    agent_id = as_id(payload.get("agent_id"))
    if not (user_id or agent_id):
        skips.add(memory_id, "neither user_id nor agent_id")
        return None
    scope = memory_pb2.Scope(
        user_id=user_id, agent_id=agent_id, thread_id=as_id(payload.get("run_id"))
    )
    metadata = {k: v for k, v in payload.items() if k not in _MAPPED_KEYS}
    memory_type = memory_pb2.MEMORY_TYPE_SEMANTIC
    if payload.get("memory_type") == _PROCEDURAL:
        memory_type = memory_pb2.MEMORY_TYPE_PROCEDURAL
    elif payload.get("memory_type") is not None:
        memory_type = memory_pb2.MEMORY_TYPE_CUSTOM
        metadata["memory_type"] = payload["memory_type"]
    category = as_category(payload.get("category"))
    if not category and payload.get("category") not in (None, ""):
        metadata["category"] = payload["category"]
    memory_key = as_id(payload.get("memory_key"))
    if "memory_key" in payload and not memory_key:
        metadata["memory_key"] = payload["memory_key"]
    created = parse_time(payload.get("created_at"))
    updated = parse_time(payload.get("updated_at"))
    expiry = _expiry(payload.get("expiration_date"))
    for name, parsed in (("created_at", created), ("updated_at", updated)):
        if parsed is None and payload.get(name) is not None:
            metadata[name] = payload[name]
    if expiry is None and payload.get("expiration_date") is not None:
        metadata["expiration_date"] = payload["expiration_date"]
    memory = memory_pb2.Memory(
        id=memory_id,
        content=content,
        scope=scope,
        memory_type=memory_type,
        category=category or "general",
        metadata=metadata_struct(metadata),
        memory_key=memory_key,
        create_time=timestamp(created or now),
        update_time=timestamp(updated or created or now),
        version=1,
    )
    if expiry is not None:
        memory.expire_time.CopyFrom(timestamp(expiry))
    vector = dense_vector(point) if vectors_embedder else []
    return memory_service_pb2.ExportedMemory(
        memory=memory, vector=vector, embedder_id=vectors_embedder if vector else ""
    )


def _expiry(value: Any) -> datetime | None:
    """mem0 hides a memory once its expiration date is past (UTC), so it
    expires at the start of the next day, UTC."""
    if not isinstance(value, str):
        return None
    try:
        day = date.fromisoformat(value[:10])
    except ValueError:
        return None
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)
