"""What the fuzz tests share: the scopes they may touch, and how they see the whole data set.

Every owner id a fuzzed request carries comes from a fixed pool, or is one
the server must reject. So the data set is exactly what ListMemories shows
for the pool's scopes, and at the end the engine's own files, scrolled point
by point after the server stops, must hold nothing else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qdrant_edge as qe

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import AUDIENCE, ISSUER, SECRET

Stub = memory_service_pb2_grpc.MemoryServiceStub
Metadata = tuple[tuple[str, str], ...]

#: The environment of a server with JWT auth on, trusting authkit's tokens.
JWT_ENV = {
    "MEMORYD_AUTH_MODE": "jwt",
    "MEMORYD_JWT_SECRET": SECRET,
    "MEMORYD_JWT_AUDIENCE": AUDIENCE,
    "MEMORYD_JWT_ISSUER": ISSUER,
}
USERS = ("fuzz-user-1", "fuzz-user-2")
AGENTS = ("fuzz-agent-1", "fuzz-agent-2")
APPS = ("fuzz-app-1",)
#: Owner ids the server must refuse (too long, control or format characters,
#: padding); a fuzzed scope holds one of these or a pool id, never another.
REJECTED_IDS = ("x" * 129, "\x00", " lead", "trail ", "tab\tid", "\u202e", "line\nbreak")
#: Together these reads see every memory of a pool owner: a user read sees all
#: of the user's memories, a shared read all shared ones of that agent (any
#: app) or app (any agent).
LISTED_SCOPES = (
    *(pb.Scope(user_id=u) for u in USERS),
    *(pb.Scope(agent_id=a) for a in AGENTS),
    *(pb.Scope(app_id=a) for a in APPS),
)
SEED_SCOPES = (
    pb.Scope(user_id=USERS[0]),
    pb.Scope(user_id=USERS[0], agent_id=AGENTS[0], thread_id="t-1"),
    pb.Scope(user_id=USERS[1], app_id=APPS[0]),
    pb.Scope(agent_id=AGENTS[0]),
    pb.Scope(agent_id=AGENTS[1], app_id=APPS[0]),
    pb.Scope(app_id=APPS[0]),
)
SEED_IDS = ("seed-0", "seed-1", "seed-2", "seed-3")
#: Distinct enough that deduplication keeps them apart (near-duplicates merge).
SEED_CONTENTS = (
    "The user likes hiking in the mountains on weekends",
    "Prefers green tea over coffee in the morning",
    "Works as a nurse on night shifts at the city hospital",
    "Their timezone is UTC-5 and they live in Toronto",
)

type Snapshot = dict[str, tuple[Any, ...]]


def seed(stub: Stub, metadata: Metadata = (), present: Snapshot | None = None) -> list[str]:
    """(Re)writes the seed memories of every seed scope, or only those missing
    from ``present``; returns their write tokens.

    Seeds have no memory_key: a fuzzed create may have taken any key since."""
    tokens = []
    for scope in SEED_SCOPES:
        for i, (memory_id, content) in enumerate(zip(SEED_IDS, SEED_CONTENTS, strict=True)):
            if present is not None and f"{_owner(scope)}/{memory_id}" in present:
                continue
            memory = pb.Memory(
                content=content,
                scope=scope,
                category="seed",
            )
            memory.metadata.update({"a": i, "n": "x"})
            response = stub.CreateMemory(
                svc.CreateMemoryRequest(
                    memory=memory, memory_id=memory_id, mode=svc.WRITE_MODE_SYNC
                ),
                metadata=metadata,
                timeout=30,
            )
            tokens.append(response.write_token)
    return tokens


def first_page_tokens(stub: Stub, metadata: Metadata = ()) -> list[str]:
    """Real ListMemories page tokens (one per seeded scope), for fuzzing page_token."""
    tokens = []
    for scope in SEED_SCOPES:
        page = stub.ListMemories(
            svc.ListMemoriesRequest(scope=scope, page_size=1), metadata=metadata, timeout=30
        )
        tokens.append(page.next_page_token)
    return [t for t in tokens if t]


def data_set(stub: Stub, metadata: Metadata = (), consistency_token: str = "") -> Snapshot:
    """Every memory of every pool owner, each field a client can see, by a full
    paged ListMemories of each listed scope. ``consistency_token`` makes each
    read wait for that write (and so for every write journaled before it)."""
    snapshot: Snapshot = {}
    for scope in LISTED_SCOPES:
        page_token = ""
        while True:
            page = stub.ListMemories(
                svc.ListMemoriesRequest(
                    scope=scope,
                    page_size=1000,
                    page_token=page_token,
                    consistency_token=consistency_token,
                ),
                metadata=metadata,
                timeout=30,
            )
            for memory in page.memories:
                snapshot[f"{_owner(memory.scope)}/{memory.id}"] = _visible(memory)
            page_token = page.next_page_token
            if not page_token:
                break
    return snapshot


def _owner(scope: pb.Scope) -> str:
    return f"user:{scope.user_id}" if scope.user_id else f"shared:{scope.agent_id}:{scope.app_id}"


def _visible(memory: pb.Memory) -> tuple[Any, ...]:
    return (
        memory.content,
        memory.scope.SerializeToString(deterministic=True),
        memory.memory_type,
        memory.category,
        memory.memory_key,
        memory.metadata.SerializeToString(deterministic=True),
        memory.version,
        memory.update_time.ToMicroseconds(),
    )


def stored_owners_and_ids(data_dir: Path) -> set[str]:
    """The ``owner/id`` of every point in the engine's shard under ``data_dir``,
    read with Qdrant Edge itself; the server that owned it must have stopped."""
    shard = qe.EdgeShard.load(str(data_dir / "shard"))
    try:
        found: set[str] = set()
        offset = None
        while True:
            records, offset = shard.scroll(
                qe.ScrollRequest(offset=offset, limit=1000, with_payload=True)
            )
            for record in records:
                payload = record.payload or {}
                scope = pb.Scope(
                    user_id=payload["user_id"],
                    agent_id=payload["agent_id"],
                    app_id=payload["app_id"],
                )
                found.add(f"{_owner(scope)}/{payload['memory_id']}")
            if offset is None:
                return found
    finally:
        shard.close()


def ok_share(counts: dict[str, int]) -> float:
    total = sum(counts.values())
    return counts.get("OK", 0) / total if total else 0.0


def write_token_of(response: Any) -> str:
    """The write_token of a write's response, or "" for a read."""
    return getattr(response, "write_token", "") if hasattr(response, "DESCRIPTOR") else ""
