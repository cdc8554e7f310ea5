"""GetStats: what an operator sees of a running server, over real gRPC."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import jwt
import pytest
from google.rpc import error_details_pb2

from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, expect_error, new_memory, rich_status, unpack
from support import ServerProcess


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own, so that the counts are exactly this module's."""
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-stats")).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def admin_stub(fresh: ServerProcess) -> Iterator[memory_service_pb2_grpc.MemoryServiceStub]:
    with fresh.channel() as channel:
        yield memory_service_pb2_grpc.MemoryServiceStub(channel)


def test_counts_memories_by_kind_of_owner(
    admin_stub: memory_service_pb2_grpc.MemoryServiceStub,
) -> None:
    before = admin_stub.GetStats(svc.GetStatsRequest())
    for i in range(3):
        create(admin_stub, f"the user lives in city number {i}", user="stats-u1")
    create(admin_stub, "the other user likes tea", user="stats-u2")
    create(admin_stub, "restart the worker when the queue stalls", agent_id="support-bot")
    create(admin_stub, "agents of one app share this", agent_id="bot-2", app_id="shop")
    create(admin_stub, "the shop closes at six", app_id="shop")

    stats = admin_stub.GetStats(svc.GetStatsRequest())

    assert stats.user_memory_count - before.user_memory_count == 4
    # An agent_id makes agent memory, with or without an app_id.
    assert stats.agent_memory_count - before.agent_memory_count == 2
    assert stats.app_memory_count - before.app_memory_count == 1
    assert stats.expired_memory_count == 0
    assert stats.journal_backlog == 0  # SYNC writes answer once applied


def test_reports_the_embedder_the_backend_and_sizes_on_disk(
    admin_stub: memory_service_pb2_grpc.MemoryServiceStub,
) -> None:
    create(admin_stub, "something to take space on disk", user="stats-u3")

    stats = admin_stub.GetStats(svc.GetStatsRequest())

    assert stats.embedder_id == "all-MiniLM-L6-v2-onnx-int8"
    assert stats.dimension == 384
    assert stats.backend == "edge"
    assert stats.index_disk_bytes > 0
    assert stats.journal_disk_bytes > 0
    assert stats.reembed.state == svc.REEMBED_STATE_UNSPECIFIED


def test_change_sequence_moves_with_each_applied_change(
    admin_stub: memory_service_pb2_grpc.MemoryServiceStub,
) -> None:
    before = admin_stub.GetStats(svc.GetStatsRequest()).change_sequence
    created = create(admin_stub, "a memory that changes twice", user="stats-u4")
    admin_stub.DeleteMemory(
        svc.DeleteMemoryRequest(
            id=created.memory.id,
            scope=created.memory.scope,
            mode=svc.WRITE_MODE_SYNC,
        )
    )

    after = admin_stub.GetStats(svc.GetStatsRequest()).change_sequence

    assert after == before + 2


def test_counts_writes_acknowledged_but_not_yet_applied(tmp_path: Path) -> None:
    # Each index write takes 3 s: the writes acknowledged below wait in the journal.
    slow = ServerProcess(tmp_path / "data", apply_delay=3.0).start()
    try:
        with slow.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            for i in range(3):
                stub.CreateMemory(
                    new_memory(f"queued memory {i}", user="stats-u5", mode=svc.WRITE_MODE_ASYNC)
                )
            backlog = stub.GetStats(svc.GetStatsRequest()).journal_backlog
    finally:
        slow.stop()
    assert backlog >= 2  # the first may have been applied already; the others cannot be


_SECRET = "stats-test-secret-0123456789abcdef"


def _bearer(**claims: object) -> tuple[tuple[str, str], ...]:
    now = int(time.time())
    body = {"aud": "memoryd", "iss": "https://issuer.test", "iat": now, "exp": now + 3600}
    return (("authorization", "Bearer " + jwt.encode({**body, **claims}, _SECRET, "HS256")),)


def test_only_admin_principals_may_call_the_operators_rpcs(tmp_path: Path) -> None:
    env = {
        "MEMORYD_AUTH_MODE": "jwt",
        "MEMORYD_JWT_SECRET": _SECRET,
        "MEMORYD_JWT_AUDIENCE": "memoryd",
        "MEMORYD_JWT_ISSUER": "https://issuer.test",
    }
    secured = ServerProcess(tmp_path / "data", env=env).start()
    end_user = _bearer(user_id="alice")
    service = _bearer(sub="runtime", scope="memory:act_as_user agent_memory:write")
    admin = _bearer(sub="ops", scope="memory:admin")
    try:
        with secured.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            for metadata in (end_user, service):
                for rpc, request in (
                    (stub.GetStats, svc.GetStatsRequest()),
                    (stub.GetReembedStatus, svc.GetReembedStatusRequest()),
                    (stub.StartReembed, svc.StartReembedRequest(embedder="gemini")),
                ):
                    error = expect_error(
                        grpc.StatusCode.PERMISSION_DENIED, rpc, request, metadata=metadata
                    )
                    assert _reason(error) == "SCOPE_NOT_PERMITTED"
                    assert "memory:admin" in error.details()
            stats = stub.GetStats(svc.GetStatsRequest(), metadata=admin)
    finally:
        assert secured.stop() == 0, "".join(secured.log)
    assert stats.embedder_id == "all-MiniLM-L6-v2-onnx-int8"


def _reason(error: grpc.RpcError) -> str:
    (info,) = [
        unpack(d, error_details_pb2.ErrorInfo)
        for d in rich_status(error).details
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)
    ]
    return str(info.reason)


def test_on_a_qdrant_server_backend_reports_no_local_index_bytes(tmp_path: Path) -> None:
    env = {"MEMORYD_BACKEND": "qdrant"}
    remote = ServerProcess(tmp_path / "data", env=env, qdrant_standin=True).start()
    try:
        with remote.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            create(stub, "stored in the Qdrant stand-in", user="stats-u6")
            stats = stub.GetStats(svc.GetStatsRequest())
            # Re-embedding a Qdrant server's collection is not offered (see StartReembed).
            error = expect_error(
                grpc.StatusCode.INVALID_ARGUMENT,
                stub.StartReembed,
                svc.StartReembedRequest(embedder="gemini"),
            )
    finally:
        assert remote.stop() == 0, "".join(remote.log)
    assert (stats.backend, stats.index_disk_bytes, stats.user_memory_count) == ("qdrant", 0, 1)
    assert stats.journal_disk_bytes > 0
    assert "edge backend" in error.details()
