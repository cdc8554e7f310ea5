"""ExportMemories and ImportMemories over real gRPC: round trips, re-runs, snapshots, bad input.

The round trip runs on an in-process server whose spans go to an in-memory
exporter: every embedding model call is an ``embed`` span (embed/traced.py),
so "no embedding happened" is measured, not inferred from the counts.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
from google.protobuf import json_format
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from memoryd.config import Settings
from memoryd.telemetry import Telemetry
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, expect_error, field_violations, search
from support import InProcessServer, ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
SYNC = svc.WRITE_MODE_SYNC
#: The in-process server's message limit: small enough to fill with a few records.
MESSAGE_LIMIT = 2 * 1024 * 1024


@dataclass
class Traced:
    server: InProcessServer
    stub: Stub
    spans: InMemorySpanExporter

    def embed_calls(self) -> int:
        return sum(1 for span in self.spans.get_finished_spans() if span.name == "embed")


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Traced]:
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    meter = MeterProvider().get_meter("memoryd")
    telemetry = Telemetry(
        enabled=True, tracer=provider.get_tracer("memoryd"), meter=meter, tracer_provider=provider
    )
    settings = Settings(
        data_dir=tmp_path_factory.mktemp("transfer"), port=0, max_message_bytes=MESSAGE_LIMIT
    )
    server = InProcessServer(settings, telemetry).start()
    with server.channel() as channel:
        yield Traced(server, memory_service_pb2_grpc.MemoryServiceStub(channel), spans)
    server.stop()
    provider.shutdown()


def _fresh(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def export(stub: Stub, metadata: Any = (), **request: Any) -> tuple[svc.ExportHeader, list[Any]]:
    """The header and every record of an export."""
    responses = list(stub.ExportMemories(svc.ExportMemoriesRequest(**request), metadata=metadata))
    assert responses and responses[0].HasField("header")
    assert all(not r.HasField("header") for r in responses[1:])
    return responses[0].header, [m for r in responses for m in r.memories]


def import_(stub: Stub, messages: list[list[Any]], metadata: Any = ()) -> Any:
    requests = iter([svc.ImportMemoriesRequest(memories=m) for m in messages])
    return stub.ImportMemories(requests, metadata=metadata, timeout=120)


def by_id(records: list[Any]) -> dict[str, tuple[dict[str, Any], list[float], str]]:
    """Each record as plain values, by memory id: what must survive a round trip."""
    return {
        r.memory.id: (json_format.MessageToDict(r.memory), list(r.vector), r.embedder_id)
        for r in records
    }


def record(content: str, user: str, **memory: Any) -> svc.ExportedMemory:
    """A hand-made record without a vector (it is embedded on import)."""
    now = datetime.now(UTC)
    message = pb.Memory(
        id=memory.pop("id", str(uuid.uuid4())),
        content=content,
        scope=pb.Scope(user_id=user),
        version=memory.pop("version", 1),
        **memory,
    )
    if not message.HasField("create_time"):
        message.create_time.FromDatetime(now)
        message.update_time.FromDatetime(now)
    return svc.ExportedMemory(memory=message)


def forget(stub: Stub, scope: pb.Scope) -> None:
    stub.ForgetMemories(svc.ForgetMemoriesRequest(scope=scope, mode=SYNC))


def test_round_trip_restores_identical_records_without_embedding(traced: Traced) -> None:
    stub, user, agent = traced.stub, _fresh("user"), _fresh("agent")
    create(stub, "The user lives in Lisbon", user=user, memory_key="home", category="profile")
    create(
        stub,
        "Prefers answers in Portuguese",
        user=user,
        memory_type=pb.MEMORY_TYPE_SEMANTIC,
        metadata={"source": "chat", "turn": 3, "tags": ["lang", 1.5, True], "nested": {"a": None}},
    )
    updated = create(stub, "Works as a nurse", user=user, memory_key="job")
    create(stub, "Works night shifts as a nurse", user=user, memory_key="job", thread_id="t9")
    create(stub, "Restart the worker when the queue stalls", agent_id=agent)
    expiring = record("Has a dentist appointment on Friday", user, memory_key="dentist")
    expiring.memory.expire_time.FromDatetime(datetime.now(UTC) + timedelta(days=30))
    expired = record("An offer that already ended", user)
    expired.memory.expire_time.FromDatetime(datetime.now(UTC) - timedelta(days=1))
    seeded = import_(stub, [[expiring, expired]])
    assert (seeded.created_count, seeded.unchanged_count, seeded.embedded_count) == (1, 1, 1)

    scopes = [pb.Scope(user_id=user), pb.Scope(agent_id=agent)]
    header, before = export(stub, scope=scopes[0])
    before += export(stub, scope=scopes[1])[1]
    assert header.memory_count == 4 and header.dimension == 384
    assert header.embedder_id and header.snapshot_time.seconds > 0
    exported = by_id(before)
    assert len(exported) == 5 and all(len(v) == 384 for _, v, _ in exported.values())
    assert {e for _, _, e in exported.values()} == {header.embedder_id}
    job = exported[updated.memory.id][0]
    assert job["version"] == "2" and job["scope"]["threadId"] == "t9"
    assert exported[expiring.memory.id][0]["expireTime"]
    assert expired.memory.id not in exported

    for scope in scopes:
        forget(stub, scope)
    assert export(stub, scope=scopes[0])[1] == []
    traced.spans.clear()
    response = import_(stub, [before[:3], before[3:]])
    assert traced.embed_calls() == 0
    assert (response.received_count, response.created_count, response.embedded_count) == (5, 5, 0)
    assert response.updated_count == response.unchanged_count == 0 and response.write_token

    after = export(stub, scope=scopes[0])[1] + export(stub, scope=scopes[1])[1]
    assert by_id(after) == exported
    hits = search(stub, "Which city is the user's home?", user=user)
    assert hits[0].memory.memory_key == "home"


def test_importing_twice_changes_nothing_the_second_time(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    for i in range(3):
        create(stub, f"Fact number {i} about gardening tools", user=user, memory_key=f"k{i}")
    records = export(stub, scope=pb.Scope(user_id=user))[1]
    first = import_(stub, [records])
    assert (first.created_count, first.updated_count, first.unchanged_count) == (0, 0, 3)
    traced.spans.clear()
    again = import_(stub, [records[:1], records[1:]])
    assert (again.created_count, again.updated_count, again.unchanged_count) == (0, 0, 3)
    assert traced.embed_calls() == 0
    assert by_id(export(stub, scope=pb.Scope(user_id=user))[1]) == by_id(records)


def test_newer_version_replaces_older_and_older_is_left(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    old = record("Drinks coffee black", user, id="drink", version=1)
    new = record("Drinks coffee with oat milk", user, id="drink", version=2)
    assert import_(stub, [[new]]).created_count == 1
    assert import_(stub, [[old]]).unchanged_count == 1
    assert import_(stub, [[new]]).unchanged_count == 1
    newer = record("Stopped drinking coffee", user, id="drink", version=3)
    assert import_(stub, [[newer]]).updated_count == 1
    ((memory, _, _),) = by_id(export(stub, scope=pb.Scope(user_id=user))[1]).values()
    assert memory["content"] == "Stopped drinking coffee" and memory["version"] == "3"


def test_key_held_by_another_memory_goes_to_the_one_updated_last(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    held = create(stub, "Timezone is UTC-5", user=user, memory_key="tz", memory_id="here")
    earlier = record("Timezone is UTC+1", user, id="there-old", memory_key="tz")
    earlier.memory.update_time.FromDatetime(datetime(2020, 1, 1, tzinfo=UTC))
    earlier.memory.create_time.FromDatetime(datetime(2020, 1, 1, tzinfo=UTC))
    assert import_(stub, [[earlier]]).unchanged_count == 1
    later = record("Timezone is UTC+9", user, id="there-new", memory_key="tz")
    assert import_(stub, [[later]]).created_count == 1
    memories = by_id(export(stub, scope=pb.Scope(user_id=user))[1])
    assert list(memories) == ["there-new"] and held.memory.id not in memories


def test_record_of_another_embedder_is_embedded_again_and_found(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    foreign = record("Allergic to peanuts and shellfish", user)
    foreign.embedder_id = "some-other-model"
    foreign.vector.extend([0.5] * 384)
    bare = record("Plays the cello in an orchestra", user)
    traced.spans.clear()
    response = import_(stub, [[foreign, bare]])
    assert (response.created_count, response.embedded_count) == (2, 2)
    assert traced.embed_calls() >= 1
    assert search(stub, "food allergies", user=user)[0].memory.id == foreign.memory.id
    assert search(stub, "musical instrument", user=user)[0].memory.id == bare.memory.id


def test_export_is_a_snapshot_while_creates_run(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    scope = pb.Scope(user_id=user)
    for i in range(20):
        create(
            stub,
            f"Snapshot fact {i}: the user collects stamp {i}",
            user=user,
            memory_key=f"k{i % 7}",
        )
    stop, written = threading.Event(), []

    def write() -> None:
        i = 100
        while not stop.is_set():
            text = f"Snapshot fact {i}: the user collects stamp {i}"
            create(stub, text, user=user, memory_key=f"k{i % 9}")
            written.append(text)
            i += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        stream = stub.ExportMemories(svc.ExportMemoriesRequest(scope=scope, page_size=1))
        header = next(stream).header
        # The stream is open and unread: writes still apply (SYNC create answers).
        after_snapshot = create(stub, "Written after the snapshot was taken", user=user)
        records = [m for response in stream for m in response.memories]
    finally:
        stop.set()
        writer.join()
    assert header.memory_count == len(records) > 0
    ids = [r.memory.id for r in records]
    assert len(set(ids)) == len(ids) and after_snapshot.memory.id not in ids
    keys = [r.memory.memory_key for r in records]
    assert len(set(keys)) == len(keys)
    # Each record is one version of one memory: its vector is its content's.
    for r in records:
        assert r.memory.version >= 1
        assert r.memory.create_time.ToDatetime() <= r.memory.update_time.ToDatetime()
        assert _cosine(_embedding_of(stub, r.memory.content), list(r.vector)) > 0.9999


def _embedding_of(stub: Stub, content: str) -> list[float]:
    """The server's own embedding of ``content``: imported without a vector
    into a scope of its own, then exported."""
    user = _fresh("embed")
    assert import_(stub, [[record(content, user)]]).embedded_count == 1
    (again,) = export(stub, scope=pb.Scope(user_id=user))[1]
    return list(again.vector)


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / ((sum(x * x for x in a) ** 0.5) * (sum(y * y for y in b) ** 0.5))


# --- bad input ------------------------------------------------------------------


def _invalid(call: Any, *args: Any, **kwargs: Any) -> tuple[list[str], str]:
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, *args, **kwargs)
    return field_violations(error), error.details() or ""


def test_bad_import_messages_name_the_field_and_store_nothing(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    assert _invalid(import_, stub, [[]])[0] == ["memories"]
    too_many = [record(f"fact {i}", user) for i in range(501)]
    fields, message = _invalid(import_, stub, [too_many])
    assert fields == ["memories"] and "1 to 500" in message
    no_id = record("Has no id", user, id="")
    assert _invalid(import_, stub, [[record("fine", user), no_id]])[0] == ["memories[1].memory.id"]
    no_owner = record("Has no owner", "")
    assert _invalid(import_, stub, [[no_owner]])[0] == ["memories[0].memory.scope"]
    bad_version = record("Negative version", user, version=-2)
    assert _invalid(import_, stub, [[bad_version]])[0] == ["memories[0].memory.version"]
    backwards = record("Updated before created", user)
    backwards.memory.update_time.FromDatetime(datetime(2001, 1, 1, tzinfo=UTC))
    assert _invalid(import_, stub, [[backwards]])[0] == ["memories[0].memory.update_time"]
    twice = record("Same id twice", user, id="same")
    assert _invalid(import_, stub, [[twice, twice]])[0] == ["memories[1].memory.id"]
    assert export(stub, scope=pb.Scope(user_id=user))[1] == []


def test_a_vector_no_query_could_compare_is_invalid_argument(traced: Traced) -> None:
    # These were stored, then found by no search and matched by no near-duplicate.
    stub, user = traced.stub, _fresh("user")
    embedder_id = export(stub, scope=pb.Scope(user_id=user))[0].embedder_id
    for entries in ([0.0] * 384, [1e-45] * 384, [3e38] * 384):
        broken = record("Keeps a vegetable garden", user)
        broken.embedder_id, broken.vector[:] = embedder_id, entries
        fields, message = _invalid(import_, stub, [[broken]])
        assert fields == ["memories[0].vector"] and "ExportMemories" in message
    assert export(stub, scope=pb.Scope(user_id=user))[1] == []

    # Only the direction matters: the embedding at another length is kept, and compares.
    longer = record("Keeps a vegetable garden", user)
    longer.embedder_id = embedder_id
    longer.vector[:] = [x * 1000 for x in _embedding_of(stub, "Keeps a vegetable garden")]
    assert import_(stub, [[longer]]).embedded_count == 0
    again = create(stub, "Keeps a vegetable garden", user=user)
    assert again.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    assert again.memory.id == longer.memory.id


def test_bad_record_in_a_later_message_keeps_the_earlier_messages(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    kept = record("Imported by the first message", user)
    rejected = [record(f"Second message record {i}", user) for i in range(3)]
    rejected.append(record("   ", user))
    fields, message = _invalid(import_, stub, [[kept], rejected])
    assert fields == ["memories[3].memory.content"] and "request message 2" in message
    # The first message was journaled: a read of the scope waits for it.
    assert [r.memory.id for r in export(stub, scope=pb.Scope(user_id=user))[1]] == [kept.memory.id]


def test_bad_export_requests_name_the_field(traced: Traced) -> None:
    stub = traced.stub
    scope = pb.Scope(user_id=_fresh("user"))
    assert _invalid(export, stub, scope=scope, page_size=-1)[0] == ["page_size"]
    assert _invalid(export, stub, scope=pb.Scope(thread_id="t"))[0] == ["scope"]
    bad_type = svc.ExportMemoriesRequest(scope=scope, memory_types=[pb.MEMORY_TYPE_UNSPECIFIED])
    fields = _invalid(lambda: list(stub.ExportMemories(bad_type)))[0]
    assert fields == ["memory_types[0]"]


def test_header_change_sequence_is_the_last_change_in_the_snapshot(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    scope = pb.Scope(user_id=user)
    first = export(stub, scope=scope)[0]
    create(stub, "Reads science fiction", user=user)
    create(stub, "Reads only science fiction", user=user, memory_key="books")
    second = export(stub, scope=scope)[0]
    assert second.change_sequence == first.change_sequence + 2
    assert second.memory_count == 2 and first.memory_count == 0


def test_export_pages_hold_page_size_memories(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    import_(stub, [[record(f"Paged fact {i} about rivers", user) for i in range(7)]])
    responses = list(
        stub.ExportMemories(svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user), page_size=3))
    )
    assert [len(r.memories) for r in responses] == [0, 3, 3, 1]
    assert responses[0].header.memory_count == 7


def test_export_pages_stay_within_the_message_limit(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    header = export(stub, scope=pb.Scope(user_id=user))[0]
    big = []
    for i in range(40):
        item = record(f"Long note {i}: " + "lorem ipsum dolor " * 1600, user)
        item.embedder_id, item.vector[:] = header.embedder_id, [384**-0.5] * 384
        big.append(item)
    assert import_(stub, [big[:20], big[20:]]).embedded_count == 0
    request = svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user), page_size=1000)
    responses = list(stub.ExportMemories(request))
    sizes = [len(r.memories) for r in responses[1:]]
    assert sum(sizes) == 40 and len(sizes) > 1
    assert all(r.ByteSize() < MESSAGE_LIMIT for r in responses)


def test_import_message_over_the_limit_is_refused_whole(traced: Traced) -> None:
    stub, user = traced.stub, _fresh("user")
    huge = [record(f"Huge note {i}: " + "x" * 30_000, user) for i in range(80)]
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, import_, stub, [huge])
    assert "MEMORYD_MAX_MESSAGE_BYTES" in (error.details() or "")
    assert export(stub, scope=pb.Scope(user_id=user))[1] == []


def _open_spools(data_dir: Path) -> int:
    """Export spools open in this process (the in-process server's): unnamed
    temporary files in its data directory (O_TMPFILE: ``#<inode> (deleted)``)."""
    names = []
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            names.append(os.readlink(fd))
    spool = re.compile(re.escape(str(data_dir)) + r"/(#\d+|memoryd-export-\w+) \(deleted\)$")
    return sum(1 for name in names if spool.match(name))


def test_spool_is_deleted_when_the_reader_cancels(traced: Traced) -> None:
    stub, user, data_dir = traced.stub, _fresh("user"), traced.server.settings.data_dir
    # About 1 MB of export against the 64 KiB HTTP/2 window of a channel without
    # BDP probing: the server cannot send it all before the reader reads, so the
    # spool is still open when the header arrives, however fast the machine.
    filler = " about lighthouses and their keepers" * 200
    records = [record(f"Spooled fact {i}{filler}", user) for i in range(120)]
    import_(stub, [records[:60], records[60:]])
    assert _open_spools(data_dir) == 0
    slow = grpc.insecure_channel(traced.server.address, options=[("grpc.http2.bdp_probe", 0)])
    stream = Stub(slow).ExportMemories(
        svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user), page_size=1)
    )
    assert next(stream).header.memory_count == 120
    assert _open_spools(data_dir) == 1
    stream.cancel()
    deadline = time.monotonic() + 30
    while _open_spools(data_dir) and time.monotonic() < deadline:
        time.sleep(0.05)  # the server learns of the cancellation asynchronously
    assert _open_spools(data_dir) == 0
    slow.close()
    list(stub.ExportMemories(svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user))))
    assert _open_spools(data_dir) == 0


