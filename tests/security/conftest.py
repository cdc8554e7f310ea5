"""Fixtures for the security tests: one JWT-mode server for the package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memoryd.v1 import memory_service_pb2_grpc

from authkit import AUDIENCE, ISSUER, SECRET
from support import ServerProcess


@pytest.fixture(scope="package")
def jwt_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {
        "MEMORYD_AUTH_MODE": "jwt",
        "MEMORYD_JWT_SECRET": SECRET,
        "MEMORYD_JWT_AUDIENCE": AUDIENCE,
        "MEMORYD_JWT_ISSUER": ISSUER,
    }
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-jwt"), env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="package")
def jwt_stub(jwt_server: ServerProcess) -> Iterator[memory_service_pb2_grpc.MemoryServiceStub]:
    with jwt_server.channel() as channel:
        yield memory_service_pb2_grpc.MemoryServiceStub(channel)
