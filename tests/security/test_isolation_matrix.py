"""The isolation matrix: every RPC x every target x every caller, in every auth mode.

Targets: alice's user memory, the shared memory of agent "bot", and the shared
memory of app "console". Callers: the roles of principals.py, as JWTs, API
keys and mTLS client certificates, and credentials each mode refuses. Each cell
has one expected status, and then:
- an allowed read returns the target's memory, and only memories of the target;
- an allowed write changes exactly what it asked for, in the target;
- a refused call changes nothing, sends no Preload event before its error, and
  reveals neither the content nor the id of the memory it aimed at.
Update, Delete and Forget cells aim at a memory made for the cell, so an
allowed Forget really deletes one memory and a refused one really spares it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf import field_mask_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from authkit import ALICE
from principals import (
    BAD_CREDENTIALS,
    MODES,
    ROLES,
    TARGETS,
    Matrix,
    Realm,
    Seed,
    in_target,
    jwt_metadata,
    start_api_key_realm,
    start_mtls_realm,
    stored,
    target_scope,
)
from support import ServerProcess

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
    "ForgetMemories": "forget",
    "GetMemory": "read",
    "ListMemories": "read",
    "SearchMemories": "read",
    "GetWriteStatus": "status",
    "Preload": "preload",
}
_SHARED_READERS = {"agent_memory_writer", "admin"}
#: Who may do what, per target; every other authenticated caller is refused.
ALLOWED = {
    "user": {
        "write": {"same_user", "service_as_user"},
        "forget": {"same_user", "service_as_user", "admin"},
        "read": {"same_user", "service_as_user"},
        "status": {"same_user", "service_as_user"},
        "preload": {"same_user", "service_as_user"},
    },
    "agent": {
        "write": {"agent_memory_writer"},
        "forget": {"agent_memory_writer", "admin"},
        # alice holds agent_memory:read:bot.
        "read": {"same_user", *_SHARED_READERS},
        "status": {"same_user", *_SHARED_READERS},
        # Preload reads alice's memory and the shared one: only alice may do both.
        "preload": {"same_user"},
    },
    "app": {
        "write": {"agent_memory_writer"},
        "forget": {"agent_memory_writer", "admin"},
        # alice and app_reader hold app_memory:read:console.
        "read": {"same_user", "app_reader", *_SHARED_READERS},
        "status": {"same_user", "app_reader", *_SHARED_READERS},
        "preload": {"same_user"},
    },
}


def expected(rpc: str, target: str, caller: str) -> grpc.StatusCode:
    if caller not in ROLES:
        return UNAUTHENTICATED
    if caller in ALLOWED[target][KIND[rpc]]:
        return OK
    # A write token of a scope the caller may not read is no token at all.
    return NOT_FOUND if rpc == "GetWriteStatus" else DENIED


@pytest.fixture(scope="module")
def jwt_matrix(jwt_server: ServerProcess) -> Iterator[Matrix]:
    realm = Realm("jwt", jwt_server, jwt_metadata())
    yield Matrix(realm)
    realm.close()


@pytest.fixture(scope="module")
def api_key_matrix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matrix]:
    realm = start_api_key_realm(tmp_path_factory.mktemp("matrix-api-key"))
    yield Matrix(realm)
    realm.close()
    assert realm.server.stop() == 0, "".join(realm.server.log)


@pytest.fixture(scope="module")
def mtls_matrix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matrix]:
    realm = start_mtls_realm(tmp_path_factory.mktemp("matrix-mtls"))
    yield Matrix(realm)
    realm.close()
    assert realm.server.stop() == 0, "".join(realm.server.log)


@dataclass
class Cell:
    rpc: str
    target: str
    request: Any
    fresh: str = ""
    victim: pb.Memory | None = None


def _cell(matrix: Matrix, rpc: str, target: str) -> Cell:
    scope, seed = target_scope(target), matrix.seeds[target]
    fresh = f"matrix {uuid.uuid4().hex}"
    cell = Cell(rpc, target, None, fresh)
    match rpc:
        case "CreateMemory":
            cell.request = svc.CreateMemoryRequest(
                memory=pb.Memory(content=fresh, scope=scope), mode=SYNC
            )
        case "BatchCreateMemories":
            items = [
                svc.CreateMemoryRequest(
                    memory=pb.Memory(content=f"{fresh} {i}", scope=scope), dedup_threshold=1.0
                )
                for i in range(2)
            ]
            cell.request = svc.BatchCreateMemoriesRequest(requests=items, mode=SYNC)
        case "GetMemory":
            cell.request = svc.GetMemoryRequest(id=seed.memory.id, scope=scope)
        case "ListMemories":
            cell.request = svc.ListMemoriesRequest(scope=scope, page_size=1000)
        case "UpdateMemory":
            cell.victim = matrix.victim(target)
            cell.request = svc.UpdateMemoryRequest(
                memory=pb.Memory(id=cell.victim.id, scope=scope, content=fresh),
                update_mask=field_mask_pb2.FieldMask(paths=["content"]),
                mode=SYNC,
            )
        case "DeleteMemory":
            cell.victim = matrix.victim(target)
            cell.request = svc.DeleteMemoryRequest(id=cell.victim.id, scope=scope, mode=SYNC)
        case "SearchMemories":
            cell.request = svc.SearchMemoriesRequest(query=seed.memory.content, scope=scope)
        case "ForgetMemories":
            cell.victim = matrix.victim(target)
            cell.request = svc.ForgetMemoriesRequest(
                scope=scope, categories=[cell.victim.category], mode=SYNC
            )
        case "GetWriteStatus":
            cell.request = svc.GetWriteStatusRequest(write_token=seed.write_token)
        case "Preload":
            cell.request = svc.PreloadRequest(
                query=seed.memory.content,
                user_scope=pb.Scope(user_id=ALICE),
                agent_scope=None if target == "user" else scope,
            )
    return cell


def _call(matrix: Matrix, caller: str, cell: Cell) -> tuple[grpc.StatusCode, Any, list[Any]]:
    """The status, the response (or error) and, for Preload, every event
    received, those before an error included."""
    realm = matrix.realm
    method = getattr(realm.stub(caller), cell.rpc)
    metadata = realm.metadata.get(caller, ())
    events: list[Any] = []
    try:
        if cell.rpc != "Preload":
            return OK, method(cell.request, metadata=metadata, timeout=30), events
        for event in method(cell.request, metadata=metadata, timeout=30):
            events.append(event)
    except grpc.RpcError as error:
        return error.code(), error, events
    return OK, None, events


CELLS = [(mode, caller) for mode in MODES for caller in [*ROLES, *BAD_CREDENTIALS[mode]]]


@pytest.mark.parametrize(("mode", "caller"), CELLS, ids=[f"{m}-{c}" for m, c in CELLS])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("rpc", RPCS)
def test_isolation_matrix(request, rpc, target, mode, caller):
    matrix: Matrix = request.getfixturevalue(f"{mode}_matrix")
    cell = _cell(matrix, rpc, target)
    before = matrix.snapshot() if KIND[rpc] in ("write", "forget") else None

    code, outcome, events = _call(matrix, caller, cell)

    assert code == expected(rpc, target, caller), outcome
    if code == OK:
        _check_allowed(matrix, cell, outcome, events, before)
        return
    assert events == [], "a refused Preload sent events before its error"
    seed = matrix.seeds[target].memory
    leaked = f"{outcome.details()} {outcome.trailing_metadata()}"
    assert seed.content not in leaked and not any(s in leaked for s in ("4471", "900", "3388"))
    if rpc != "GetWriteStatus":  # the token is what the caller sent
        assert seed.id not in leaked
    if before is not None:
        assert matrix.snapshot() == before, "a refused write changed the data"


def _check_allowed(matrix: Matrix, cell: Cell, outcome: Any, events: list[Any], before: Any):
    target, seed = cell.target, matrix.seeds[cell.target]
    match cell.rpc:
        case "GetMemory":
            assert outcome.memory == seed.memory
        case "ListMemories":
            assert all(in_target(m.scope, target) for m in outcome.memories)
            assert seed.memory.id in {m.id for m in outcome.memories}
        case "SearchMemories":
            assert all(in_target(r.memory.scope, target) for r in outcome.results)
            assert outcome.results[0].memory.id == seed.memory.id
        case "GetWriteStatus":
            assert outcome.state == svc.WRITE_STATE_APPLIED
            assert outcome.create_memory.memory == seed.memory
        case "Preload":
            _check_preload(cell, events, seed)
        case _:
            _check_write(matrix, cell, outcome, before)


def _check_preload(cell: Cell, events: list[Any], seed: Seed) -> None:
    hits = {e.hits.scope: list(e.hits.results) for e in events if e.HasField("hits")}
    assert all(in_target(r.memory.scope, "user") for r in hits[svc.PRELOAD_SCOPE_USER])
    if cell.target != "user":
        shared = hits[svc.PRELOAD_SCOPE_AGENT]
        assert shared and all(in_target(r.memory.scope, cell.target) for r in shared)
    (context,) = [e.context.text for e in events if e.HasField("context")]
    assert seed.memory.content in context


def _check_write(matrix: Matrix, cell: Cell, outcome: Any, before: Any) -> None:
    """The write changed exactly what it asked for, in the target, and nothing else."""
    after = matrix.snapshot()
    changed = dict(before[cell.target])
    match cell.rpc:
        case "CreateMemory" | "BatchCreateMemories":
            results = [outcome] if cell.rpc == "CreateMemory" else list(outcome.results)
            assert [r.outcome for r in results] == [svc.WRITE_OUTCOME_CREATED] * len(results)
            for result in results:
                assert in_target(result.memory.scope, cell.target)
                assert result.memory.content.startswith(cell.fresh)
                changed[result.memory.id] = stored(result.memory)
        case "UpdateMemory":
            assert cell.victim is not None and outcome.memory.content == cell.fresh
            changed[cell.victim.id] = stored(outcome.memory)
            assert changed[cell.victim.id][:2] == (cell.fresh, 2)
        case "DeleteMemory" | "ForgetMemories":
            assert cell.victim is not None
            del changed[cell.victim.id]
            if cell.rpc == "ForgetMemories":
                assert outcome.deleted_count == 1
    assert after == {**before, cell.target: changed}


def test_every_rpc_is_in_the_matrix():
    service = svc.DESCRIPTOR.services_by_name["MemoryService"]
    assert {m.name for m in service.methods} == set(RPCS)
