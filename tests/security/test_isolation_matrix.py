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
The streams: a refused Preload, Export or Watch sends nothing before its error;
a Watch never ends by itself, so its cell reads the first response and cancels.
The operator's RPCs (GetStats, StartReembed, GetReembedStatus) aim at no
scope: test_admin_rpcs runs them for every caller, apart from the matrix.
"""

from __future__ import annotations

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
    SEED_SECRETS,
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
    unique_name,
)
from support import ServerProcess

OK = grpc.StatusCode.OK
DENIED = grpc.StatusCode.PERMISSION_DENIED
NOT_FOUND = grpc.StatusCode.NOT_FOUND
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT
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
    "ExportMemories",
    "ImportMemories",
    "WatchMemories",
)
#: The operator's RPCs: no target scope, so no column of the matrix (test_admin_rpcs).
ADMIN_RPCS = ("GetStats", "StartReembed", "GetReembedStatus")
#: Server streams: every response received before the end or the error is kept.
STREAMS = ("Preload", "ExportMemories", "WatchMemories")
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
    # A scope's export is read as ListMemories reads it (core/transfers.py);
    # everything (no scope) is for admins only, and no cell asks for it.
    "ExportMemories": "read",
    # Each record needs WRITE on its scope, as CreateMemory (core/import_session.py).
    "ImportMemories": "write",
    # Read as ListMemories reads it, except for admins: see expected().
    "WatchMemories": "read",
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
    allowed = ALLOWED[target][KIND[rpc]]
    if rpc == "WatchMemories":
        # core/feed.py: a memory:admin principal may watch every owner's memory,
        # so any scope of it, alice's included, which it may not list or export.
        allowed = allowed | {"admin"}
    if caller in allowed:
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
    fresh = f"matrix {unique_name()}"
    cell = Cell(rpc, target, None, fresh)
    match rpc:
        case "CreateMemory":
            # As the batch's items: two random names can embed above the default 0.95.
            cell.request = svc.CreateMemoryRequest(
                memory=pb.Memory(content=fresh, scope=scope), mode=SYNC, dedup_threshold=1.0
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
        case "ExportMemories":
            cell.request = svc.ExportMemoriesRequest(scope=scope, page_size=1000)
        case "ImportMemories":
            record = pb.Memory(id=f"matrix-{unique_name()}", content=fresh, scope=scope, version=1)
            cell.request = svc.ImportMemoriesRequest(memories=[svc.ExportedMemory(memory=record)])
        case "WatchMemories":
            cell.request = svc.WatchMemoriesRequest(scope=scope)
    return cell


def _call(matrix: Matrix, caller: str, cell: Cell) -> tuple[grpc.StatusCode, Any, list[Any]]:
    """The status, the response (or error) and, for a server stream, every
    response received, those before an error included. A watch never ends: its
    first response is read, then it is cancelled (the deadline is a safety net)."""
    realm = matrix.realm
    method = getattr(realm.stub(caller), cell.rpc)
    metadata = realm.metadata.get(caller, ())
    events: list[Any] = []
    try:
        if cell.rpc == "WatchMemories":
            call = method(cell.request, metadata=metadata, timeout=10)
            try:
                events.append(next(call))
            except StopIteration:
                pass  # ended with OK and no response: _check_allowed fails it
            finally:
                call.cancel()
            return OK, None, events
        if cell.rpc == "ImportMemories":
            return OK, method(iter([cell.request]), metadata=metadata, timeout=30), events
        if cell.rpc not in STREAMS:
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
    assert events == [], f"a refused {rpc} sent responses before its error"
    seed = matrix.seeds[target].memory
    leaked = f"{outcome.details()} {outcome.trailing_metadata()}"
    assert seed.content not in leaked and not any(s in leaked for s in SEED_SECRETS)
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
        case "ExportMemories":
            assert events and events[0].HasField("header")
            exported = [e.memory for response in events for e in response.memories]
            assert events[0].header.memory_count == len(exported)
            assert all(in_target(m.scope, target) for m in exported)
            assert seed.memory.id in {m.id for m in exported}
        case "WatchMemories":
            assert [e.WhichOneof("event") for e in events] == ["started"]
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
        case "ImportMemories":
            (record,) = [r.memory for r in cell.request.memories]
            assert (outcome.received_count, outcome.created_count) == (1, 1)
            assert in_target(record.scope, cell.target) and record.content == cell.fresh
            changed[record.id] = stored(record)
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


ADMIN_REQUESTS = {
    "GetStats": svc.GetStatsRequest(),
    # The embedder the server uses already: an admin gets INVALID_ARGUMENT, and nothing starts.
    "StartReembed": svc.StartReembedRequest(embedder="local"),
    "GetReembedStatus": svc.GetReembedStatusRequest(),
}


def expected_admin(rpc: str, caller: str) -> grpc.StatusCode:
    """The operator's RPCs need memory:admin (core/admin.py, require_admin)."""
    if caller not in ROLES:
        return UNAUTHENTICATED
    if "memory:admin" not in ROLES[caller].scopes:
        return DENIED
    return INVALID_ARGUMENT if rpc == "StartReembed" else OK


@pytest.mark.parametrize(("mode", "caller"), CELLS, ids=[f"{m}-{c}" for m, c in CELLS])
@pytest.mark.parametrize("rpc", ADMIN_RPCS)
def test_admin_rpcs(request, rpc, mode, caller):
    matrix: Matrix = request.getfixturevalue(f"{mode}_matrix")
    realm = matrix.realm
    method = getattr(realm.stub(caller), rpc)
    code, outcome = OK, None
    try:
        outcome = method(ADMIN_REQUESTS[rpc], metadata=realm.metadata.get(caller, ()), timeout=30)
    except grpc.RpcError as error:
        code, outcome = error.code(), error

    assert code == expected_admin(rpc, caller), outcome
    if code == OK:
        status = outcome.reembed if rpc == "GetStats" else outcome.status
        assert status.state == svc.REEMBED_STATE_UNSPECIFIED
        if rpc == "GetStats":
            assert outcome.embedder_id and outcome.user_memory_count >= 1
        return
    if code in (DENIED, UNAUTHENTICATED):
        leaked = f"{outcome.details()} {outcome.trailing_metadata()}"
        for seed in matrix.seeds.values():
            assert seed.memory.content not in leaked and seed.memory.id not in leaked
        assert "MiniLM" not in leaked, "a refused caller learned the embedder"
    if rpc == "StartReembed":  # refused or invalid, nothing started
        status = matrix.root_call("GetReembedStatus", svc.GetReembedStatusRequest()).status
        assert status.state == svc.REEMBED_STATE_UNSPECIFIED


def test_every_rpc_is_in_the_matrix():
    service = svc.DESCRIPTOR.services_by_name["MemoryService"]
    assert not set(RPCS) & set(ADMIN_RPCS)
    assert {m.name for m in service.methods} == {*RPCS, *ADMIN_RPCS}
