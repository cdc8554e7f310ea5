"""Nested metadata: what the server accepts, every client's parser can read back.

Python's and Java's protobuf parsers stop at 100 message levels, and each level
of a metadata object costs three of them, so a memory stored 33 levels deep was
accepted and then broke every search, preload and export that returned it (the
Python client answered INTERNAL, "Exception deserializing response").
"""

from __future__ import annotations

import uuid
from typing import Any

import grpc
from google.protobuf import json_format

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import create, expect_error, field_violations, list_all, new_memory, open_watch

DEEPEST = 20


def nested_objects(depth: int) -> dict[str, Any]:
    """``depth`` objects, each the only value of the one before."""
    value: Any = "bottom"
    for level in reversed(range(depth)):
        value = {f"level{level}": value}
    return dict(value)


def objects_and_lists(depth: int) -> dict[str, Any]:
    """``depth`` levels, objects and lists taking turns, beside a shallow key."""
    value: Any = 7
    for level in reversed(range(1, depth)):
        value = {f"level{level}": value} if level % 2 == 0 else [value, "sibling"]
    return {"shallow": True, "deep": value}


def test_the_deepest_metadata_allowed_reads_back_through_every_rpc(stub, user):
    scope = pb.Scope(user_id=user)
    metadata = nested_objects(DEEPEST)
    stored = create(stub, "A note carrying deeply nested settings", user=user, metadata=metadata)
    memory = stored.memory
    assert json_format.MessageToDict(memory.metadata) == metadata

    got = stub.GetMemory(svc.GetMemoryRequest(id=memory.id, scope=scope)).memory
    (listed,) = list_all(stub, scope)
    search = svc.SearchMemoriesRequest(query="nested settings", scope=scope)
    (hit,) = stub.SearchMemories(search).results
    preloaded = [
        result.memory
        for event in stub.Preload(svc.PreloadRequest(query="nested settings", user_scope=scope))
        if event.HasField("hits")
        for result in event.hits.results
    ]
    exported = [
        record
        for response in stub.ExportMemories(svc.ExportMemoriesRequest(scope=scope))
        for record in response.memories
    ]
    assert got == listed == hit.memory == memory
    assert preloaded == [memory]
    assert [record.memory for record in exported] == [memory]
    assert _watched(stub, scope) == memory

    copy = svc.ExportedMemory()
    copy.CopyFrom(exported[0])
    copy.memory.id = str(uuid.uuid4())
    copy.memory.scope.user_id = f"{user}-copy"
    stub.ImportMemories(iter([svc.ImportMemoriesRequest(memories=[copy])]), timeout=60)
    (imported,) = list_all(stub, pb.Scope(user_id=f"{user}-copy"))
    assert json_format.MessageToDict(imported.metadata) == metadata


def test_objects_and_lists_at_the_deepest_level_are_accepted(stub, user):
    metadata = objects_and_lists(DEEPEST)
    stored = create(stub, "Lists inside objects inside lists", user=user, metadata=metadata)
    (listed,) = list_all(stub, pb.Scope(user_id=user))
    assert json_format.MessageToDict(stored.memory.metadata) == metadata
    assert json_format.MessageToDict(listed.metadata) == metadata


def test_deeper_metadata_is_invalid_argument_and_changes_nothing(stub, user):
    scope = pb.Scope(user_id=user)
    for too_deep in (nested_objects(DEEPEST + 1), objects_and_lists(DEEPEST + 1)):
        error = expect_error(
            grpc.StatusCode.INVALID_ARGUMENT,
            stub.CreateMemory,
            new_memory("Too deep to keep", user=user, metadata=too_deep),
        )
        assert field_violations(error) == ["memory.metadata"]
        assert f"nests {DEEPEST + 1} levels deep" in error.details()
        assert f"at most {DEEPEST}" in error.details()

    kept = create(stub, "A memory whose metadata stays shallow", user=user, metadata={"v": 1})
    update = pb.Memory(id=kept.memory.id, scope=scope)
    update.metadata.update(nested_objects(DEEPEST + 1))
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.UpdateMemory,
        svc.UpdateMemoryRequest(memory=update, mode=svc.WRITE_MODE_SYNC),
    )
    assert field_violations(error) == ["memory.metadata"]

    record = svc.ExportedMemory(memory=pb.Memory(id=str(uuid.uuid4()), content="x", scope=scope))
    record.memory.version = 1
    record.memory.create_time.CopyFrom(kept.memory.create_time)
    record.memory.update_time.CopyFrom(kept.memory.create_time)
    record.memory.metadata.update(nested_objects(DEEPEST + 1))
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.ImportMemories,
        iter([svc.ImportMemoriesRequest(memories=[record])]),
    )
    assert field_violations(error) == ["memories[0].memory.metadata"]
    assert list_all(stub, scope) == [kept.memory]


def _watched(stub, scope: pb.Scope) -> pb.Memory:
    """The memory of the first change the watch of ``scope`` streams from the start."""
    watch = open_watch(stub, scope, start_after_sequence=0)
    try:
        (change,) = watch.changes(1)
    finally:
        watch.cancel()
    return change.memory
