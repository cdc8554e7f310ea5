"""Shared fixtures: a real memoryd server process on an ephemeral loopback port."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import grpc
import pytest

from memoryd.testing import ServerProcess
from memoryd.v1 import memory_service_pb2_grpc


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the whole session; tests keep apart by using fresh user ids."""
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-data")).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="session")
def channel(server: ServerProcess) -> Iterator[grpc.Channel]:
    with server.channel() as channel:
        yield channel


@pytest.fixture(scope="session")
def stub(channel: grpc.Channel) -> memory_service_pb2_grpc.MemoryServiceStub:
    return memory_service_pb2_grpc.MemoryServiceStub(channel)


@pytest.fixture
def user() -> str:
    """A user id no other test uses."""
    return f"user-{uuid.uuid4().hex[:12]}"
