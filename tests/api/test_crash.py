"""kill -9 in the middle of a write storm loses no acknowledged write and applies none twice.

Both storms are killed while the journal holds unapplied writes (crashkit.py),
so the restart replays them; the requests in flight at the kill are then
resent with their request ids, and each must end applied exactly once.
"""

from __future__ import annotations

import uuid
from collections import Counter

import grpc
from google.protobuf import field_mask_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from crashkit import Client, Sent, Stub, storm
from helpers import list_all, new_memory
from support import ServerProcess

CLIENTS = 8
WRITES_PER_CLIENT = 250
# Every text is distinct; exact-duplicate dedup only, so nothing is skipped.
ENV = {"MEMORYD_DEDUP_THRESHOLD": "1.0"}
ASYNC, SYNC = svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC


def _text(client: int, i: int) -> str:
    return f"Client {client} wrote fact {i}: {uuid.uuid5(uuid.NAMESPACE_OID, f'{client}-{i}').hex}"


def _user(client: int) -> str:
    return f"crash-{client}"


def _creates(client: Client) -> tuple[str, svc.CreateMemoryRequest] | None:
    i = len(client.sent) + len(client.unsent)
    if i == WRITES_PER_CLIENT:
        return None
    request = new_memory(
        _text(client.number, i), user=_user(client.number), request_id=str(uuid.uuid4()), mode=ASYNC
    )
    return "CreateMemory", request


def _contents(stub: Stub, users: list[str]) -> Counter[str]:
    contents: Counter[str] = Counter()
    for user in users:
        # The first read of a scope waits for the replay of its journaled writes.
        contents.update(m.content for m in list_all(stub, pb.Scope(user_id=user), timeout=120))
    return contents


def _resend(stub: Stub, in_flight: list[Sent]) -> None:
    for sent in in_flight:
        getattr(stub, sent.rpc)(sent.request, timeout=120)


def test_sigkill_during_write_storm_keeps_every_acknowledged_write_exactly_once(tmp_path):
    server = ServerProcess(tmp_path / "data", env=ENV).start()
    clients = [Client(n, _creates) for n in range(CLIENTS)]
    with storm(server, clients) as kill:
        kill({"create"}, after_acks=700)
    assert {s.error for c in clients for s in c.in_flight} <= {grpc.StatusCode.UNAVAILABLE}
    acked = [s.request.memory.content for c in clients for s in c.acked]

    restarted = ServerProcess(tmp_path / "data", env=ENV).start()
    try:
        with restarted.channel() as channel:
            stub = Stub(channel)
            users = [_user(n) for n in range(CLIENTS)]
            after_restart = _contents(stub, users)
            assert all(after_restart[text] == 1 for text in acked), (
                "an acked write is lost or doubled"
            )
            assert set(after_restart.values()) == {1}

            # A write whose answer was lost may or may not be journaled: resent
            # with its request id, it must still be stored exactly once.
            in_flight = [s for c in clients for s in c.in_flight]
            _resend(stub, in_flight)
            final = _contents(stub, users)
    finally:
        assert restarted.stop() == 0
    # Exactly the writes that reached the server: none of those never sent.
    sent = acked + [s.request.memory.content for s in in_flight]
    assert final == Counter(sent)


# --- every kind of write, ASYNC and SYNC -------------------------------------------

MIXED_STEPS = 400
CYCLE = ("create", "batch", "update", "create", "delete", "forget")
KINDS = {"create", "batch_create", "update", "delete", "forget"}
UPDATED = " (updated)"


