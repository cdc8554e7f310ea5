"""The isolation matrix: every RPC x every caller, with real tokens over real gRPC.

Rows are the RPCs, against two targets: alice's user memory and the shared
memory of agent "bot". Columns are the callers of conftest.CALLERS. Each cell
has one expected status, and no failing cell reveals the content or the id of
the memory it aimed at.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf import field_mask_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import ADMIN, AGENT, ALICE, CALLERS, code_of

Stub = memory_service_pb2_grpc.MemoryServiceStub
OK = grpc.StatusCode.OK
DENIED = grpc.StatusCode.PERMISSION_DENIED
NOT_FOUND = grpc.StatusCode.NOT_FOUND
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
SYNC = svc.WRITE_MODE_SYNC

RPCS = (
    "CreateMemory",
    "BatchCreateMemories",
    "GetMemory",
    "ListMemories",
    "UpdateMemory",
    "DeleteMemory",
    "SearchMemories",
    "ForgetMemories",
    "GetWriteStatus",
    "Preload",
)
KIND = {
    "CreateMemory": "write",
    "BatchCreateMemories": "write",
    "UpdateMemory": "write",
    "DeleteMemory": "write",
    "ForgetMemories": "write",
    "GetMemory": "read",
    "ListMemories": "read",
    "SearchMemories": "read",
    "GetWriteStatus": "status",
    "Preload": "preload",
}
#: Who may do what, per target; every other authenticated caller is refused.
ALLOWED = {
    "user": {
        "write": {"same_user", "service_as_user"},
        "read": {"same_user", "service_as_user"},
        "status": {"same_user", "service_as_user"},
        "preload": {"same_user", "service_as_user"},
    },
    "agent": {
        "write": {"agent_memory_writer"},
        # alice's token grants agent_memory:read:bot.
        "read": {"same_user", "agent_memory_writer"},
        "status": {"same_user", "agent_memory_writer"},
        # Preload reads alice's memory and bot's: only alice may do both.
        "preload": {"same_user"},
    },
}
BAD_CREDENTIALS = {"no_credentials", "expired_token", "wrong_signature"}


def expected(rpc: str, target: str, caller: str) -> grpc.StatusCode:
    if caller in BAD_CREDENTIALS:
        return UNAUTHENTICATED
    if caller in ALLOWED[target][KIND[rpc]]:
        return OK
    # A write token of a scope the caller may not read is no token at all.
    return NOT_FOUND if rpc == "GetWriteStatus" else DENIED


@dataclass(frozen=True)
class Seed:
    memory_id: str
    content: str
    write_token: str


def _scope(target: str) -> pb.Scope:
    return pb.Scope(user_id=ALICE) if target == "user" else pb.Scope(agent_id=AGENT)


def _create(stub: Stub, target: str, content: str) -> svc.CreateMemoryResponse:
    request = svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=_scope(target)), mode=SYNC
    )
    response: svc.CreateMemoryResponse = stub.CreateMemory(request, metadata=ADMIN)
    return response


@pytest.fixture(scope="module")
def seeds(jwt_stub: Stub) -> dict[str, Seed]:
    result = {}
    for target, text in (
        ("user", "alice's vault code is 4471-zebra"),
        ("agent", "bot escalates refunds over 900 dollars to tier-two"),
    ):
        created = _create(jwt_stub, target, text)
        result[target] = Seed(created.memory.id, text, created.write_token)
    return result


def _request(stub: Stub, rpc: str, target: str, seed: Seed) -> Any:
    scope = _scope(target)
    fresh = f"matrix {uuid.uuid4().hex}"
    match rpc:
        case "CreateMemory":
            return svc.CreateMemoryRequest(memory=pb.Memory(content=fresh, scope=scope), mode=SYNC)
        case "BatchCreateMemories":
            item = svc.CreateMemoryRequest(memory=pb.Memory(content=fresh, scope=scope))
            return svc.BatchCreateMemoriesRequest(requests=[item], mode=SYNC)
        case "GetMemory":
            return svc.GetMemoryRequest(id=seed.memory_id, scope=scope)
        case "ListMemories":
            return svc.ListMemoriesRequest(scope=scope)
        case "UpdateMemory":
            victim = _create(stub, target, fresh).memory.id
            return svc.UpdateMemoryRequest(
                memory=pb.Memory(id=victim, scope=scope, content=fresh + " changed"),
                update_mask=field_mask_pb2.FieldMask(paths=["content"]),
                mode=SYNC,
            )
        case "DeleteMemory":
            victim = _create(stub, target, fresh).memory.id
            return svc.DeleteMemoryRequest(id=victim, scope=scope, mode=SYNC)
        case "SearchMemories":
            return svc.SearchMemoriesRequest(query=seed.content, scope=scope)
        case "ForgetMemories":
            # Selects nothing: the cell tests the permission, not the deletion.
            return svc.ForgetMemoriesRequest(scope=scope, categories=[uuid.uuid4().hex], mode=SYNC)
        case "GetWriteStatus":
            return svc.GetWriteStatusRequest(write_token=seed.write_token)
        case "Preload":
            agent = pb.Scope(agent_id=AGENT) if target == "agent" else None
            return svc.PreloadRequest(
                query=seed.content, user_scope=pb.Scope(user_id=ALICE), agent_scope=agent
            )
    raise AssertionError(rpc)


def _call(stub: Stub, rpc: str, request: Any, metadata: Any) -> Any:
    if rpc == "Preload":
        return list(stub.Preload(request, metadata=metadata))
    return getattr(stub, rpc)(request, metadata=metadata)


@pytest.mark.parametrize("caller", list(CALLERS))
@pytest.mark.parametrize("target", ["user", "agent"])
@pytest.mark.parametrize("rpc", RPCS)
def test_isolation_matrix(jwt_stub: Stub, seeds: dict[str, Seed], rpc, target, caller):
    seed = seeds[target]
    request = _request(jwt_stub, rpc, target, seed)
    code, outcome = code_of(_call, jwt_stub, rpc, request, CALLERS[caller])
    assert code == expected(rpc, target, caller), outcome
    if code != OK:
        leaked = f"{outcome.details()} {outcome.trailing_metadata()}"
        assert seed.content not in leaked and "4471" not in leaked and "900" not in leaked
        if rpc != "GetWriteStatus":  # the token is what the caller sent
            assert seed.memory_id not in leaked


def test_every_rpc_is_in_the_matrix():
    service = svc.DESCRIPTOR.services_by_name["MemoryService"]
    assert {m.name for m in service.methods} == set(RPCS)


def test_a_memory_of_another_user_is_indistinguishable_from_a_missing_one(
    jwt_stub: Stub, seeds: dict[str, Seed]
):
    bob = CALLERS["other_user"]
    own = pb.Scope()  # filled in with bob's user_id
    missing = uuid.uuid4().hex
    for memory_id in (seeds["user"].memory_id, missing):
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
        svc.SearchMemoriesRequest(query=seeds["user"].content, scope=own), metadata=bob
    )
    counted = jwt_stub.ForgetMemories(
        svc.ForgetMemoriesRequest(scope=own, dry_run=True), metadata=bob
    )
    assert not listed.memories and not hits.results and counted.deleted_count == 0
    # alice's memory is untouched by bob's attempts.
    alice = CALLERS["same_user"]
    got = jwt_stub.GetMemory(
        svc.GetMemoryRequest(id=seeds["user"].memory_id, scope=own), metadata=alice
    )
    assert got.memory.content == seeds["user"].content


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
