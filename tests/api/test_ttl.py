"""Memories that expire: expire_time and ttl on create and update, hidden from every read
once expired, ignored by dedup, and deleted by a journaled background purge.

The visibility tests run on a server whose purge is off, so an expired memory
is still in the index and only the reads' own filter can hide it. The purge
test runs on a server that purges every 0.2 s, and checks the engine's points
and the journal after the server has stopped.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import duration_pb2, timestamp_pb2

from memoryd.core.ports import IndexSpec
from memoryd.store.edge import MANIFEST, EdgeIndex
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, expect_error, field_violations, list_all, new_memory, search
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
ASYNC, SYNC = svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC
MODES = pytest.mark.parametrize("mode", [ASYNC, SYNC], ids=["async", "sync"])
INVALID = grpc.StatusCode.INVALID_ARGUMENT
#: The longest a test waits for a 1 s ttl to pass, or for the purge to run.
WAIT_BOUND_SECONDS = 30.0


@pytest.fixture(scope="module")
def stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stub]:
    """A server that never purges: expired memories stay in the index."""
    env = {"MEMORYD_EXPIRY_PURGE_INTERVAL_SECONDS": "0"}
    process = ServerProcess(tmp_path_factory.mktemp("ttl-no-purge"), env=env).start()
    with process.channel() as channel:
        yield memory_service_pb2_grpc.MemoryServiceStub(channel)
    assert process.stop() == 0, "".join(process.log)


def ttl(seconds: int, nanos: int = 0) -> duration_pb2.Duration:
    return duration_pb2.Duration(seconds=seconds, nanos=nanos)


def at(value: datetime) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(value)
    return stamp


def expiring(content: str, user: str, seconds: int, **fields: object) -> svc.CreateMemoryRequest:
    request = new_memory(content, user=user, **fields)
    request.ttl.CopyFrom(ttl(seconds))
    return request


def wait_until_past(expire_time: timestamp_pb2.Timestamp) -> None:
    """Waits until this host's clock (the server's) has passed ``expire_time``."""
    deadline = expire_time.ToDatetime(tzinfo=UTC)
    assert deadline - datetime.now(UTC) < timedelta(seconds=WAIT_BOUND_SECONDS)
    while (left := (deadline - datetime.now(UTC)).total_seconds()) >= 0:
        time.sleep(left + 0.001)


def get(stub: Stub, memory_id: str, user: str) -> pb.Memory:
    return stub.GetMemory(svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(user_id=user))).memory


def journaled(stub: Stub, token: str) -> datetime:
    status = stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=token))
    return status.create_time.ToDatetime(tzinfo=UTC)


def expiry(memory: pb.Memory) -> datetime | None:
    return memory.expire_time.ToDatetime(tzinfo=UTC) if memory.HasField("expire_time") else None


# --- create -------------------------------------------------------------------


@MODES
def test_a_ttl_create_acknowledges_the_expire_time_it_stores(stub, user, mode):
    ack = stub.CreateMemory(expiring("Is visiting Oslo this week", user, 3600, mode=mode))
    expected = journaled(stub, ack.write_token) + timedelta(seconds=3600)
    assert expiry(ack.memory) == expected
    assert expiry(get(stub, ack.memory.id, user)) == expected


@MODES
def test_a_keyed_ttl_create_acknowledges_the_expire_time_too(stub, user, mode):
    request = expiring("Has a dentist appointment", user, 600, memory_key="dentist", mode=mode)
    ack = stub.CreateMemory(request)
    expected = journaled(stub, ack.write_token) + timedelta(seconds=600)
    assert expiry(ack.memory) == expected
    assert expiry(get(stub, ack.memory.id, user)) == expected


@MODES
def test_an_expire_time_is_stored_as_given(stub, user, mode):
    when = datetime.now(UTC).replace(microsecond=123456) + timedelta(days=2)
    ack = create(stub, "Rents a car until Friday", user=user, expire_time=at(when), mode=mode)
    assert expiry(ack.memory) == when
    assert expiry(get(stub, ack.memory.id, user)) == when
    assert expiry(list_all(stub, pb.Scope(user_id=user))[0]) == when


def test_a_memory_without_expiry_reports_none(stub, user):
    ack = create(stub, "Speaks Portuguese", user=user)
    assert not ack.memory.HasField("expire_time")
    assert not get(stub, ack.memory.id, user).HasField("expire_time")


# --- reads --------------------------------------------------------------------

GONE, LATER, KEEPER = (
    "Is staying at the Grand Hotel in Vienna",
    "Is staying with a friend in Vienna next month",
    "Lives in Vienna",
)


@pytest.fixture(scope="module")
def expired_user(stub: Stub) -> tuple[str, dict[str, str]]:
    """A user with one memory past its ttl, one with an hour left and one that never
    expires; returns the user and the ids by content."""
    user = f"user-{uuid.uuid4().hex[:12]}"
    requests = [expiring(GONE, user, 1), expiring(LATER, user, 3600), new_memory(KEEPER, user=user)]
    ack = stub.BatchCreateMemories(svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC))
    ids = {r.memory.content: r.memory.id for r in ack.results}
    assert [r.outcome for r in ack.results] == [svc.WRITE_OUTCOME_CREATED] * 3
    wait_until_past(ack.results[0].memory.expire_time)
    return user, ids


def test_an_expired_memory_is_not_found(stub, expired_user):
    user, ids = expired_user
    error = expect_error(grpc.StatusCode.NOT_FOUND, get, stub, ids[GONE], user)
    assert ids[GONE] in error.details()
    assert get(stub, ids[LATER], user).content == LATER


def test_an_expired_memory_is_not_listed(stub, expired_user):
    user, ids = expired_user
    listed = list_all(stub, pb.Scope(user_id=user))
    assert {m.id for m in listed} == {ids[LATER], ids[KEEPER]}
    pages = list_all(stub, pb.Scope(user_id=user), page_size=1)  # tokens still resume
    assert [m.id for m in pages] == [m.id for m in listed]


@pytest.mark.parametrize("mode", [svc.RETRIEVAL_MODE_DENSE, svc.RETRIEVAL_MODE_HYBRID])
def test_an_expired_memory_is_not_searched(stub, expired_user, mode):
    user, ids = expired_user
    hits = search(stub, "Which hotel is the user staying at?", user=user, retrieval_mode=mode)
    assert {h.memory.id for h in hits} == {ids[LATER], ids[KEEPER]}


def test_an_expired_memory_is_not_preloaded(stub, expired_user):
    user, ids = expired_user
    request = svc.PreloadRequest(
        query="Where is the user staying?", user_scope=pb.Scope(user_id=user)
    )
    events = list(stub.Preload(request, timeout=10))
    hits = [r.memory.id for e in events if e.HasField("hits") for r in e.hits.results]
    (context,) = [e.context for e in events if e.HasField("context")]
    assert set(hits) == set(context.memory_ids) == {ids[LATER], ids[KEEPER]}
    assert GONE not in context.text


def test_a_preload_etag_ends_when_a_hit_expires(stub, user):
    """No write changes the scope, yet the context changes when a hit expires:
    the etag says until when it holds."""
    short = stub.CreateMemory(expiring("Is in a meeting until 3 pm", user, 3, mode=SYNC))
    create(stub, "Works as an architect", user=user)
    request = svc.PreloadRequest(query="What is the user doing?", user_scope=pb.Scope(user_id=user))
    first = list(stub.Preload(request, timeout=10))
    assert short.memory.id in first[-2].context.memory_ids, "took over 3 s to preload"
    request.if_none_match = first[-1].done.etag
    assert list(stub.Preload(request, timeout=10))[0].HasField("not_modified")
    wait_until_past(short.memory.expire_time)
    after = list(stub.Preload(request, timeout=10))
    assert after[-1].HasField("done") and after[-1].done.etag not in ("", request.if_none_match)
    assert short.memory.id not in after[-2].context.memory_ids
    request.if_none_match = after[-1].done.etag  # no expiry left among the hits
    assert list(stub.Preload(request, timeout=10))[0].HasField("not_modified")


def test_an_expired_memory_is_not_counted_by_a_forget_dry_run(stub, expired_user):
    user, _ = expired_user
    request = svc.ForgetMemoriesRequest(scope=pb.Scope(user_id=user), dry_run=True)
    assert stub.ForgetMemories(request).deleted_count == 2


def test_an_expired_memory_cannot_be_updated_or_deleted(stub, expired_user):
    user, ids = expired_user
    memory = pb.Memory(id=ids[GONE], scope=pb.Scope(user_id=user), content="Checked out")
    update = svc.UpdateMemoryRequest(memory=memory, mode=SYNC)
    expect_error(grpc.StatusCode.NOT_FOUND, stub.UpdateMemory, update)
    delete = svc.DeleteMemoryRequest(id=ids[GONE], scope=pb.Scope(user_id=user), mode=SYNC)
    expect_error(grpc.StatusCode.NOT_FOUND, stub.DeleteMemory, delete)


# --- dedup --------------------------------------------------------------------


def test_an_expired_memory_is_no_near_duplicate(stub, user):
    first = stub.CreateMemory(expiring("Is allergic to peanuts", user, 1, mode=SYNC))
    lasting = stub.CreateMemory(expiring("Is allergic to cats", user, 3600, mode=SYNC))
    wait_until_past(first.memory.expire_time)
    again = create(stub, "Is allergic to peanuts", user=user)
    assert again.outcome == svc.WRITE_OUTCOME_CREATED
    assert again.memory.id != first.memory.id
    # A memory that has not expired yet still counts.
    duplicate = create(stub, "Is allergic to cats", user=user)
    assert duplicate.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    assert duplicate.memory.id == lasting.memory.id


@MODES
def test_a_key_whose_memory_expired_creates_a_fresh_memory(stub, user, mode):
    first = stub.CreateMemory(
        expiring("Flight lands at 9", user, 1, memory_key="flight", mode=SYNC)
    )
    wait_until_past(first.memory.expire_time)
    again = create(stub, "Flight lands at 11", user=user, memory_key="flight", mode=mode)
    stored = get(stub, again.memory.id, user)
    assert (stored.content, stored.version, stored.HasField("expire_time")) == (
        "Flight lands at 11",
        1,
        False,
    )
    assert stored.create_time.ToDatetime() > first.memory.create_time.ToDatetime()
    if mode == SYNC:
        assert again.outcome == svc.WRITE_OUTCOME_CREATED and again.memory == stored
    assert [m.id for m in list_all(stub, pb.Scope(user_id=user))] == [stored.id]


def test_an_id_whose_memory_expired_creates_a_fresh_memory(stub, user):
    first = stub.CreateMemory(expiring("Parked on level 3", user, 1, memory_id="car", mode=SYNC))
    wait_until_past(first.memory.expire_time)
    again = create(stub, "Parked on level 5", user=user, memory_id="car")
    assert again.outcome == svc.WRITE_OUTCOME_CREATED
    assert (again.memory.id, again.memory.version) == ("car", 1)
    assert get(stub, "car", user) == again.memory


def test_a_keyed_create_over_a_live_memory_takes_the_new_expiry(stub, user):
    first = stub.CreateMemory(expiring("Works from home", user, 3600, memory_key="office"))
    replaced = create(stub, "Works from the Lisbon office", user=user, memory_key="office")
    assert replaced.outcome == svc.WRITE_OUTCOME_UPDATED_EXISTING
    assert replaced.memory.id == first.memory.id
    assert not replaced.memory.HasField("expire_time")
    renewed = stub.CreateMemory(expiring("Works from home again", user, 60, memory_key="office"))
    assert expiry(renewed.memory) == journaled(stub, renewed.write_token) + timedelta(seconds=60)


# --- update -------------------------------------------------------------------


def _update(
    stub: Stub, memory: pb.Memory, *paths: str, **fields: object
) -> svc.UpdateMemoryResponse:
    request = svc.UpdateMemoryRequest(memory=memory, mode=fields.pop("mode", SYNC), **fields)
    request.update_mask.paths.extend(paths)
    response: svc.UpdateMemoryResponse = stub.UpdateMemory(request)
    return response


def test_an_update_sets_and_clears_expire_time(stub, user):
    created = create(stub, "Is on parental leave", user=user)
    scope = pb.Scope(user_id=user)
    when = datetime.now(UTC).replace(microsecond=5) + timedelta(days=30)
    memory = pb.Memory(id=created.memory.id, scope=scope, expire_time=at(when))
    assert expiry(_update(stub, memory, "expire_time").memory) == when
    # Other fields leave the expiry as it is.
    renamed = pb.Memory(id=created.memory.id, scope=scope, content="Is on parental leave in May")
    assert expiry(_update(stub, renamed, "content").memory) == when
    cleared = _update(stub, pb.Memory(id=created.memory.id, scope=scope), "expire_time")
    assert not cleared.memory.HasField("expire_time")
    assert not get(stub, created.memory.id, user).HasField("expire_time")


def test_expire_time_set_without_a_mask_is_updated(stub, user):
    created = create(stub, "Is training for a marathon", user=user)
    when = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)
    memory = pb.Memory(id=created.memory.id, scope=pb.Scope(user_id=user), expire_time=at(when))
    updated = _update(stub, memory)
    assert expiry(updated.memory) == when
    assert updated.memory.content == "Is training for a marathon"


@MODES
def test_an_update_ttl_counts_from_the_update(stub, user, mode):
    created = create(stub, "Is waiting for a parcel", user=user)
    memory = pb.Memory(id=created.memory.id, scope=pb.Scope(user_id=user))
    ack = _update(stub, memory, ttl=ttl(90), mode=mode)
    expected = journaled(stub, ack.write_token) + timedelta(seconds=90)
    stored = get(stub, created.memory.id, user)
    assert expiry(stored) == expected
    assert stored.version == 2 and stored.content == "Is waiting for a parcel"
    if mode == SYNC:
        assert ack.memory == stored


def test_an_update_to_a_past_expire_time_expires_the_memory_at_once(stub, user):
    created = create(stub, "Has a cold", user=user)
    past = datetime.now(UTC) - timedelta(minutes=1)
    memory = pb.Memory(id=created.memory.id, scope=pb.Scope(user_id=user), expire_time=at(past))
    _update(stub, memory, "expire_time")
    expect_error(grpc.StatusCode.NOT_FOUND, get, stub, created.memory.id, user)
    assert list_all(stub, pb.Scope(user_id=user)) == []


def test_star_mask_covers_expire_time(stub, user):
    created = stub.CreateMemory(expiring("Likes jazz", user, 3600, mode=SYNC))
    memory = pb.Memory(
        id=created.memory.id,
        scope=pb.Scope(user_id=user),
        content="Likes blues",
        memory_type=pb.MEMORY_TYPE_SEMANTIC,
    )
    updated = _update(stub, memory, "*")
    assert updated.memory.content == "Likes blues"
    assert not updated.memory.HasField("expire_time")  # "*" with it unset clears it


# --- bad input ----------------------------------------------------------------

FAR_FUTURE = timestamp_pb2.Timestamp(seconds=253_402_300_800)  # 10000-01-01
HUNDRED_YEARS = 36_525 * 86_400


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"ttl": ttl(0)}, "ttl"),
        ({"ttl": ttl(-5)}, "ttl"),
        ({"ttl": ttl(0, -1)}, "ttl"),
        ({"ttl": ttl(HUNDRED_YEARS + 1)}, "ttl"),
        ({"ttl": ttl(315_576_000_001)}, "ttl"),
        ({"ttl": ttl(1, -1)}, "ttl"),
        ({"ttl": ttl(1, 1_000_000_000)}, "ttl"),
        ({"expire_time": at(datetime.now(UTC) - timedelta(seconds=1))}, "memory.expire_time"),
        ({"expire_time": FAR_FUTURE}, "memory.expire_time"),
        ({"expire_time": timestamp_pb2.Timestamp(seconds=10, nanos=-1)}, "memory.expire_time"),
        (
            {"expire_time": at(datetime.now(UTC) + timedelta(days=1)), "ttl": ttl(60)},
            "ttl",
        ),
    ],
    ids=[
        "zero_ttl",
        "negative_ttl",
        "negative_nanos_ttl",
        "ttl_over_100_years",
        "ttl_outside_duration",
        "ttl_signs_differ",
        "ttl_nanos_overflow",
        "past_expire_time",
        "expire_time_outside_timestamp",
        "expire_time_bad_nanos",
        "both",
    ],
)
def test_bad_expiry_on_create_is_invalid_argument(stub, user, fields, field):
    request = new_memory("Is on holiday", user=user)
    if "ttl" in fields:
        request.ttl.CopyFrom(fields["ttl"])
    if "expire_time" in fields:
        request.memory.expire_time.CopyFrom(fields["expire_time"])
    error = expect_error(INVALID, stub.CreateMemory, request)
    assert field_violations(error) == [field]
    assert list_all(stub, pb.Scope(user_id=user)) == []


def test_a_ttl_of_exactly_100_years_is_accepted(stub, user):
    ack = stub.CreateMemory(expiring("Owns the house", user, HUNDRED_YEARS, mode=SYNC))
    assert expiry(ack.memory) == journaled(stub, ack.write_token) + timedelta(days=36_525)


def test_a_bad_ttl_in_a_batch_names_its_request(stub, user):
    requests = [new_memory("Drinks tea", user=user), expiring("Drinks coffee", user, -1)]
    batch = svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC)
    error = expect_error(INVALID, stub.BatchCreateMemories, batch)
    assert field_violations(error) == ["requests[1].ttl"]


@pytest.mark.parametrize(
    ("paths", "fields", "field"),
    [
        (["expire_time"], {"ttl": ttl(60)}, "ttl"),
        (["*"], {"ttl": ttl(60)}, "ttl"),
        ([], {"ttl": ttl(0)}, "ttl"),
        ([], {"ttl": ttl(HUNDRED_YEARS + 1)}, "ttl"),
        (["expire_time"], {"expire_time": FAR_FUTURE}, "memory.expire_time"),
    ],
    ids=["ttl_and_mask", "ttl_and_star", "zero_ttl", "ttl_over_100_years", "out_of_range"],
)
def test_bad_expiry_on_update_is_invalid_argument(stub, user, paths, fields, field):
    created = create(stub, "Has a season ticket", user=user)
    scope = pb.Scope(user_id=user)
    memory = pb.Memory(
        id=created.memory.id, scope=scope, content="Has two", memory_type=pb.MEMORY_TYPE_SEMANTIC
    )
    if "expire_time" in fields:
        memory.expire_time.CopyFrom(fields["expire_time"])
    request = svc.UpdateMemoryRequest(memory=memory, mode=SYNC)
    request.update_mask.paths.extend(paths)
    if "ttl" in fields:
        request.ttl.CopyFrom(fields["ttl"])
    error = expect_error(INVALID, stub.UpdateMemory, request)
    assert field_violations(error) == [field]
    assert get(stub, created.memory.id, user).version == 1


# --- purge --------------------------------------------------------------------


def _expire_entries(journal: Path) -> list[tuple[str, dict[str, Any]]]:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "SELECT state, outcome FROM entries WHERE kind = 'expire' ORDER BY seq"
        ).fetchall()
    return [(state, json.loads(outcome) if outcome else {}) for state, outcome in rows]


def _stored_ids(data_dir: Path) -> set[str]:
    """The memory ids of every point in the stopped server's Edge shard."""
    manifest = json.loads((data_dir / MANIFEST).read_text())
    spec = IndexSpec(manifest["embedder_id"], manifest["dimension"])

    async def scan() -> set[str]:
        index = EdgeIndex.open(data_dir, spec)
        try:
            page = await index.scan(None, 1000, None)
            return {record.payload["memory_id"] for record in page.records}
        finally:
            await index.close()

    return asyncio.run(scan())


