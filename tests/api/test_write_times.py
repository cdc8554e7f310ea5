"""A write stores the time it was journaled, and its acknowledgement reports the times stored.

The journal time is what GetWriteStatus reports as the write's create_time.
"""

from __future__ import annotations

import signal

import pytest
from google.protobuf import timestamp_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, list_all, new_memory
from support import ServerProcess

ASYNC, SYNC = svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC
MODES = pytest.mark.parametrize("mode", [ASYNC, SYNC], ids=["async", "sync"])


def _journaled(
    stub: memory_service_pb2_grpc.MemoryServiceStub, token: str
) -> timestamp_pb2.Timestamp:
    status = stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=token))
    return status.create_time


def _stored(
    stub: memory_service_pb2_grpc.MemoryServiceStub, memory_id: str, user: str
) -> pb.Memory:
    """The memory as stored; the read waits for the user's writes to be applied."""
    request = svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(user_id=user))
    return stub.GetMemory(request).memory


@MODES
def test_a_create_acknowledges_the_times_it_stores(stub, user, mode):
    ack = create(stub, "Prefers window seats", user=user, mode=mode)
    stored = _stored(stub, ack.memory.id, user)
    journaled = _journaled(stub, ack.write_token)
    assert ack.memory.create_time == stored.create_time == journaled
    assert ack.memory.update_time == stored.update_time == journaled


@MODES
def test_a_batch_create_acknowledges_the_times_it_stores(stub, user, mode):
    requests = [
        new_memory(text, user=user, mode=mode)
        for text in ("Drinks oat milk", "Lives in Lisbon", "Has a dog named Pixel")
    ]
    ack = stub.BatchCreateMemories(svc.BatchCreateMemoriesRequest(requests=requests, mode=mode))
    journaled = _journaled(stub, ack.write_token)
    for result in ack.results:
        stored = _stored(stub, result.memory.id, user)
        assert result.memory.create_time == stored.create_time == journaled
        assert result.memory.update_time == stored.update_time == journaled


@MODES
def test_an_update_stores_the_time_it_was_journaled(stub, user, mode):
    created = create(stub, "Owns a red bicycle", user=user, mode=SYNC)
    ack = stub.UpdateMemory(
        svc.UpdateMemoryRequest(
            memory=pb.Memory(
                id=created.memory.id, scope=pb.Scope(user_id=user), content="Owns a blue bicycle"
            ),
            mode=mode,
        )
    )
    stored = _stored(stub, created.memory.id, user)
    assert stored.content == "Owns a blue bicycle"
    assert stored.update_time == _journaled(stub, ack.write_token)
    assert stored.create_time == created.memory.create_time
    if mode == SYNC:
        assert ack.memory == stored
    else:
        assert not ack.HasField("memory")  # the contract: empty in ASYNC mode


@MODES
def test_a_create_that_updates_by_key_acknowledges_only_times_it_stores(stub, user, mode):
    first = create(stub, "Seat preference: aisle", user=user, memory_key="seat", mode=SYNC)
    ack = create(stub, "Seat preference: window", user=user, memory_key="seat", mode=mode)
    stored = _stored(stub, first.memory.id, user)
    assert stored.content == "Seat preference: window" and stored.version == 2
    # The memory keeps its create time; the update is the second write's journal time.
    assert stored.create_time == first.memory.create_time
    assert stored.update_time == _journaled(stub, ack.write_token)
    if mode == SYNC:
        assert ack.memory == stored
    else:
        # Whether the key exists is known only when the write is applied, so
        # the acknowledgement cannot know the create time, and reports none.
        assert not ack.memory.HasField("create_time")
        assert ack.memory.update_time == stored.update_time


def test_writes_replayed_after_a_crash_store_the_time_they_were_journaled(tmp_path):
    # Exact duplicates only: these similar texts must all be stored.
    env = {"MEMORYD_DEDUP_THRESHOLD": "1.0"}
    first = ServerProcess(tmp_path / "data", env=env).start()
    with first.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        acks = [
            result
            for batch in range(2)
            for result in stub.BatchCreateMemories(
                svc.BatchCreateMemoriesRequest(
                    mode=ASYNC,
                    requests=[
                        new_memory(
                            f"Replayed fact {batch}-{i}: "
                            + " ".join(f"r{batch}x{i}y{j}" for j in range(12)),
                            user="replay",
                            mode=ASYNC,
                        )
                        for i in range(100)
                    ],
                )
            ).results
        ]
    first.stop(signal.SIGKILL)  # with most of the 200 writes still queued

    second = ServerProcess(tmp_path / "data", env=env).start()
    try:
        # What this test is about: writes applied only after the restart.
        assert "replaying" in "".join(second.log)
        with second.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            replayed = list_all(stub, pb.Scope(user_id="replay"), timeout=120)
            stored = {m.id: m for m in replayed}
        assert sorted(stored) == sorted(a.memory.id for a in acks)
        for ack in acks:
            assert stored[ack.memory.id].create_time == ack.memory.create_time
            assert stored[ack.memory.id].update_time == ack.memory.update_time
    finally:
        assert second.stop() == 0
