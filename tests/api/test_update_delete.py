"""GetMemory, UpdateMemory and DeleteMemory: masks, versions and scope checks."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import field_mask_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import create, expect_error, field_violations, search


def _update(stub, memory: pb.Memory, *paths: str, **fields):
    request = svc.UpdateMemoryRequest(
        mode=svc.WRITE_MODE_SYNC,
        memory=memory,
        update_mask=field_mask_pb2.FieldMask(paths=list(paths)),
        **fields,
    )
    return stub.UpdateMemory(request).memory


def _get(stub, memory_id: str, **scope):
    return stub.GetMemory(svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(**scope))).memory


def test_update_content_reembeds_and_bumps_version(stub, user):
    original = create(stub, "The user's car is a red Fiat", user=user).memory
    change = pb.Memory(
        id=original.id, scope=pb.Scope(user_id=user), content="The user now rides a bicycle to work"
    )
    updated = _update(stub, change, "content")

    assert updated.version == 2
    assert updated.content == "The user now rides a bicycle to work"
    assert updated.create_time == original.create_time
    assert (updated.update_time.seconds, updated.update_time.nanos) > (
        original.update_time.seconds,
        original.update_time.nanos,
    )
    hits = search(stub, "How does the user commute?", user=user)
    assert hits[0].memory.id == original.id and hits[0].memory.content.startswith(
        "The user now rides"
    )
    assert _get(stub, original.id, user_id=user) == updated


def test_update_changes_only_masked_fields(stub, user):
    original = create(stub, "Keeps bees", user=user, category="hobbies", metadata={"a": 1}).memory
    change = pb.Memory(
        id=original.id,
        scope=pb.Scope(user_id=user),
        content="IGNORED",
        category="outdoors",
        memory_type=pb.MEMORY_TYPE_SEMANTIC,
    )
    updated = _update(stub, change, "category", "memory_type")
    assert updated.content == "Keeps bees"
    assert updated.category == "outdoors"
    assert updated.memory_type == pb.MEMORY_TYPE_SEMANTIC
    assert dict(updated.metadata) == {"a": 1}


def test_metadata_merges_by_default_and_replaces_on_request(stub, user):
    original = create(stub, "Has a standing desk", user=user, metadata={"a": 1, "b": "x"}).memory
    change = pb.Memory(id=original.id, scope=pb.Scope(user_id=user))
    change.metadata.update({"b": "y", "c": True})
    merged = _update(stub, change, "metadata")
    assert dict(merged.metadata) == {"a": 1, "b": "y", "c": True}
    replaced = _update(
        stub, change, "metadata", metadata_update_mode=svc.METADATA_UPDATE_MODE_REPLACE
    )
    assert dict(replaced.metadata) == {"b": "y", "c": True}
    assert replaced.version == 3


def test_empty_mask_updates_the_fields_that_are_set(stub, user):
    original = create(stub, "Drinks oat milk", user=user).memory
    updated = _update(
        stub, pb.Memory(id=original.id, scope=pb.Scope(user_id=user), category="diet")
    )
    assert updated.category == "diet" and updated.content == "Drinks oat milk"


def test_unknown_mask_path_or_nothing_to_update_is_rejected(stub, user):
    original = create(stub, "Plays chess", user=user).memory
    for paths in (["memory_key"], ["scope.user_id"], []):
        error = expect_error(
            grpc.StatusCode.INVALID_ARGUMENT,
            _update,
            stub,
            pb.Memory(id=original.id, scope=pb.Scope(user_id=user)),
            *paths,
        )
        assert field_violations(error) == ["update_mask"]
    assert _get(stub, original.id, user_id=user).version == 1


def test_stale_expected_version_is_aborted_and_changes_nothing(stub, user):
    original = create(stub, "Speaks Polish", user=user).memory
    change = pb.Memory(id=original.id, scope=pb.Scope(user_id=user), content="Speaks Czech")
    _update(stub, change, "content", expected_version=1)
    error = expect_error(
        grpc.StatusCode.ABORTED, _update, stub, change, "content", expected_version=1
    )
    assert "version 2" in error.details()
    assert _get(stub, original.id, user_id=user).version == 2


def test_update_of_missing_or_foreign_memory_is_not_found(stub, user):
    theirs = create(stub, "Private to someone else", user=f"{user}-b").memory
    for memory_id in ("does-not-exist", theirs.id):
        change = pb.Memory(id=memory_id, scope=pb.Scope(user_id=user), content="hijack")
        expect_error(grpc.StatusCode.NOT_FOUND, _update, stub, change, "content")
    assert _get(stub, theirs.id, user_id=f"{user}-b").content == "Private to someone else"


def test_get_in_another_scope_is_not_found_like_a_missing_one(stub, user):
    mine = create(stub, "My secret recipe uses cardamom", user=user).memory
    foreign = expect_error(grpc.StatusCode.NOT_FOUND, _get, stub, mine.id, user_id=f"{user}-b")
    missing = expect_error(grpc.StatusCode.NOT_FOUND, _get, stub, "no-such-id", user_id=f"{user}-b")
    assert foreign.details().replace(mine.id, "X") == missing.details().replace("no-such-id", "X")
    shared = expect_error(grpc.StatusCode.NOT_FOUND, _get, stub, mine.id, agent_id="some-agent")
    assert "cardamom" not in shared.details()


def test_shared_memory_is_addressed_by_agent_and_app(stub, user):
    agent = f"agent-{user}"
    memory = create(stub, "Escalate outages to on-call", agent_id=agent, app_id="ops").memory
    assert (
        _get(stub, memory.id, agent_id=agent, app_id="ops").content == "Escalate outages to on-call"
    )
    expect_error(grpc.StatusCode.NOT_FOUND, _get, stub, memory.id, agent_id=agent, app_id="web")
    expect_error(
        grpc.StatusCode.NOT_FOUND, _get, stub, memory.id, user_id=user, agent_id=agent, app_id="ops"
    )


def test_delete_removes_one_memory(stub, user):
    keep = create(stub, "Likes jazz", user=user).memory
    gone = create(stub, "Owns a kayak", user=user).memory
    stub.DeleteMemory(
        svc.DeleteMemoryRequest(mode=svc.WRITE_MODE_SYNC, id=gone.id, scope=pb.Scope(user_id=user))
    )
    expect_error(grpc.StatusCode.NOT_FOUND, _get, stub, gone.id, user_id=user)
    assert _get(stub, keep.id, user_id=user).content == "Likes jazz"
    assert [h.memory.id for h in search(stub, "boats", user=user)] == [keep.id]
    expect_error(
        grpc.StatusCode.NOT_FOUND,
        stub.DeleteMemory,
        svc.DeleteMemoryRequest(mode=svc.WRITE_MODE_SYNC, id=gone.id, scope=pb.Scope(user_id=user)),
    )


def test_delete_in_another_scope_is_not_found_and_keeps_the_memory(stub, user):
    mine = create(stub, "Runs marathons", user=user).memory
    expect_error(
        grpc.StatusCode.NOT_FOUND,
        stub.DeleteMemory,
        svc.DeleteMemoryRequest(
            mode=svc.WRITE_MODE_SYNC, id=mine.id, scope=pb.Scope(user_id=f"{user}-b")
        ),
    )
    assert _get(stub, mine.id, user_id=user).content == "Runs marathons"


def test_delete_with_stale_version_is_aborted(stub, user):
    mine = create(stub, "Collects stamps", user=user).memory
    expect_error(
        grpc.StatusCode.ABORTED,
        stub.DeleteMemory,
        svc.DeleteMemoryRequest(
            mode=svc.WRITE_MODE_SYNC, id=mine.id, scope=pb.Scope(user_id=user), expected_version=7
        ),
    )
    assert _get(stub, mine.id, user_id=user).version == 1


@pytest.mark.parametrize("mode", [svc.WRITE_MODE_SYNC, svc.WRITE_MODE_ASYNC])
@pytest.mark.parametrize("version", [0, -3])
def test_an_expected_version_no_memory_can_have_is_invalid_argument(stub, user, mode, version):
    mine = create(stub, "Grows tomatoes", user=user).memory
    scope = pb.Scope(user_id=user)
    change = pb.Memory(id=mine.id, scope=scope, content="Grows peppers")
    requests = [
        (
            stub.UpdateMemory,
            svc.UpdateMemoryRequest(memory=change, expected_version=version, mode=mode),
        ),
        (
            stub.DeleteMemory,
            svc.DeleteMemoryRequest(id=mine.id, scope=scope, expected_version=version, mode=mode),
        ),
    ]
    for call, request in requests:
        error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request)
        assert field_violations(error) == ["expected_version"]
        assert f"got {version}" in error.details()
    assert _get(stub, mine.id, user_id=user) == mine


@pytest.mark.parametrize("bad_id", ["", "x" * 129, "tab\there", " padded"])
def test_bad_ids_are_rejected(stub, user, bad_id):
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, _get, stub, bad_id, user_id=user)
    assert field_violations(error) == ["id"]