# --- authorization ----------------------------------------------------------------

SECRET = "transfer-test-secret-0123456789abcdef"


def _bearer(**claims: Any) -> tuple[tuple[str, str], ...]:
    now = int(time.time())
    body = {"aud": "memoryd", "iss": "https://issuer.test", "iat": now, "exp": now + 3600, **claims}
    return (("authorization", "Bearer " + jwt.encode(body, SECRET, algorithm="HS256")),)


@pytest.fixture(scope="module")
def jwt_stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stub]:
    env = {
        "MEMORYD_AUTH_MODE": "jwt",
        "MEMORYD_JWT_SECRET": SECRET,
        "MEMORYD_JWT_AUDIENCE": "memoryd",
        "MEMORYD_JWT_ISSUER": "https://issuer.test",
    }
    process = ServerProcess(tmp_path_factory.mktemp("transfer-jwt"), env=env).start()
    with process.channel() as channel:
        yield memory_service_pb2_grpc.MemoryServiceStub(channel)
    assert process.stop() == 0, "".join(process.log)


def test_export_of_every_owner_is_for_admins_only(jwt_stub: Stub) -> None:
    alice, admin = _bearer(user_id="alice"), _bearer(sub="ops", scope="memory:admin")
    import_(jwt_stub, [[record("Alice likes tea", "alice")]], metadata=alice)
    import_(jwt_stub, [[record("Alice rides a bike", "alice")]], metadata=alice)
    error = expect_error(grpc.StatusCode.PERMISSION_DENIED, export, jwt_stub, alice)
    assert "memory:admin" in (error.details() or "")
    header, records = export(jwt_stub, admin)
    assert header.memory_count == len(records) == 2
    own = export(jwt_stub, alice, scope=pb.Scope(user_id="alice"))[1]
    assert sorted(r.memory.content for r in own) == sorted(r.memory.content for r in records)
    expect_error(
        grpc.StatusCode.PERMISSION_DENIED, export, jwt_stub, alice, scope=pb.Scope(user_id="bob")
    )


