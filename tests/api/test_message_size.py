"""Requests over MEMORYD_MAX_MESSAGE_BYTES: INVALID_ARGUMENT naming the limit, nothing written."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import expect_error, field_violations, list_all, new_memory, rich_status, unpack
from support import ServerProcess

LIMIT = 16 * 1024


@pytest.fixture(scope="module")
def small_stub(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[memory_service_pb2_grpc.MemoryServiceStub]:
    env = {"MEMORYD_MAX_MESSAGE_BYTES": str(LIMIT)}
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-small-messages"), env=env).start()
    try:
        with process.channel() as channel:
            yield memory_service_pb2_grpc.MemoryServiceStub(channel)
    finally:
        assert process.stop() == 0, "".join(process.log)


def _assert_too_large(error: grpc.RpcError, size: int) -> None:
    assert f"{size} bytes" in error.details() and "MEMORYD_MAX_MESSAGE_BYTES" in error.details()
    assert field_violations(error) == ["request"]
    (info,) = [
        unpack(d, error_details_pb2.ErrorInfo)
        for d in rich_status(error).details
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)
    ]
    assert info.reason == "MESSAGE_TOO_LARGE"
    assert dict(info.metadata) == {"size_bytes": str(size), "limit_bytes": str(LIMIT)}


def test_a_unary_request_over_the_limit_is_invalid_argument_and_writes_nothing(small_stub):
    # Under the content limit (32 KiB), over the message limit: only the latter applies.
    request = new_memory("x" * (LIMIT + 100), user="big")
    assert request.ByteSize() > LIMIT
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, small_stub.CreateMemory, request)
    _assert_too_large(error, request.ByteSize())
    assert list_all(small_stub, pb.Scope(user_id="big")) == []

    # Its response, the memory as stored, must fit too.
    fitting = new_memory("y" * (LIMIT - 1000), user="big")
    assert fitting.ByteSize() <= LIMIT
    assert small_stub.CreateMemory(fitting).outcome == svc.WRITE_OUTCOME_CREATED

    # gRPC buffers a whole message before memoryd sees it, so it keeps a bound
    # of its own, far over the limit: twice it or the limit plus 1 MiB, whichever is more.
    huge = new_memory("z" * (LIMIT + 1024 * 1024 + 1), user="huge")
    with pytest.raises(grpc.RpcError) as info:
        small_stub.CreateMemory(huge)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert list_all(small_stub, pb.Scope(user_id="huge")) == []


def test_a_preload_request_over_the_limit_is_invalid_argument_before_any_event(small_stub):
    turns = [
        svc.ConversationTurn(role=svc.TURN_ROLE_USER, content=f"Turn {i}: " + "words " * 400)
        for i in range(8)
    ]
    request = svc.PreloadRequest(turns=turns, user_scope=pb.Scope(user_id="preloader"))
    assert request.ByteSize() > LIMIT
    events = []

    def preload() -> None:
        events.extend(small_stub.Preload(request, timeout=30))

    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, preload)
    _assert_too_large(error, request.ByteSize())
    assert events == []
