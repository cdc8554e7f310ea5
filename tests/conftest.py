"""Shared fixtures: a real memoryd server process on an ephemeral loopback port."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import grpc
import pytest
from hypothesis import settings

from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

#: Property tests: "ci" (the default, and what `make test` runs) derives every
#: seed from the test itself, so a verdict never changes between runs; "fuzz"
#: (`make fuzz`, HYPOTHESIS_PROFILE=fuzz) draws fresh random seeds and many more
#: examples (FUZZ_EXAMPLES per test). A failure prints the blob that replays it.
settings.register_profile(
    "ci", derandomize=True, database=None, print_blob=True, deadline=None, max_examples=100
)
settings.register_profile(
    "fuzz",
    derandomize=False,
    database=None,
    print_blob=True,
    deadline=None,
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "500")),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