def test_import_is_authenticated_and_authorized_per_record(jwt_stub: Stub) -> None:
    expect_error(grpc.StatusCode.UNAUTHENTICATED, import_, jwt_stub, [[record("x", "bob")]])
    bob = _bearer(user_id="bob")
    mixed = [record("Bob's own memory", "bob"), record("Someone else's memory", "carol")]
    expect_error(grpc.StatusCode.PERMISSION_DENIED, import_, jwt_stub, [mixed], metadata=bob)
    assert export(jwt_stub, bob, scope=pb.Scope(user_id="bob"))[1] == []


# --- a crash in the middle of an import ---------------------------------------------


def _journaled_imports(journal: Path) -> tuple[int, int]:
    """(import entries, pending ones) in the journal of a stopped server."""
    with contextlib.closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT state FROM entries WHERE kind = 'import'").fetchall()
    return len(rows), sum(1 for (state,) in rows if state == "pending")


def test_sigkill_during_import_keeps_whole_messages_and_rerun_adds_no_duplicate(
    tmp_path: Path,
) -> None:
    user = "crash-import"
    messages = [
        [
            record(f"Crash import message {m} keeps fact {r}", user, id=f"m{m}-r{r}")
            for r in range(40)
        ]
        for m in range(30)
    ]
    server = ServerProcess(tmp_path / "data").start()
    assert server.process is not None
    journal, pid = tmp_path / "data" / "journal.sqlite3", server.process.pid
    at_kill: list[tuple[int, int]] = []

    def requests() -> Iterator[svc.ImportMemoriesRequest]:
        for message in messages[:-1]:
            yield svc.ImportMemoriesRequest(memories=message)
        # The kill lands once the journal holds messages not yet applied;
        # the last message is never sent, so the import cannot end first.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            os.kill(pid, signal.SIGSTOP)
            imports, pending = _journaled_imports(journal)
            if pending >= 2:
                at_kill.append((imports, pending))
                server.stop(signal.SIGKILL)
                return
            os.kill(pid, signal.SIGCONT)
            time.sleep(0.05)  # pacing: let the server journal more, then look again

    with server.channel() as channel:
        with pytest.raises(grpc.RpcError) as killed:
            Stub(channel).ImportMemories(requests(), timeout=120)
    assert killed.value.code() == grpc.StatusCode.UNAVAILABLE
    assert at_kill, "the import ended before two messages were pending together"
    ((journaled, _),) = at_kill

    restarted = ServerProcess(tmp_path / "data").start()
    try:
        with restarted.channel() as channel:
            stub = Stub(channel)
            present = {r.memory.id for r in export(stub, scope=pb.Scope(user_id=user))[1]}
            # Each message is one write: wholly stored or wholly absent, and
            # every one journaled before the kill is replayed.
            whole = [all(r.memory.id in present for r in m) for m in messages]
            assert all(
                whole[i] or not any(r.memory.id in present for r in m)
                for i, m in enumerate(messages)
            )
            assert sum(whole) >= journaled and len(present) == 40 * sum(whole)

            rerun = import_(stub, messages)
            assert rerun.unchanged_count == len(present) and rerun.updated_count == 0
            assert rerun.created_count == 40 * len(messages) - len(present)
            final = export(stub, scope=pb.Scope(user_id=user))[1]
    finally:
        assert restarted.stop() == 0
    expected = {r.memory.id: r.memory.content for m in messages for r in m}
    assert len(final) == len(expected)
    assert {r.memory.id: r.memory.content for r in final} == expected