class MixedScript:
    """Creates, batches of three, and updates, deletes and forgets (by a
    category of its own) of memories whose create was acknowledged, each at
    most once; every fifth request is SYNC."""

    def __init__(self, number: int) -> None:
        self.scope = pb.Scope(user_id=f"mixed-{number}")
        self.number = number
        #: request_id of each update, delete and forget -> the content it targets.
        self.targets: dict[str, str] = {}

    def __call__(self, client: Client) -> tuple[str, object] | None:
        i = len(client.sent) + len(client.unsent)
        if i == MIXED_STEPS:
            return None
        mode, request_id = (SYNC if i % 5 == 4 else ASYNC), str(uuid.uuid4())
        kind = CYCLE[i % len(CYCLE)]
        targeted = set(self.targets.values())
        target = next((m for m in _created(client) if m.content not in targeted), None)
        if kind in ("update", "delete", "forget") and target is not None:
            self.targets[request_id] = target.content
            return _follow_up(kind, target, self.scope, mode, request_id)
        if kind == "batch":
            items = [self._item(i, j) for j in range(3)]
            batch = svc.BatchCreateMemoriesRequest(requests=items, mode=mode, request_id=request_id)
            return "BatchCreateMemories", batch
        request = self._item(i, 0)
        request.mode, request.request_id = mode, request_id
        return "CreateMemory", request

    def _item(self, i: int, j: int) -> svc.CreateMemoryRequest:
        text = f"Mixed client {self.number} step {i} item {j}: {uuid.uuid4().hex}"
        memory = pb.Memory(content=text, scope=self.scope, category=f"k-{i}-{j}")
        return svc.CreateMemoryRequest(memory=memory)

    def expected(self, sent: list[Sent]) -> dict[str, int]:
        """content -> version once each of ``sent`` is applied exactly once."""
        state: dict[str, int] = {}
        for s in sent:
            if s.rpc in ("CreateMemory", "BatchCreateMemories"):
                items = [s.request] if s.rpc == "CreateMemory" else s.request.requests
                state.update((item.memory.content, 1) for item in items)
        for s in sent:  # a follow-up's create comes before it, in any case
            if s.request.request_id in self.targets:
                state.pop(self.targets[s.request.request_id], None)
            if s.rpc == "UpdateMemory":
                state[s.request.memory.content] = 2
        return state

    def touched(self, sent: list[Sent]) -> set[str]:
        """The contents that ``sent`` may or may not have created or changed."""
        touched = set(self.expected(sent))
        touched |= {self.targets.get(s.request.request_id, "") for s in sent}
        return touched | {t + UPDATED for t in touched}


def _created(client: Client) -> list[pb.Memory]:
    """The memories of the client's acknowledged creates, oldest first."""
    memories = []
    for sent in client.acked:
        if sent.rpc == "CreateMemory":
            memories.append(sent.response.memory)
        elif sent.rpc == "BatchCreateMemories":
            memories.extend(r.memory for r in sent.response.results)
    return memories


def _follow_up(
    kind: str, target: pb.Memory, scope: pb.Scope, mode: int, request_id: str
) -> tuple[str, object]:
    match kind:
        case "update":
            change = pb.Memory(id=target.id, scope=scope, content=target.content + UPDATED)
            mask = field_mask_pb2.FieldMask(paths=["content"])
            return "UpdateMemory", svc.UpdateMemoryRequest(
                memory=change, update_mask=mask, mode=mode, request_id=request_id
            )
        case "delete":
            return "DeleteMemory", svc.DeleteMemoryRequest(
                id=target.id, scope=scope, mode=mode, request_id=request_id
            )
    return "ForgetMemories", svc.ForgetMemoriesRequest(
        scope=scope, categories=[target.category], mode=mode, request_id=request_id
    )


def _stored(stub: Stub, scope: pb.Scope) -> dict[str, int]:
    memories = list_all(stub, scope, timeout=120)
    assert len({m.content for m in memories}) == len(memories), "a write was applied twice"
    return {m.content: m.version for m in memories}


def test_sigkill_replays_updates_deletes_forgets_and_batches_exactly_once(tmp_path):
    server = ServerProcess(tmp_path / "data", env=ENV).start()
    scripts = [MixedScript(n) for n in range(CLIENTS)]
    clients = [Client(n, scripts[n]) for n in range(CLIENTS)]
    with storm(server, clients) as kill:
        kill(KINDS, after_acks=150)
    assert {s.error for c in clients for s in c.in_flight} <= {grpc.StatusCode.UNAVAILABLE}
    assert any(s.request.mode == SYNC for c in clients for s in c.acked)

    restarted = ServerProcess(tmp_path / "data", env=ENV).start()
    try:
        with restarted.channel() as channel:
            stub = Stub(channel)
            for client, script in zip(clients, scripts, strict=True):
                # Every acknowledged write is in, SYNC and ASYNC alike, and none
                # twice; an unanswered request may or may not have been applied.
                uncertain = script.touched(client.in_flight)
                stored = _stored(stub, script.scope)
                assert {c: v for c, v in stored.items() if c not in uncertain} == {
                    c: v for c, v in script.expected(client.acked).items() if c not in uncertain
                }
                _resend(stub, client.in_flight)
                assert _stored(stub, script.scope) == script.expected(client.sent)
    finally:
        assert restarted.stop() == 0
