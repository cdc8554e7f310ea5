"""Reads a 10xgraph ``QdrantStore`` collection as memoryd import records.

10xgraph 0.10.3's QdrantStore keeps one Qdrant point per memory: the point id
(a UUID string) and one unnamed dense vector of the store's embedding, and a
flat payload ``{content, user_id, thread_id, memory_type, category, timestamp,
**metadata}`` where ``metadata`` is whatever the caller passed (its memory tools
add ``memory_key``, ``source`` and ``scope``). The mapping:

============================  =================================================
10xgraph payload              memoryd
============================  =================================================
point id                      Memory.id (kept, so a re-run is idempotent)
content                       content (a point without content is skipped)
user_id                       scope.user_id: user memory
thread_id                     scope.thread_id of user memory; of a memory with
                              no user_id it is the agent's id (10xgraph's agent
                              memory tools write the agent id there), so it
                              becomes scope.agent_id: shared agent memory
agent_id, app_id (metadata)   scope.agent_id, scope.app_id
memory_type                   memory_type (episodic, semantic, ... by name;
                              an unknown one is CUSTOM, the original kept in
                              metadata.memory_type)
category                      category ("general" if absent)
timestamp                     create_time and update_time (10xgraph keeps one
                              time, rewritten on update; naive, so read in this
                              machine's zone; absent: the time of the import)
memory_key (metadata)         memory_key
every other key               metadata (keys memoryd refuses are rewritten)
vector                        vector, stamped ``vectors_embedder`` (none if "")
============================  =================================================

Every record has version 1: 10xgraph keeps no version, so a memory changed in
10xgraph after it was imported is not imported again (the server keeps the
version it has). A value a Memory field cannot take stays in metadata. Skipped,
with a warning that counts and names them: a point with no content; one with
neither user_id nor agent/app/thread id (it has no owner in memoryd); one with
an id memoryd cannot take (without its user_id a private memory would become
shared).
"""

from __future__ import annotations

from datetime import UTC, datetime
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

__all__ = ["DEFAULT_COLLECTION", "open_tenxgraph"]

#: QdrantStore's collection when none is configured.
DEFAULT_COLLECTION = "agentflow_memories"

_TYPES = {
    "episodic": memory_pb2.MEMORY_TYPE_EPISODIC,
    "semantic": memory_pb2.MEMORY_TYPE_SEMANTIC,
    "procedural": memory_pb2.MEMORY_TYPE_PROCEDURAL,
    "entity": memory_pb2.MEMORY_TYPE_ENTITY,
    "relationship": memory_pb2.MEMORY_TYPE_RELATIONSHIP,
    "declarative": memory_pb2.MEMORY_TYPE_DECLARATIVE,
    "custom": memory_pb2.MEMORY_TYPE_CUSTOM,
}
_ID_KEYS = ("user_id", "agent_id", "app_id", "thread_id")
#: Payload keys that become Memory fields rather than metadata.
_MAPPED_KEYS = frozenset(
    {"content", "user_id", "thread_id", "agent_id", "app_id", "memory_type", "category"}
    | {"timestamp", "memory_key"}
)


def open_tenxgraph(
    *,
    path: Path | None,
    url: str | None,
    api_key: str | None,
    collection: str,
    vectors_embedder: str,
) -> Source:
    """Opens a QdrantStore collection in a local directory (``path``, the
    store's ``path=``) or on a Qdrant server (``url`` and ``api_key``).

    ``collection`` "" means QdrantStore's default. ``vectors_embedder`` is the
    embedder id the stored vectors are declared to come from: the server keeps
    them if it is its own, and embeds again otherwise; "" sends no vectors.
    Raises SourceError for bad options or a missing path or collection.
    """
    name = collection or DEFAULT_COLLECTION
    where = str(path) if path is not None else str(url)
    client = connect(path=path, url=url, api_key=api_key)
    total = count_points(client, name, where)
    description = f"10xgraph QdrantStore collection {name!r} at {where}"
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
    content = payload.get("content")
    if not isinstance(content, str) or not content.strip():
        skips.add(memory_id, "no content")
        return None
    bad_key = bad_id_key(payload, _ID_KEYS)
    if bad_key is not None:
        skips.add(memory_id, f"a {bad_key} memoryd cannot take (1-128 printable characters)")
        return None
    scope = _scope(payload)
    if scope is None:
        skips.add(memory_id, "no user_id, agent_id, app_id or thread_id")
        return None
    metadata = {k: v for k, v in payload.items() if k not in _MAPPED_KEYS}
    memory_type = _TYPES.get(str(payload.get("memory_type") or "episodic"))
    if memory_type is None:
        memory_type = memory_pb2.MEMORY_TYPE_CUSTOM
        metadata["memory_type"] = payload["memory_type"]
    memory_key = as_id(payload.get("memory_key"))
    if "memory_key" in payload and not memory_key:
        metadata["memory_key"] = payload["memory_key"]
    written = parse_time(payload.get("timestamp"))
    if written is None and payload.get("timestamp") is not None:
        metadata["timestamp"] = payload["timestamp"]
    category = as_category(payload.get("category"))
    if not category and payload.get("category") not in (None, ""):
        metadata["category"] = payload["category"]
    memory = memory_pb2.Memory(
        id=memory_id,
        content=content,
        scope=scope,
        memory_type=memory_type,
        category=category or "general",
        metadata=metadata_struct(metadata),
        memory_key=memory_key,
        create_time=timestamp(written or now),
        update_time=timestamp(written or now),
        version=1,
    )
    vector = dense_vector(point) if vectors_embedder else []
    return memory_service_pb2.ExportedMemory(
        memory=memory, vector=vector, embedder_id=vectors_embedder if vector else ""
    )


def _scope(payload: dict[str, Any]) -> memory_pb2.Scope | None:
    user_id = as_id(payload.get("user_id"))
    agent_id = as_id(payload.get("agent_id"))
    app_id = as_id(payload.get("app_id"))
    thread_id = as_id(payload.get("thread_id"))
    if user_id or agent_id or app_id:
        return memory_pb2.Scope(
            user_id=user_id, agent_id=agent_id, app_id=app_id, thread_id=thread_id
        )
    if thread_id:
        return memory_pb2.Scope(agent_id=thread_id)
    return None