def test_round_trip_on_the_qdrant_server_backend_standin(tmp_path: Path) -> None:
    """The same round trip through RemoteIndex, on qdrant-client's in-memory
    mode as a STAND-IN for a Qdrant server (none can run here)."""
    env = {"MEMORYD_BACKEND": "qdrant"}
    process = ServerProcess(tmp_path / "data", env=env, qdrant_standin=True).start()
    try:
        with process.channel() as channel:
            stub, scope = Stub(channel), pb.Scope(user_id="remote")
            create(stub, "Keeps bees on the roof", user="remote", memory_key="hobby")
            create(stub, "Allergic to cats", user="remote", metadata={"severity": 2})
            before = export(stub, scope=scope)[1]
            forget(stub, scope)
            response = import_(stub, [before])
            assert (response.created_count, response.embedded_count) == (2, 0)
            after, exported = by_id(export(stub, scope=scope)[1]), by_id(before)
    finally:
        assert process.stop() == 0, "".join(process.log)
    # Records come back equal. Vectors within float32 rounding, not bit for
    # bit: Qdrant normalizes cosine vectors again on upsert (Edge keeps them).
    assert {i: (m, e) for i, (m, _, e) in after.items()} == {
        i: (m, e) for i, (m, _, e) in exported.items()
    }
    for memory_id, (_, vector, _) in after.items():
        assert max(abs(a - b) for a, b in zip(vector, exported[memory_id][1], strict=True)) < 1e-6
