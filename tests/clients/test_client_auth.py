"""Every kind of call the clients make carries their token: unary, server-streaming
and client-streaming, sync and async, against a server that requires an API key."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from memoryd.api.credentials import api_key_hash
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client import AsyncMemorydClient, MemorydClient, Unauthenticated, pb, svc
from memoryd_client.interceptors import MetadataChannel

from support import ServerProcess

#: A service that may act for users and export and import every scope.
OPERATOR_KEY = "mk_operator_3f9a1c7e5b2d"
SYNC = svc.WRITE_MODE_SYNC


@pytest.fixture(scope="module")
def key_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    operator = {"service": "ops", "scopes": ["memory:admin", "memory:act_as_user"]}
    env = {
        "MEMORYD_AUTH_MODE": "api_key",
        "MEMORYD_API_KEYS": json.dumps({api_key_hash(OPERATOR_KEY): operator}),
    }
    process = ServerProcess(Path(tmp_path_factory.mktemp("keys")) / "data", env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


def _scope(user: str) -> pb.Scope:
    return pb.Scope(user_id=user)


def _create(content: str, user: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(memory=pb.Memory(content=content, scope=_scope(user)), mode=SYNC)


def _preload(user: str) -> svc.PreloadRequest:
    return svc.PreloadRequest(query="where is the locker", user_scope=_scope(user))


def test_the_sync_client_sends_its_token_on_every_kind_of_call(
    key_server: ServerProcess, user: str
) -> None:
    with MemorydClient(key_server.address, token=OPERATOR_KEY) as client:
        created = client.create_memory(_create("The user's locker is number 42", user))
        _, *records = client.export_memories(svc.ExportMemoriesRequest(scope=_scope(user)))
        assert [r.memory.id for r in records] == [created.memory.id]
        forget = svc.ForgetMemoriesRequest(scope=_scope(user), mode=SYNC)
        assert client.forget_memories(forget).deleted_count == 1

        imported = client.import_memories(records)

        assert (imported.received_count, imported.created_count) == (1, 1)
        assert "locker is number 42" in (client.preload_context(_preload(user)) or "")


def test_the_async_client_sends_its_token_on_every_kind_of_call(
    key_server: ServerProcess, user: str
) -> None:
    async def scenario() -> tuple[svc.ImportMemoriesResponse, str | None]:
        async with AsyncMemorydClient(key_server.address, token=OPERATOR_KEY) as client:
            await client.create_memory(_create("The user's locker is number 7", user))
            request = svc.ExportMemoriesRequest(scope=_scope(user))
            records = [r async for r in client.export_memories(request)][1:]
            await client.forget_memories(svc.ForgetMemoriesRequest(scope=_scope(user), mode=SYNC))
            imported = await client.import_memories(records)
            return imported, await client.preload_context(_preload(user))

    imported, block = asyncio.run(scenario())

    assert (imported.received_count, imported.created_count) == (1, 1)
    assert "locker is number 7" in (block or "")


def test_without_a_token_an_import_is_refused(key_server: ServerProcess) -> None:
    with MemorydClient(key_server.address) as client, pytest.raises(Unauthenticated):
        client.import_memories([])


def test_a_metadata_channel_adds_the_token_and_closes_as_a_context_manager(
    key_server: ServerProcess,
) -> None:
    with MetadataChannel(grpc.insecure_channel(key_server.address), OPERATOR_KEY) as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        assert stub.GetStats(svc.GetStatsRequest(), timeout=30).dimension == 384
    with pytest.raises(ValueError, match="closed channel"):
        stub.GetStats(svc.GetStatsRequest(), timeout=30)
