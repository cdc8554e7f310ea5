"""Journaled writes: ASYNC and SYNC modes, write status, read-your-writes, request ids."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC

import grpc
from google.rpc import error_details_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import (
    create,
    expect_error,
    field_violations,
    list_all,
    new_memory,
    rich_status,
    search,
    unpack,
)
from support import ServerProcess

ASYNC, SYNC = svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC


def _seq(token: str) -> int:
    return int(token.rpartition("-")[2])


def test_async_create_is_accepted_then_searchable_at_once(stub, user):
    response = create(stub, "The user is in UTC-5", user=user, mode=ASYNC)
    assert response.outcome == svc.WRITE_OUTCOME_ACCEPTED
    assert response.write_token
    assert uuid.UUID(response.memory.id)
    hits = search(stub, "What timezone is the user in?", user=user)
    assert [h.memory.id for h in hits] == [response.memory.id]


def test_sync_create_answers_with_the_final_outcome_and_is_searchable(stub, user):
    response = create(stub, "The user is in UTC-5", user=user, mode=SYNC)
    assert response.outcome == svc.WRITE_OUTCOME_CREATED and response.memory.version == 1
    assert (
        search(stub, "What timezone is the user in?", user=user)[0].memory.id == response.memory.id
    )


def test_default_mode_is_async(stub, user):
    response = stub.CreateMemory(
        svc.CreateMemoryRequest(
            memory=pb.Memory(content="Default mode", scope=pb.Scope(user_id=user))
        )
    )
    assert response.outcome == svc.WRITE_OUTCOME_ACCEPTED


def test_write_status_reports_the_final_result(stub, user):
    accepted = create(stub, "Likes green tea", user=user, memory_key="tea", mode=ASYNC)
    list_all(stub, pb.Scope(user_id=user))  # a read waits for the write
    status = stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=accepted.write_token))
    assert status.state == svc.WRITE_STATE_APPLIED
    assert status.apply_time.seconds >= status.create_time.seconds > 0
    assert status.WhichOneof("result") == "create_memory"
    assert status.create_memory.outcome == svc.WRITE_OUTCOME_CREATED
    assert status.create_memory.memory.id == accepted.memory.id


def test_async_update_of_a_missing_memory_fails_in_its_status_and_the_queue_moves_on(stub, user):
    update = stub.UpdateMemory(
        svc.UpdateMemoryRequest(
            memory=pb.Memory(id="missing", scope=pb.Scope(user_id=user), content="x"), mode=ASYNC
        )
    )
    later = create(stub, "Written after the failing update", user=user, mode=ASYNC)
    assert search(stub, "written after", user=user)[0].memory.id == later.memory.id
    status = stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=update.write_token))
    assert status.state == svc.WRITE_STATE_FAILED
    assert status.error.code == grpc.StatusCode.NOT_FOUND.value[0]
    assert "missing" in status.error.message


def test_unknown_or_empty_write_token(stub):
    expect_error(
        grpc.StatusCode.NOT_FOUND,
        stub.GetWriteStatus,
        svc.GetWriteStatusRequest(write_token="nope-1"),
    )
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT, stub.GetWriteStatus, svc.GetWriteStatusRequest()
    )
    assert field_violations(error) == ["write_token"]


def test_create_update_delete_apply_in_order(stub, user):
    created = create(stub, "Owns a red bicycle", user=user, memory_id="bike", mode=ASYNC)
    stub.UpdateMemory(
        svc.UpdateMemoryRequest(
            memory=pb.Memory(
                id="bike", scope=pb.Scope(user_id=user), content="Owns a blue bicycle"
            ),
            mode=ASYNC,
        )
    )
    deleted = stub.DeleteMemory(
        svc.DeleteMemoryRequest(id="bike", scope=pb.Scope(user_id=user), mode=ASYNC)
    )
    assert _seq(created.write_token) < _seq(deleted.write_token)
    assert list_all(stub, pb.Scope(user_id=user)) == []
    status = stub.GetWriteStatus(svc.GetWriteStatusRequest(write_token=deleted.write_token))
    assert status.state == svc.WRITE_STATE_APPLIED


def test_fifty_concurrent_async_creates_with_one_key_last_write_wins(stub, user):
    def store(i: int) -> svc.CreateMemoryResponse:
        return create(stub, f"Favourite number is {i}", user=user, memory_key="n", mode=ASYNC)

    with ThreadPoolExecutor(max_workers=50) as pool:
        responses = list(pool.map(store, range(50)))

    assert {r.outcome for r in responses} == {svc.WRITE_OUTCOME_ACCEPTED}
    (stored,) = list_all(stub, pb.Scope(user_id=user))
    last = max(responses, key=lambda r: _seq(r.write_token))
    assert stored.content == last.memory.content
    assert stored.version == 50


def test_consistency_token_waits_for_that_write(stub, user):
    written = create(stub, "Shared fact for the whole team", agent_id=f"agent-{user}", mode=ASYNC)
    got = stub.GetMemory(
        svc.GetMemoryRequest(
            id=written.memory.id,
            scope=pb.Scope(agent_id=f"agent-{user}"),
            consistency_token=written.write_token,
        )
    )
    assert got.memory.content == "Shared fact for the whole team"
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(
            query="q", scope=pb.Scope(user_id=user), consistency_token="bogus"
        ),
    )
    assert field_violations(error) == ["consistency_token"]


def test_retry_with_the_same_request_id_returns_the_first_result(stub, user):
    request_id = str(uuid.uuid4())
    first = create(stub, "Prefers aisle seats", user=user, request_id=request_id, mode=ASYNC)
    again = create(stub, "Prefers aisle seats", user=user, request_id=request_id, mode=ASYNC)
    assert again.write_token == first.write_token
    assert again.memory.id == first.memory.id
    synced = create(stub, "Prefers aisle seats", user=user, request_id=request_id, mode=SYNC)
    assert synced.outcome == svc.WRITE_OUTCOME_CREATED and synced.memory.id == first.memory.id
    assert len(list_all(stub, pb.Scope(user_id=user))) == 1


def test_request_id_reused_for_another_request_is_rejected(stub, user):
    request_id = str(uuid.uuid4())
    create(stub, "First request", user=user, request_id=request_id)
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.CreateMemory,
        new_memory("A different request", user=user, request_id=request_id),
    )
    assert field_violations(error) == ["request_id"]
    assert [m.content for m in list_all(stub, pb.Scope(user_id=user))] == ["First request"]


def test_request_ids_are_remembered_across_a_restart(tmp_path):
    request_id = str(uuid.uuid4())
    first = ServerProcess(tmp_path / "data").start()
    with first.channel() as channel:
        token = create(
            memory_service_pb2_grpc.MemoryServiceStub(channel),
            "Remember me",
            user="u",
            request_id=request_id,
        ).write_token
    assert first.stop() == 0
    second = ServerProcess(tmp_path / "data").start()
    try:
        with second.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            again = create(stub, "Remember me", user="u", request_id=request_id)
            assert again.write_token == token
            assert len(list_all(stub, pb.Scope(user_id="u"))) == 1
    finally:
        assert second.stop() == 0


def test_backlog_bound_gives_resource_exhausted_with_retry_info(tmp_path):
    env = {"MEMORYD_MAX_WRITE_BACKLOG": "3"}
    process = ServerProcess(tmp_path / "data", env=env, apply_delay=1).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            accepted, rejected = [], []
            for i in range(12):
                try:
                    accepted.append(
                        create(
                            stub, f"Backlog fact {i}: {'abcdefghijkl'[i] * 3}", user="u", mode=ASYNC
                        )
                    )
                except grpc.RpcError as error:
                    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    details = rich_status(error).details
                    (retry,) = [
                        unpack(d, error_details_pb2.RetryInfo)
                        for d in details
                        if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)
                    ]
                    assert retry.retry_delay.ToTimedelta().total_seconds() > 0
                    rejected.append(i)
            assert len(accepted) == 3 and len(rejected) == 9
            stored = list_all(stub, pb.Scope(user_id="u"))
            assert sorted(m.id for m in stored) == sorted(r.memory.id for r in accepted)
    finally:
        assert process.stop() == 0


def test_read_with_a_short_deadline_while_indexing_is_slow_is_deadline_exceeded(tmp_path):
    process = ServerProcess(tmp_path / "data", apply_delay=3).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            written = create(stub, "The user is in UTC-5", user="u", mode=ASYNC)
            request = svc.SearchMemoriesRequest(query="timezone", scope=pb.Scope(user_id="u"))
            error = expect_error(
                grpc.StatusCode.DEADLINE_EXCEEDED, stub.SearchMemories, request, timeout=0.5
            )
            assert written.write_token in error.details()
            hits = stub.SearchMemories(request, timeout=30).results
            assert [h.memory.id for h in hits] == [written.memory.id]
    finally:
        assert process.stop() == 0


def test_sigterm_drains_what_it_can_and_the_rest_replays(tmp_path):
    env = {"MEMORYD_SHUTDOWN_DRAIN_SECONDS": "0.5"}
    first = ServerProcess(tmp_path / "data", env=env, apply_delay=0.25).start()
    with first.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        ids = [
            create(stub, f"Queued fact {i} {'xyzuvw'[i % 6] * i}", user="u", mode=ASYNC).memory.id
            for i in range(12)
        ]
    assert first.stop() == 0
    assert "not yet indexed" in "".join(first.log)

    second = ServerProcess(tmp_path / "data").start()
    try:
        assert "replaying" in "".join(second.log)
        with second.channel() as channel:
            stored = list_all(
                memory_service_pb2_grpc.MemoryServiceStub(channel), pb.Scope(user_id="u")
            )
        assert sorted(m.id for m in stored) == sorted(ids)
    finally:
        assert second.stop() == 0


def test_writes_after_sigterm_are_refused_while_reads_finish(tmp_path):
    env = {"MEMORYD_SHUTDOWN_GRACE_SECONDS": "30"}
    process = ServerProcess(tmp_path / "data", env=env, apply_delay=1).start()
    with process.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        create(stub, "Pending while we shut down", user="u", mode=ASYNC)
        reading = stub.SearchMemories.future(
            svc.SearchMemoriesRequest(query="pending", scope=pb.Scope(user_id="u"))
        )
        threading.Event().wait(0.2)
        assert process.process is not None
        process.process.send_signal(15)
        threading.Event().wait(0.2)
        try:
            create(stub, "Too late", user="u", mode=ASYNC)
            raise AssertionError("a write was accepted after SIGTERM")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert len(reading.result(timeout=30).results) == 1
    assert process.wait_exit() == 0


def test_a_finished_write_is_forgotten_once_its_retention_has_passed_since_it_finished(tmp_path):
    retention = 3.0
    env = {"MEMORYD_REQUEST_ID_RETENTION_SECONDS": str(retention)}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            request_id = str(uuid.uuid4())
            first = create(stub, "Prefers aisle seats", user="u", request_id=request_id, mode=SYNC)
            asking = svc.GetWriteStatusRequest(write_token=first.write_token)
            status = stub.GetWriteStatus(asking)
            assert status.state == svc.WRITE_STATE_APPLIED
            finished = status.apply_time.ToDatetime(tzinfo=UTC).timestamp()
            # Time has to pass here: poll for the answer, within a generous bound.
            deadline = time.monotonic() + 60
            while True:
                try:
                    stub.GetWriteStatus(asking)
                except grpc.RpcError as error:
                    assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()
                    break
                assert time.monotonic() < deadline, "the finished write was never forgotten"
                threading.Event().wait(0.2)
            # Never earlier than its retention, counted from when it finished.
            assert time.time() >= finished + retention
            # Its request id is forgotten with it: the same request is a new write.
            again = create(stub, "Prefers aisle seats", user="u", request_id=request_id, mode=SYNC)
            assert again.write_token != first.write_token
    finally:
        assert process.stop() == 0
