"""The server process: health, reflection, persistence, start-up checks and shutdown."""

from __future__ import annotations

import json
import signal

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, list_all, search
from support import ServerProcess


def test_health_reports_serving(channel):
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "memoryd.v1.MemoryService"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service))
        assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_and_describes_every_rpc(channel):
    database = ProtoReflectionDescriptorDatabase(channel)
    services = set(database.get_services())
    assert {"memoryd.v1.MemoryService", "grpc.health.v1.Health"} <= services
    from google.protobuf.descriptor_pool import DescriptorPool

    pool = DescriptorPool(database)
    service = pool.FindServiceByName("memoryd.v1.MemoryService")
    assert {m.name for m in service.methods} == {
        "CreateMemory",
        "BatchCreateMemories",
        "GetMemory",
        "ListMemories",
        "UpdateMemory",
        "DeleteMemory",
        "SearchMemories",
        "ForgetMemories",
        "GetWriteStatus",
        "Preload",
        "ExportMemories",
        "ImportMemories",
        "WatchMemories",
        "GetStats",
        "StartReembed",
        "GetReembedStatus",
    }
    assert pool.FindMessageTypeByName("memoryd.v1.Memory").fields_by_name["scope"]


def test_memories_survive_a_restart(tmp_path):
    first = ServerProcess(tmp_path / "data").start()
    try:
        with first.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            created = create(
                stub, "The user's passport expires in March", user="u1", memory_key="passport"
            )
            create(stub, "Office is on the fourth floor", agent_id="concierge")
    finally:
        assert first.stop() == 0

    second = ServerProcess(tmp_path / "data").start()
    try:
        with second.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            got = stub.GetMemory(
                svc.GetMemoryRequest(id=created.memory.id, scope=pb.Scope(user_id="u1"))
            )
            assert got.memory == created.memory
            assert (
                search(stub, "When does the passport expire?", user="u1")[0].memory.id
                == created.memory.id
            )
            again = create(
                stub, "The user's passport expires in April", user="u1", memory_key="passport"
            )
            assert again.outcome == svc.WRITE_OUTCOME_UPDATED_EXISTING and again.memory.version == 2
            assert (
                search(stub, "Which floor?", agent_id="concierge")[0].memory.content
                == "Office is on the fourth floor"
            )
    finally:
        assert second.stop() == 0


def test_writes_survive_sigkill(tmp_path):
    first = ServerProcess(tmp_path / "data").start()
    with first.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        ids = [
            create(stub, f"Acknowledged fact {i} {'q' * i}", user="u1").memory.id for i in range(20)
        ]
    first.stop(signal.SIGKILL)

    second = ServerProcess(tmp_path / "data").start()
    try:
        with second.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            for memory_id in ids:
                stub.GetMemory(svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(user_id="u1")))
    finally:
        assert second.stop() == 0


def test_start_with_another_embedder_fails_clearly(tmp_path):
    data = tmp_path / "data"
    ServerProcess(data).start().stop()
    manifest = json.loads((data / "index.json").read_text())
    manifest["embedder_id"] = "some-other-model"
    (data / "index.json").write_text(json.dumps(manifest))

    process = ServerProcess(data)
    try:
        process.start()
        raise AssertionError("the server started on an index of another embedder")
    except RuntimeError:
        pass
    assert process.process is not None and process.wait_exit() == 1
    log = "".join(process.log)
    assert "some-other-model" in log and "all-MiniLM-L6-v2-onnx-int8" in log


def test_second_server_on_the_same_data_dir_is_refused(server):
    second = ServerProcess(server.data_dir)
    try:
        second.start()
        raise AssertionError("two servers opened one data directory")
    except RuntimeError:
        pass
    assert second.wait_exit() == 1
    assert "in use by another memoryd process" in "".join(second.log)


TOMATOES = "the user grows tomatoes on the balcony"
TIMEZONE = "the user's timezone is Europe/Lisbon"


def test_a_refused_second_server_leaves_the_running_one_intact(tmp_path):
    """The second server is refused before it opens anything in the directory. Qdrant
    Edge's own lock came too late: the refused process had already rewritten a file
    of the running server's shard, whose every flush then failed, at shutdown too."""
    env = {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "0"}  # a flush after every write
    first = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with first.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            create(stub, TOMATOES, user="owner")
            second = ServerProcess(first.data_dir)
            with pytest.raises(RuntimeError):
                second.start()
            assert second.wait_exit() == 1
            assert "in use by another memoryd process" in "".join(second.log)
            create(stub, TIMEZONE, user="owner")
    finally:
        code = first.stop()
    log = "".join(first.log)
    assert code == 0 and "could not flush" not in log, log
    again = ServerProcess(first.data_dir).start()
    try:
        with again.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            stored = {m.content for m in list_all(stub, pb.Scope(user_id="owner"))}
    finally:
        assert again.stop() == 0, "".join(again.log)
    assert stored == {TOMATOES, TIMEZONE}


