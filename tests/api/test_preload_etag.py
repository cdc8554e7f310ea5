"""Preload etags: every kind of write to a scope, not only a create, ends ``not_modified``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from google.protobuf import field_mask_pb2
from google.protobuf.duration_pb2 import Duration

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create

Stub = memory_service_pb2_grpc.MemoryServiceStub
ASYNC = svc.WRITE_MODE_ASYNC
QUERY = "Where does the user live?"
HOME = "The user lives in Lisbon and works remotely"
PET = "The user has a grey cat called Miso"


def preload(
    stub: Stub, scope: pb.Scope, if_none_match: str = "", **fields: Any
) -> list[svc.PreloadResponse]:
    shared = pb.Scope(agent_id=scope.agent_id) if scope.agent_id else None
    request = svc.PreloadRequest(
        query=QUERY,
        user_scope=pb.Scope(user_id=scope.user_id),
        agent_scope=shared,
        if_none_match=if_none_match,
        **fields,
    )
    return list(stub.Preload(request, timeout=30))


def update(stub: Stub, scope: pb.Scope, memory: pb.Memory) -> None:
    stub.UpdateMemory(
        svc.UpdateMemoryRequest(
            memory=pb.Memory(id=memory.id, scope=scope, content="The user lives in Porto now"),
            update_mask=field_mask_pb2.FieldMask(paths=["content"]),
            mode=ASYNC,
        )
    )


def delete(stub: Stub, scope: pb.Scope, memory: pb.Memory) -> None:
    stub.DeleteMemory(svc.DeleteMemoryRequest(id=memory.id, scope=scope, mode=ASYNC))


def forget(stub: Stub, scope: pb.Scope, memory: pb.Memory) -> None:
    stub.ForgetMemories(svc.ForgetMemoriesRequest(scope=scope, categories=["home"], mode=ASYNC))


WRITES: dict[str, Callable[[Stub, pb.Scope, pb.Memory], None]] = {
    "update": update,
    "delete": delete,
    "forget": forget,
}


@pytest.mark.parametrize("shared", [False, True], ids=["user_scope", "agent_scope"])
@pytest.mark.parametrize("write", list(WRITES))
def test_update_delete_and_forget_invalidate_the_etag(
    stub: Stub, user: str, write: str, shared: bool
) -> None:
    # The written scope is the user's, or the agent's shared memory beside it.
    scope = pb.Scope(agent_id=f"agent-{user}") if shared else pb.Scope(user_id=user)
    asked = pb.Scope(user_id=user, agent_id=scope.agent_id)
    home = create(stub, HOME, category="home", **_owner(scope)).memory
    create(stub, PET, category="pets", **_owner(scope))
    first = preload(stub, asked)
    etag = first[-1].done.etag
    assert HOME in _context(first) and etag
    assert [_kind(e) for e in preload(stub, asked, etag)] == ["not_modified"]

    WRITES[write](stub, scope, home)
    after = preload(stub, asked, etag)

    assert [_kind(e) for e in after][-2:] == ["context", "done"], f"{write} kept the etag"
    assert HOME not in _context(after) and PET in _context(after)
    assert ("The user lives in Porto now" in _context(after)) == (write == "update")
    new_etag = after[-1].done.etag
    assert new_etag not in ("", etag)
    assert [_kind(e) for e in preload(stub, asked, new_etag)] == ["not_modified"]


def _owner(scope: pb.Scope) -> dict[str, Any]:
    return {"agent_id": scope.agent_id} if scope.agent_id else {"user": scope.user_id}


def _kind(event: svc.PreloadResponse) -> str:
    return str(event.WhichOneof("event"))


def _context(events: list[svc.PreloadResponse]) -> str:
    (context,) = [e.context.text for e in events if e.HasField("context")]
    return context


def test_forgetting_an_agents_memory_invalidates_the_etag_of_its_apps(
    stub: Stub, user: str
) -> None:
    # A forget without an app_id reaches the agent's memory in every app, so a
    # reader of one app's shared memory must see it too.
    agent, app = f"agent-{user}", f"app-{user}"
    create(stub, HOME, agent_id=agent, app_id=app)
    create(stub, PET, agent_id=f"other-{agent}", app_id=app)
    request = svc.PreloadRequest(
        query=QUERY, user_scope=pb.Scope(user_id=user), agent_scope=pb.Scope(app_id=app)
    )
    first = list(stub.Preload(request, timeout=30))
    assert HOME in _context(first)

    stub.ForgetMemories(svc.ForgetMemoriesRequest(scope=pb.Scope(agent_id=agent), mode=ASYNC))
    request.if_none_match = first[-1].done.etag
    after = list(stub.Preload(request, timeout=30))

    assert [_kind(e) for e in after][-1] == "done", "the forget kept the app's etag"
    assert HOME not in _context(after) and PET in _context(after)


def _etag_until(etag: str) -> datetime | None:
    """The instant an etag stops holding, from the bound the server appends."""
    _, _, until = etag.strip('"').partition("@")
    return datetime.fromtimestamp(int(until) / 1e6, UTC) if until else None


def test_with_recency_an_etag_holds_for_one_step_of_the_recency_clock(
    stub: Stub, user: str
) -> None:
    """Recency scores drift with the clock: an etag made with recency on holds a
    minute (the recency clock's step for a 30-day half-life) from when it is
    made; with recency off, until a write."""
    create(stub, HOME, user=user)
    scope = pb.Scope(user_id=user)
    made = datetime.now(UTC)
    on = preload(stub, scope, recency_half_life=Duration(seconds=30 * 86400))
    off = preload(stub, scope, recency_half_life=Duration())
    until = _etag_until(on[-1].done.etag)
    assert until is not None
    assert made + timedelta(minutes=1) <= until <= datetime.now(UTC) + timedelta(minutes=1)
    assert _etag_until(off[-1].done.etag) is None
    assert on[-1].done.etag != off[-1].done.etag
    repeat = preload(stub, scope, on[-1].done.etag, recency_half_life=Duration(seconds=30 * 86400))
    assert [_kind(e) for e in repeat] == ["not_modified"]
