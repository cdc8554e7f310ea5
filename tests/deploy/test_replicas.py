"""Two memoryd replicas over one Qdrant collection: a retried create that both
apply converges on one record (docs/deploy.md, "Retries on another replica").

No Qdrant server can run here: both replicas share one qdrant-client in-memory
client, the STAND-IN for a cluster, on one event loop (that client is not
thread-safe). Each replica has its own data directory, so its own journal.
"""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from qdrant_client import AsyncQdrantClient

from memoryd.config import Settings
from memoryd.server import App, Seams, build, create_server
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from support.hooks import in_memory_qdrant_standin

Stub = memory_service_pb2_grpc.MemoryServiceStub
START_TIMEOUT = 60


class Replicas:
    """Replicas on one event loop thread, sharing one stand-in Qdrant client."""

    def __init__(self, data_dirs: list[Path]) -> None:
        self._data_dirs = data_dirs
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._running: list[tuple[App, grpc.aio.Server]] = []
        self.addresses: list[str] = []

    def start(self) -> Replicas:
        self._thread.start()

        async def boot() -> None:
            client = in_memory_qdrant_standin()
            for data_dir in self._data_dirs:
                with warnings.catch_warnings():
                    # The stand-in ignores payload indexes, and says so.
                    warnings.filterwarnings(
                        "ignore", message="Payload indexes have no effect", category=UserWarning
                    )
                    await self._start(client, data_dir)

        self._run(boot())
        return self

    async def _start(self, client: AsyncQdrantClient, data_dir: Path) -> None:
        values: dict[str, Any] = {
            "backend": "qdrant",
            "host": "127.0.0.1",
            "port": 0,
            "data_dir": data_dir,
        }
        settings = Settings(**values)
        app = await build(settings, seams=Seams(qdrant_client=lambda _: client))
        server, port = await create_server(settings, app)
        await server.start()
        self._running.append((app, server))
        self.addresses.append(f"127.0.0.1:{port}")

    def stop(self) -> None:
        async def shutdown() -> None:
            for app, server in reversed(self._running):
                await server.stop(1)
                await app.close()

        self._run(shutdown())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(START_TIMEOUT)
        self._loop.close()

    def _run(self, work: Any) -> None:
        asyncio.run_coroutine_threadsafe(work, self._loop).result(START_TIMEOUT)


@pytest.fixture(scope="module")
def stubs(tmp_path_factory) -> Iterator[tuple[Stub, Stub]]:
    replicas = Replicas(
        [tmp_path_factory.mktemp("replica-a"), tmp_path_factory.mktemp("replica-b")]
    )
    replicas.start()
    try:
        with (
            grpc.insecure_channel(replicas.addresses[0]) as a,
            grpc.insecure_channel(replicas.addresses[1]) as b,
        ):
            yield Stub(a), Stub(b)
    finally:
        replicas.stop()


def _create(
    content: str, user: str, request_id: str, memory_key: str = ""
) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=pb.Scope(user_id=user), memory_key=memory_key),
        mode=svc.WRITE_MODE_SYNC,
        request_id=request_id,
    )


def _memories(stub: Stub, user: str) -> list[pb.Memory]:
    response = stub.ListMemories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
    return list(response.memories)


def test_a_keyed_create_retried_on_another_replica_is_one_record(stubs, user):
    a, b = stubs
    request = _create(
        "The user's timezone is UTC-5", user, "5f1d3c1e-0000-4000-8000-000000000001", "tz"
    )
    first = a.CreateMemory(request)
    retried = b.CreateMemory(request)
    assert retried.memory.id == first.memory.id
    assert [m.id for m in _memories(a, user)] == [first.memory.id]
    assert [m.id for m in _memories(b, user)] == [first.memory.id]


def test_an_unkeyed_create_retried_on_another_replica_is_one_record(stubs, user):
    a, b = stubs
    request = _create("The user keeps bees", user, "5f1d3c1e-0000-4000-8000-000000000002")
    request.mode = svc.WRITE_MODE_ASYNC
    # Acknowledged before either is applied, so no near-duplicate check has run
    # yet: only the id derived from (principal, request_id, item) joins them.
    first, retried = a.CreateMemory(request), b.CreateMemory(request)
    assert first.outcome == retried.outcome == svc.WRITE_OUTCOME_ACCEPTED
    assert retried.memory.id == first.memory.id
    request.request_id = "5f1d3c1e-0000-4000-8000-000000000003"
    assert a.CreateMemory(request).memory.id != first.memory.id  # another request
    stored = {m.id for stub in (a, b) for m in _memories(stub, user)}
    assert stored == {first.memory.id}  # the other request was a near-duplicate


def test_an_update_through_another_replica_is_applied(stubs, user):
    a, b = stubs
    created = a.CreateMemory(_create("The user's office is in Lyon", user, ""))
    for i in range(5):  # replica A's journal runs ahead of B's
        a.CreateMemory(_create(f"Unrelated fact number {i} about llamas", f"{user}-other", ""))
    update = svc.UpdateMemoryRequest(
        memory=pb.Memory(
            id=created.memory.id, scope=pb.Scope(user_id=user), content="Office: Oslo"
        ),
        update_mask={"paths": ["content"]},
        mode=svc.WRITE_MODE_SYNC,
    )
    answered = b.UpdateMemory(update)
    (stored,) = _memories(a, user)
    assert answered.memory.content == stored.content == "Office: Oslo"
