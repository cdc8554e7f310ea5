"""Memories for the CLI tests: every field a memory can carry, in each kind of scope."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from google.protobuf import json_format

from memoryd_client import MemorydClient, pb, struct_from_dict, svc

SYNC = svc.WRITE_MODE_SYNC


def seed_user(client: MemorydClient, user: str) -> list[str]:
    """Four memories of ``user``: with a key, type, category and nested metadata;
    one with an expiry a day ahead; one updated once (version 2); a plain one.
    Returns their ids."""
    scope = pb.Scope(user_id=user)
    keyed = pb.Memory(
        content="The user's timezone is UTC-5",
        scope=scope,
        memory_key="timezone",
        memory_type=pb.MEMORY_TYPE_SEMANTIC,
        category="preferences",
        metadata=struct_from_dict({"source": "chat", "turn": 3, "tags": ["tz", True, None]}),
    )
    expiring = pb.Memory(content="The user is travelling to Lisbon this week", scope=scope)
    expiring.expire_time.FromDatetime(datetime.now(UTC) + timedelta(days=1))
    ids = [
        _create(client, keyed),
        _create(client, expiring),
        _create(client, pb.Memory(content="Prefers short answers", scope=scope)),
    ]
    updated = _create(client, pb.Memory(content="Uses vim", scope=scope, category="tools"))
    change = svc.UpdateMemoryRequest(
        memory=pb.Memory(id=updated, scope=scope, content="Uses neovim"), mode=SYNC
    )
    change.update_mask.paths.append("content")
    assert client.update_memory(change).memory.version == 2
    return [*ids, updated]


def seed_shared(client: MemorydClient, agent: str, app: str) -> list[str]:
    """One shared memory of ``agent`` and one of ``app``; returns their ids."""
    return [
        _create(
            client, pb.Memory(content="Escalate refunds over $500", scope=pb.Scope(agent_id=agent))
        ),
        _create(
            client, pb.Memory(content="The app's support hours are 9-5", scope=pb.Scope(app_id=app))
        ),
    ]


def _create(client: MemorydClient, memory: pb.Memory) -> str:
    response = client.create_memory(svc.CreateMemoryRequest(memory=memory, mode=SYNC))
    return response.memory.id


def read_jsonl(path: Path) -> dict[str, svc.ExportedMemory]:
    """The records of an export file, by memory id."""
    records = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json_format.Parse(line, svc.ExportedMemory())
        records[record.memory.id] = record
    return records
