"""Preload under a short deadline: what is ready is sent, and the stream ends partial."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, unpack
from support import ServerProcess


@pytest.fixture(scope="module")
def slow_stub(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[memory_service_pb2_grpc.MemoryServiceStub]:
    """A server whose indexer takes a second per write, so reads wait for writes."""
    data_dir: Path = tmp_path_factory.mktemp("memoryd-slow")
    process = ServerProcess(data_dir, apply_delay=1).start()
    try:
        with process.channel() as channel:
            yield memory_service_pb2_grpc.MemoryServiceStub(channel)
    finally:
        assert process.stop() == 0, "".join(process.log)


def test_short_deadline_yields_partial_result_not_error(
    slow_stub: memory_service_pb2_grpc.MemoryServiceStub,
) -> None:
    create(slow_stub, "Reply in formal English", agent_id="agent-deadline")  # SYNC: applied
    create(slow_stub, "I am vegetarian", user="user-deadline", mode=svc.WRITE_MODE_ASYNC)
    request = svc.PreloadRequest(
        query="what do I eat",
        user_scope=pb.Scope(user_id="user-deadline"),
        agent_scope=pb.Scope(agent_id="agent-deadline"),
    )
    events = list(slow_stub.Preload(request, timeout=0.4))
    assert [e.WhichOneof("event") for e in events] == ["hits", "hits", "context", "done"]
    agent, user = events[0].hits, events[1].hits
    assert agent.scope == svc.PRELOAD_SCOPE_AGENT and not agent.HasField("error")
    assert [r.memory.content for r in agent.results] == ["Reply in formal English"]
    assert user.scope == svc.PRELOAD_SCOPE_USER and not user.results
    assert user.error.code == code_pb2.DEADLINE_EXCEEDED
    assert "Reply in formal English" in events[2].context.text
    done = events[3].done
    assert done.partial and done.etag == "" and done.agent_hit_count == 1


def test_deadline_already_near_still_ends_with_done(
    slow_stub: memory_service_pb2_grpc.MemoryServiceStub,
) -> None:
    request = svc.PreloadRequest(query="anything", user_scope=pb.Scope(user_id="user-near"))
    try:
        events = list(slow_stub.Preload(request, timeout=0.045))
    except grpc.RpcError as error:  # the deadline may pass while the request is in flight
        assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        return
    assert [e.WhichOneof("event") for e in events] == ["hits", "context", "done"]
    assert events[-1].done.partial
    info = unpack(events[0].hits.error.details[0], error_details_pb2.ErrorInfo)
    assert info.reason == "PRELOAD_SCOPE_TIMED_OUT"
