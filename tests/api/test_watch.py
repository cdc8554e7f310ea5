"""WatchMemories: the change feed, over real gRPC, against a real server.

The watches here read with the raw generated stub: each test holds the call
(a sync stream iterator) and pulls events one at a time, so what the client
has read is always exactly what the test asked for.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
from google.protobuf import field_mask_pb2
from google.rpc import error_details_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import (
    create,
    expect_error,
    field_violations,
    new_memory,
    open_watch,
    rich_status,
    unpack,
)
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
SYNC = svc.WRITE_MODE_SYNC
CREATED, UPDATED = svc.CHANGE_TYPE_CREATED, svc.CHANGE_TYPE_UPDATED
DELETED = svc.CHANGE_TYPE_DELETED


def update_content(stub: Stub, memory: pb.Memory, content: str) -> pb.Memory:
    edited = pb.Memory(id=memory.id, scope=memory.scope, content=content)
    request = svc.UpdateMemoryRequest(
        memory=edited, update_mask=field_mask_pb2.FieldMask(paths=["content"]), mode=SYNC
    )
    response: svc.UpdateMemoryResponse = stub.UpdateMemory(request)
    return response.memory


def summary(changes: list[svc.MemoryChange]) -> list[tuple[int, str]]:
    return [(c.type, c.memory.id) for c in changes]


def assert_increasing(after: int, changes: list[svc.MemoryChange]) -> None:
    sequences = [c.sequence for c in changes]
    assert sequences == sorted(set(sequences)), sequences
    assert not sequences or sequences[0] > after


def test_each_write_is_sent_in_order_with_its_change_type(stub: Stub, user: str) -> None:
    watch = open_watch(stub, pb.Scope(user_id=user))
    try:
        a = create(stub, "Prefers window seats", user=user).memory
        edited = update_content(stub, a, "Prefers aisle seats")
        keyed = create(stub, "Lives in Lisbon", user=user, memory_key="home").memory
        rekeyed = create(stub, "Lives in Porto", user=user, memory_key="home").memory
        stub.DeleteMemory(svc.DeleteMemoryRequest(id=a.id, scope=a.scope, mode=SYNC))
        forgotten = stub.ForgetMemories(
            svc.ForgetMemoriesRequest(scope=pb.Scope(user_id=user), mode=SYNC)
        )
        assert forgotten.deleted_count == 1

        changes = watch.changes(6)
    finally:
        watch.cancel()

    assert summary(changes) == [
        (CREATED, a.id),
        (UPDATED, a.id),
        (CREATED, keyed.id),
        (UPDATED, keyed.id),
        (DELETED, a.id),
        (DELETED, keyed.id),
    ]
    assert_increasing(watch.started, changes)
    assert changes[1].memory.content == "Prefers aisle seats"
    assert changes[1].memory.version == edited.version
    assert changes[3].memory.content == rekeyed.content == "Lives in Porto"
    # A deleted memory comes as it was last stored.
    assert changes[4].memory.content == "Prefers aisle seats"
    assert changes[5].memory.content == "Lives in Porto"
    assert all(c.memory.scope.user_id == user for c in changes)
    assert changes[0].change_time.ToDatetime() == a.create_time.ToDatetime()
    assert all(c.change_time.seconds > 0 for c in changes)


def test_a_user_watch_sees_only_that_users_memories(stub: Stub, user: str) -> None:
    other = f"other-{uuid.uuid4().hex[:8]}"
    watch = open_watch(stub, pb.Scope(user_id=user))
    try:
        create(stub, "Someone else's note", user=other)
        create(stub, "A shared note", agent_id=f"agent-{user}")
        mine = create(stub, "My own note", user=user).memory
        (change,) = watch.changes(1)
    finally:
        watch.cancel()
    assert (change.type, change.memory.id, change.memory.scope.user_id) == (CREATED, mine.id, user)
    # The others' changes took sequences in between: the gap is expected.
    assert change.sequence >= watch.started + 3


def test_a_shared_watch_sees_the_shared_memories_of_its_agent_only(stub: Stub, user: str) -> None:
    agent = f"agent-{user}"
    watch = open_watch(stub, pb.Scope(agent_id=agent))
    try:
        create(stub, "Note of another agent", agent_id=f"{agent}-other")
        create(stub, "A user's note written by the agent", user=user, agent_id=agent)
        first = create(stub, "The agent speaks French", agent_id=agent).memory
        second = create(stub, "The agent answers briefly", agent_id=agent, app_id="console").memory
        changes = watch.changes(2)
    finally:
        watch.cancel()
    assert summary(changes) == [(CREATED, first.id), (CREATED, second.id)]


def test_a_watch_resumed_after_a_disconnect_gets_exactly_what_it_missed(
    stub: Stub, user: str
) -> None:
    scope = pb.Scope(user_id=user)
    watch = open_watch(stub, scope)
    seen = [create(stub, f"Before the disconnect {i}", user=user).memory.id for i in range(3)]
    received = watch.changes(2)
    watch.cancel()
    # Written while no watch is open: the third earlier one was never read.
    missed = [create(stub, f"While disconnected {i}", user=user).memory.id for i in range(3)]

    resumed = open_watch(stub, scope, start_after_sequence=received[-1].sequence)
    try:
        assert resumed.started == received[-1].sequence
        again = resumed.changes(4)
        after = create(stub, "After reconnecting", user=user).memory.id
        (live,) = resumed.changes(1)
    finally:
        resumed.cancel()
    assert [c.memory.id for c in received] == seen[:2]
    assert [c.memory.id for c in again] == [seen[2], *missed]
    assert live.memory.id == after
    assert_increasing(received[-1].sequence, [*again, live])


def test_a_watch_from_sequence_zero_starts_at_the_oldest_change_kept(stub: Stub, user: str) -> None:
    first = create(stub, "Written before any watch", user=user).memory
    watch = open_watch(stub, pb.Scope(user_id=user), start_after_sequence=0)
    try:
        (change,) = watch.changes(1)
    finally:
        watch.cancel()
    assert watch.started == 0  # this server keeps its whole history
    assert (change.type, change.memory.id) == (CREATED, first.id)


def test_a_start_past_the_end_of_the_history_is_out_of_range(stub: Stub, user: str) -> None:
    last = open_watch(stub, pb.Scope(user_id=user))
    last.cancel()
    request = svc.WatchMemoriesRequest(
        scope=pb.Scope(user_id=user), start_after_sequence=last.started + 1000
    )
    error = expect_error(
        grpc.StatusCode.OUT_OF_RANGE, lambda: next(stub.WatchMemories(request, timeout=30))
    )
    assert _reason(error) == "CHANGE_HISTORY_EXPIRED"
    assert "past its end" in error.details()


@pytest.mark.parametrize(
    ("request_fields", "field"),
    [
        ({"scope": pb.Scope(user_id="u"), "start_after_sequence": -1}, "start_after_sequence"),
        ({"scope": pb.Scope(thread_id="t")}, "scope"),
        ({"scope": pb.Scope(user_id=" u")}, "scope.user_id"),
    ],
    ids=["negative-sequence", "thread-without-owner", "malformed-user-id"],
)
def test_a_bad_watch_request_is_invalid_argument_naming_the_field(
    stub: Stub, request_fields: dict[str, Any], field: str
) -> None:
    request = svc.WatchMemoriesRequest(**request_fields)
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT, lambda: next(stub.WatchMemories(request, timeout=30))
    )
    assert field_violations(error) == [field]


def _reason(error: grpc.RpcError) -> str:
    for detail in rich_status(error).details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            return str(unpack(detail, error_details_pb2.ErrorInfo).reason)
    raise AssertionError("no ErrorInfo")


def test_the_expiry_purge_sends_expired_with_the_memory_as_last_stored(tmp_path: Path) -> None:
    env = {"MEMORYD_EXPIRY_PURGE_INTERVAL_SECONDS": "0.2"}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = Stub(channel)
            watch = open_watch(stub, pb.Scope(user_id="u"))
            request = new_memory("Boarding pass for tomorrow", user="u")
            request.ttl.FromSeconds(1)
            stored = stub.CreateMemory(request).memory
            try:
                # No sleep: the purge deletes it once it has expired, and the
                # watch waits for that change.
                created, expired = watch.changes(2)
            finally:
                watch.cancel()
    finally:
        assert process.stop() == 0, "".join(process.log)
    assert (created.type, expired.type) == (CREATED, svc.CHANGE_TYPE_EXPIRED)
    assert expired.memory == stored
    assert expired.memory.HasField("expire_time")
    assert expired.sequence > created.sequence


# --- a consumer that reads too slowly ----------------------------------------

#: The watch's queue on this server; far fewer changes than the test applies.
SMALL_BUFFER = 4
#: The memories the test changes again and again, each this large...
RECORDS, CONTENT_BYTES = 3, 30_000
#: ...and how many changes it applies: one per write, so that no single
#: write overflows the queue, only slow reading can.
CHANGES = 60


@pytest.fixture(scope="module")
def small_buffer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"MEMORYD_WATCH_BUFFER_EVENTS": str(SMALL_BUFFER)}
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-watch"), env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


def slow_reader_channel(server: ServerProcess) -> grpc.Channel:
    """A channel whose HTTP/2 receive window stays at its initial 64 KiB.

    Without BDP probing, gRPC never grows the window, and it opens it again
    only as the application reads. A client that does not read therefore
    stops the server's writes once about 64 KiB of events are in flight; from
    then on the handler waits on its transport, and the changes applied
    meanwhile pile up in its queue. Every change carries its memory whole, so
    the test's CHANGES * CONTENT_BYTES (about 1.8 MB) are many times that
    window plus the queue: the queue overflows however fast or slow the
    machine is. Its own connection (other options than the writing channel's,
    so gRPC does not share the subchannel) keeps the writes' traffic out of
    that window.
    """
    return grpc.insecure_channel(server.address, options=[("grpc.http2.bdp_probe", 0)])


def large_records(stub: Stub, user: str) -> list[pb.Memory]:
    requests = [
        new_memory(
            f"Record {i}: " + "a detail of the long record " * (CONTENT_BYTES // 28),
            user=user,
            memory_key=f"record-{i}",
        )
        for i in range(RECORDS)
    ]
    response = stub.BatchCreateMemories(
        svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC)
    )
    return [r.memory for r in response.results]


def number_each(stub: Stub, records: list[pb.Memory]) -> None:
    """CHANGES metadata updates (SYNC), cycling through the records: n = 0, 1, ..."""
    for n in range(CHANGES):
        record = records[n % len(records)]
        edited = pb.Memory(id=record.id, scope=record.scope)
        edited.metadata.update({"n": n})
        mask = field_mask_pb2.FieldMask(paths=["metadata"])
        stub.UpdateMemory(svc.UpdateMemoryRequest(memory=edited, update_mask=mask, mode=SYNC))


def test_a_slow_reader_is_told_where_to_resume_and_misses_nothing(
    small_buffer_server: ServerProcess, user: str
) -> None:
    scope = pb.Scope(user_id=user)
    with (
        small_buffer_server.channel() as channel,
        slow_reader_channel(small_buffer_server) as slow_channel,
    ):
        stub = Stub(channel)
        records = large_records(stub, user)
        watch = open_watch(Stub(slow_channel), scope)
        number_each(stub, records)  # the watch reads nothing meanwhile

        received: list[svc.MemoryChange] = []
        while (event := watch.next()).WhichOneof("event") == "change":
            received.append(event.change)
        assert event.WhichOneof("event") == "fell_behind", event
        assert received, "the events in flight before the overflow were not sent"
        assert event.fell_behind.resume_after_sequence == received[-1].sequence
        with pytest.raises(StopIteration):
            watch.next()
        assert watch.call.code() == grpc.StatusCode.OK

        resumed = open_watch(stub, scope, start_after_sequence=received[-1].sequence)
        try:
            rest = resumed.changes(CHANGES - len(received))
        finally:
            resumed.cancel()
    everything = [*received, *rest]
    assert [c.memory.metadata["n"] for c in everything] == list(range(CHANGES))
    assert [c.memory.id for c in everything] == [records[n % RECORDS].id for n in range(CHANGES)]
    assert {c.type for c in everything} == {UPDATED}
    assert_increasing(watch.started, everything)


# --- the kept history ----------------------------------------------------------


def test_a_start_older_than_the_kept_history_is_out_of_range(tmp_path: Path) -> None:
    env = {"MEMORYD_REQUEST_ID_RETENTION_SECONDS": "1"}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = Stub(channel)
            create(stub, "First", user="u")
            token = create(stub, "Second", user="u").write_token
            # Time has to pass here: poll until the log forgets the last write.
            deadline = time.monotonic() + 60
            while _still_known(stub, token):
                assert time.monotonic() < deadline, "the write was never forgotten"
                threading.Event().wait(0.2)
    finally:
        assert process.stop() == 0, "".join(process.log)
    # A start purges what is past its retention: both changes go.
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = Stub(channel)
            request = svc.WatchMemoriesRequest(scope=pb.Scope(user_id="u"), start_after_sequence=1)
            error = expect_error(
                grpc.StatusCode.OUT_OF_RANGE, lambda: next(stub.WatchMemories(request, timeout=30))
            )
            assert _reason(error) == "CHANGE_HISTORY_EXPIRED"
            assert "older than the history kept" in error.details()
            # 0 still means the oldest kept: here, after the last change.
            oldest = open_watch(stub, pb.Scope(user_id="u"), start_after_sequence=0)
            oldest.cancel()
            assert oldest.started == 2
    finally:
        assert process.stop() == 0, "".join(process.log)


def _still_known(stub: Stub, token: str) -> bool:
    try:
        stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=token))
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()
        return False
    return True


# --- who may watch what --------------------------------------------------------

SECRET = "watch-test-secret-0123456789abcdef"


def bearer(**claims: Any) -> tuple[tuple[str, str], ...]:
    now = int(time.time())
    body = {"iat": now, "exp": now + 3600, **claims}
    return (("authorization", "Bearer " + jwt.encode(body, SECRET, algorithm="HS256")),)


ALICE = bearer(user_id="alice")
SERVICE = bearer(sub="runtime", scope="memory:act_as_user agent_memory:write")
ADMIN = bearer(sub="ops", scope="memory:admin")


@pytest.fixture(scope="module")
def jwt_stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stub]:
    env = {"MEMORYD_AUTH_MODE": "jwt", "MEMORYD_JWT_SECRET": SECRET}
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-watch-jwt"), env=env).start()
    try:
        with process.channel() as channel:
            yield Stub(channel)
    finally:
        assert process.stop() == 0, "".join(process.log)


@pytest.mark.parametrize(
    ("caller", "scope"),
    [
        (ALICE, pb.Scope(user_id="bob")),
        (ALICE, None),
        (SERVICE, None),
    ],
    ids=["another-users-scope", "a-user-watching-everything", "a-non-admin-watching-everything"],
)
def test_a_caller_cannot_watch_what_it_may_not_read(
    jwt_stub: Stub, caller: Any, scope: pb.Scope | None
) -> None:
    request = svc.WatchMemoriesRequest(scope=scope)
    error = expect_error(
        grpc.StatusCode.PERMISSION_DENIED,
        lambda: next(jwt_stub.WatchMemories(request, metadata=caller, timeout=30)),
    )
    assert _reason(error) == "SCOPE_NOT_PERMITTED"


def test_a_user_watches_its_own_memories_and_an_admin_everything(jwt_stub: Stub) -> None:
    own = open_watch(jwt_stub, pb.Scope(user_id="alice"), metadata=ALICE)
    everything = open_watch(jwt_stub, metadata=ADMIN)
    try:
        mine = jwt_stub.CreateMemory(new_memory("Alice's note"), metadata=ALICE).memory
        shared = jwt_stub.CreateMemory(
            new_memory("A note of the bot", agent_id="bot"), metadata=SERVICE
        ).memory
        bobs = jwt_stub.CreateMemory(new_memory("Bob's note", user="bob"), metadata=SERVICE).memory
        (alices,) = own.changes(1)
        all_three = everything.changes(3)
    finally:
        own.cancel()
        everything.cancel()
    assert alices.memory.id == mine.id
    assert [c.memory.id for c in all_three] == [mine.id, shared.id, bobs.id]


# --- shutdown --------------------------------------------------------------------


def test_stopping_the_server_ends_open_watches_at_once_with_unavailable(tmp_path: Path) -> None:
    # A grace longer than ServerProcess.stop waits: a watch that held the
    # shutdown for its grace would make the process miss that wait.
    env = {"MEMORYD_SHUTDOWN_GRACE_SECONDS": "300"}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = Stub(channel)
            watch = open_watch(stub, pb.Scope(user_id="u"))
            assert process.process is not None
            process.process.send_signal(signal.SIGTERM)
            error = expect_error(grpc.StatusCode.UNAVAILABLE, watch.next)
            assert _reason(error) == "SHUTTING_DOWN"
    finally:
        assert process.stop(timeout=30) == 0, "".join(process.log)