def test_sigterm_turns_health_not_serving_while_rpcs_in_flight_finish(tmp_path):
    process = ServerProcess(
        tmp_path / "data", env={"MEMORYD_SHUTDOWN_GRACE_SECONDS": "120"}
    ).start()
    with process.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        watches = {
            service: health.Watch(health_pb2.HealthCheckRequest(service=service), timeout=60)
            for service in ("", "memoryd.v1.MemoryService")
        }
        for watch in watches.values():
            assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        # Writes queued ahead of the user's keep a read of the user waiting in
        # the server while it shuts down.
        for batch in range(2):
            stub.BatchCreateMemories(
                svc.BatchCreateMemoriesRequest(
                    mode=svc.WRITE_MODE_ASYNC,
                    requests=[
                        svc.CreateMemoryRequest(
                            memory=pb.Memory(
                                content=f"Queued fact {batch}-{i}: "
                                + " ".join(f"w{batch}x{i}y{j}" for j in range(20)),
                                scope=pb.Scope(user_id="backlog"),
                            )
                        )
                        for i in range(100)
                    ],
                )
            )
        written = create(stub, "The user is in UTC-5", user="u1", mode=svc.WRITE_MODE_ASYNC)
        preload = stub.Preload(
            svc.PreloadRequest(
                query="What timezone is the user in?",
                user_scope=pb.Scope(user_id="u1"),
                agent_scope=pb.Scope(agent_id="support"),
            ),
            timeout=120,
        )
        events = [next(preload)]  # the Preload is in the server now
        assert process.process is not None
        process.process.send_signal(signal.SIGTERM)

        for service, watch in watches.items():
            assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING, service
            watch.cancel()  # a watch in flight would hold the server for its whole grace
        events.extend(preload)
        (done,) = [e.done for e in events if e.WhichOneof("event") == "done"]
        assert not done.partial
        (user_hits,) = [
            e.hits
            for e in events
            if e.WhichOneof("event") == "hits" and e.hits.scope == svc.PRELOAD_SCOPE_USER
        ]
        assert [r.memory.id for r in user_hits.results] == [written.memory.id]
    assert process.wait_exit() == 0
    assert "memoryd stopped" in "".join(process.log)
    with pytest.raises(grpc.FutureTimeoutError):  # the port is closed once stopped
        grpc.channel_ready_future(grpc.insecure_channel(process.address)).result(timeout=1)


def test_health_answers_not_serving_to_polling_checks_for_the_announce_window(tmp_path):
    process = ServerProcess(
        tmp_path / "data", env={"MEMORYD_SHUTDOWN_ANNOUNCE_SECONDS": "600"}
    ).start()
    assert process.process is not None
    process.process.send_signal(signal.SIGTERM)
    request = health_pb2.HealthCheckRequest(service="memoryd.v1.MemoryService")
    statuses = []
    # A balancer polling Check on new connections sees NOT_SERVING, and RPCs
    # are still answered, until the window ends.
    while not statuses or statuses[-1] != health_pb2.HealthCheckResponse.NOT_SERVING:
        assert len(statuses) < 1000, "health never turned NOT_SERVING"
        with process.channel() as channel:
            statuses.append(health_pb2_grpc.HealthStub(channel).Check(request, timeout=30).status)
    with process.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        stub.ListMemories(svc.ListMemoriesRequest(scope=pb.Scope(user_id="u1")), timeout=30)
    process.process.send_signal(signal.SIGTERM)  # ends the window early
    assert process.wait_exit() == 0
    assert "memoryd stopped" in "".join(process.log)


def test_stop_signals_after_the_server_stopped_leave_its_clean_exit(tmp_path):
    # A supervisor repeating SIGTERM (or a second Ctrl-C) while the process
    # tears down must not turn its exit 0 into death by signal.
    process = ServerProcess(tmp_path / "data").start()
    assert process.process is not None
    process.process.send_signal(signal.SIGTERM)
    process.wait_for_log("memoryd stopped")
    signals = 0
    while process.process.poll() is None:
        process.process.send_signal((signal.SIGTERM, signal.SIGINT)[signals % 2])
        signals += 1
    assert process.wait_exit() == 0, "".join(process.log)


def test_gemini_without_api_key_fails_clearly(tmp_path):
    process = ServerProcess(tmp_path / "data", env={"MEMORYD_EMBEDDER": "gemini"})
    try:
        process.start()
        raise AssertionError("started Gemini embeddings without an API key")
    except RuntimeError:
        pass
    assert process.wait_exit() == 1
    assert "MEMORYD_GEMINI_API_KEY is required" in "".join(process.log)
