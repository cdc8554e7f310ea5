"""Scope rules the isolation matrix does not show: another owner's memory is a
missing one, an end user's scope is filled in, and request ids are per principal."""

from __future__ import annotations

import uuid

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import ADMIN, ALICE, CALLERS, code_of

Stub = memory_service_pb2_grpc.MemoryServiceStub
NOT_FOUND = grpc.StatusCode.NOT_FOUND
SYNC = svc.WRITE_MODE_SYNC


def test_a_memory_of_another_user_is_indistinguishable_from_a_missing_one(jwt_stub: Stub):
    text = "alice's locker code is 5512-otter"
    alices = jwt_stub.CreateMemory(
        svc.CreateMemoryRequest(
            memory=pb.Memory(content=text, scope=pb.Scope(user_id=ALICE)), mode=SYNC
        ),
        metadata=ADMIN,
    ).memory
    bob = CALLERS["other_user"]
    own = pb.Scope()  # filled in with bob's user_id
    missing = uuid.uuid4().hex
    for memory_id in (alices.id, missing):
        code, error = code_of(
            jwt_stub.GetMemory, svc.GetMemoryRequest(id=memory_id, scope=own), metadata=bob
        )
        assert code == NOT_FOUND
        assert error.details() == f"memory {memory_id!r} not found in this scope"
        code, error = code_of(
            jwt_stub.DeleteMemory,
            svc.DeleteMemoryRequest(id=memory_id, scope=own, mode=SYNC),
            metadata=bob,
        )
        assert code == NOT_FOUND
    listed = jwt_stub.ListMemories(svc.ListMemoriesRequest(scope=own), metadata=bob)
    hits = jwt_stub.SearchMemories(
        svc.SearchMemoriesRequest(query=alices.content, scope=own), metadata=bob
    )
    counted = jwt_stub.ForgetMemories(
        svc.ForgetMemoriesRequest(scope=own, dry_run=True), metadata=bob
    )
    assert not listed.memories and not hits.results and counted.deleted_count == 0
    # alice's memory is untouched by bob's attempts.
    alice = CALLERS["same_user"]
    got = jwt_stub.GetMemory(svc.GetMemoryRequest(id=alices.id, scope=own), metadata=alice)
    assert got.memory.content == alices.content


def test_an_end_user_acts_in_its_own_scope_without_naming_it(jwt_stub: Stub):
    alice = CALLERS["same_user"]
    created = jwt_stub.CreateMemory(
        svc.CreateMemoryRequest(memory=pb.Memory(content="alice likes tea"), mode=SYNC),
        metadata=alice,
    )
    assert created.memory.scope.user_id == ALICE


def test_request_ids_are_per_principal(jwt_stub: Stub):
    request_id = str(uuid.uuid4())
    for caller, content in (("same_user", "first request"), ("other_user", "another request")):
        response = jwt_stub.CreateMemory(
            svc.CreateMemoryRequest(
                memory=pb.Memory(content=content), mode=SYNC, request_id=request_id
            ),
            metadata=CALLERS[caller],
        )
        assert response.memory.content == content
