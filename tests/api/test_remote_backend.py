"""The Qdrant server backend, wired end to end through `memoryd serve`.

No Qdrant server can run here, so the server process is the tests' own entry
point (support/serve.py) with qdrant-client's in-memory mode as a STAND-IN for
a Qdrant server, handed to build() as its Qdrant client: the whole RemoteIndex
path runs, only the engine behind qdrant-client is replaced. No setting of
`memoryd serve` selects that mode (tests/api/test_no_test_hooks.py).
tests/conformance checks both backends against the same contract in detail.
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import condition, create, expect_error, list_all, search
from support import ServerProcess


@pytest.fixture(scope="module")
def standin_stub(tmp_path_factory) -> Iterator[memory_service_pb2_grpc.MemoryServiceStub]:
    env = {"MEMORYD_BACKEND": "qdrant"}
    data_dir = tmp_path_factory.mktemp("journal-only")
    process = ServerProcess(data_dir, env=env, qdrant_standin=True).start()
    try:
        assert "runs on an in-memory stand-in" in "".join(process.log)
        with process.channel() as channel:
            yield memory_service_pb2_grpc.MemoryServiceStub(channel)
    finally:
        assert process.stop() == 0, "".join(process.log)


def test_semantics_hold_on_the_qdrant_server_backend(standin_stub, user):
    stub = standin_stub
    first = create(stub, "The user's timezone is UTC-5", user=user, memory_key="tz")
    second = create(stub, "The user's timezone is UTC+2", user=user, memory_key="tz")
    assert second.outcome == svc.WRITE_OUTCOME_UPDATED_EXISTING
    assert second.memory.id == first.memory.id
    assert create(stub, "The user's timezone is UTC+2", user=user).outcome == (
        svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    )
    create(stub, "The user plays the banjo", user=user, metadata={"kind": "hobby"})
    create(stub, "Someone else's timezone is UTC+9", user=f"{user}-b")

    hits = search(stub, "What timezone is the user in?", user=user)
    assert hits[0].memory.content == "The user's timezone is UTC+2"
    assert all(h.memory.scope.user_id == user for h in hits)
    hobby = condition("metadata.kind", pb.COMPARISON_OPERATOR_EQ, "hobby")
    assert [h.memory.content for h in search(stub, "music", user=user, filter=hobby)] == [
        "The user plays the banjo"
    ]
    assert [m.content for m in list_all(stub, pb.Scope(user_id=user), page_size=1)] == [
        "The user plays the banjo",
        "The user's timezone is UTC+2",
    ]
    expect_error(
        grpc.StatusCode.NOT_FOUND,
        stub.GetMemory,
        svc.GetMemoryRequest(id=first.memory.id, scope=pb.Scope(user_id=f"{user}-b")),
    )
    forget = svc.ForgetMemoriesRequest(mode=svc.WRITE_MODE_SYNC, scope=pb.Scope(user_id=user))
    assert stub.ForgetMemories(forget).deleted_count == 2
    assert list_all(stub, pb.Scope(user_id=user)) == []
    assert len(list_all(stub, pb.Scope(user_id=f"{user}-b"))) == 1