def test_the_purge_deletes_expired_points_and_journals_them(tmp_path, user):
    env = {"MEMORYD_EXPIRY_PURGE_INTERVAL_SECONDS": "0.2"}
    journal = tmp_path / "journal.sqlite3"
    process = ServerProcess(tmp_path, env=env).start()
    try:
        with process.channel() as channel:
            purging = memory_service_pb2_grpc.MemoryServiceStub(channel)
            requests = [
                expiring("Takes the 8:15 train", user, 1),
                expiring("Has a meeting at noon", user, 1),
                expiring("Is at the gym until 7", user, 3600),
                new_memory("Commutes by train", user=user),
            ]
            ack = purging.BatchCreateMemories(
                svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC)
            )
            ids = [r.memory.id for r in ack.results]
            wait_until_past(ack.results[0].memory.expire_time)
            deadline = time.monotonic() + WAIT_BOUND_SECONDS
            while not any(state == "applied" for state, _ in _expire_entries(journal)):
                assert time.monotonic() < deadline, "no purge was applied"
                time.sleep(0.05)
    finally:
        assert process.stop() == 0, "".join(process.log)
    (state, outcome), *more = _expire_entries(journal)
    assert state == "applied" and more == []
    assert outcome["deleted_count"] == 2
    assert {d["memory_id"] for d in outcome["deleted"]} == set(ids[:2])
    assert _stored_ids(tmp_path) == set(ids[2:])
