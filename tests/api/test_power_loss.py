"""A power loss loses no acknowledged write, although the index had not flushed it.

Qdrant Edge puts an applied write on disk only when the index is flushed
(every few seconds). A power loss leaves the journal whole (synchronous
commits) and the index as of its last flush: here, the index's directory put
back as it was at a flush, after the server that wrote on was killed. The
restarted server must hold every acknowledged write, exactly as answered
before the crash; after a plain kill -9, with nothing lost, it must rewrite
nothing.
"""

from __future__ import annotations

import re
import shutil
import signal
from pathlib import Path

from google.protobuf import field_mask_pb2, struct_pb2, timestamp_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, list_all, new_memory, search
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
#: A flush after every write, then none while the test writes on.
FLUSH_EACH_WRITE = {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "0"}
NEVER_FLUSH = {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "86400"}
USER, LEAVING, AGENT = pb.Scope(user_id="u1"), pb.Scope(user_id="leaving"), pb.Scope(agent_id="ops")
PUT_BACK = re.compile(r"(\d+) of (\d+) memories changed since the index was last flushed")


def _write_before_the_flush(stub: Stub) -> dict[str, pb.Memory]:
    made = {
        "passport": create(stub, "The user's passport expires in March", user="u1", memory_key="p"),
        "tea": create(stub, "The user drinks black tea in the morning", user="u1"),
        "locker": create(stub, "The user's gym locker code is 4471", user="u1"),
        "city": create(stub, "The user's favourite city is Porto", user="u1"),
    }
    for text in ("Leaving user's first note", "Leaving user's second note"):
        create(stub, text, user="leaving")
    return {name: response.memory for name, response in made.items()}


def _write_after_the_flush(stub: Stub, before: dict[str, pb.Memory]) -> None:
    """Every kind of write, each acknowledged SYNC (so applied) before the crash."""
    metadata = struct_pb2.Struct()
    metadata.update({"count": 3, "ratio": 1.5, "tags": ["a", "b"], "nested": {"on": True}})
    create(stub, "The user's timezone is Europe/Lisbon", user="u1", metadata=metadata)
    again = create(stub, "The user's passport expires in April", user="u1", memory_key="p")
    assert again.outcome == svc.WRITE_OUTCOME_UPDATED_EXISTING
    stub.UpdateMemory(
        svc.UpdateMemoryRequest(
            memory=pb.Memory(id=before["tea"].id, scope=USER, content="The user drinks green tea"),
            update_mask=field_mask_pb2.FieldMask(paths=["content"]),
            mode=svc.WRITE_MODE_SYNC,
        )
    )
    stub.DeleteMemory(
        svc.DeleteMemoryRequest(id=before["locker"].id, scope=USER, mode=svc.WRITE_MODE_SYNC)
    )
    forgot = stub.ForgetMemories(svc.ForgetMemoriesRequest(scope=LEAVING, mode=svc.WRITE_MODE_SYNC))
    assert forgot.deleted_count == 2
    skipped = create(stub, "The user's favourite city is Porto", user="u1")
    assert skipped.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    batch = [
        new_memory(f"Deploys of service {name} need a change ticket", agent_id="ops")
        for name in ("billing", "search", "ledger")
    ]
    stub.BatchCreateMemories(
        svc.BatchCreateMemoriesRequest(requests=batch, mode=svc.WRITE_MODE_SYNC)
    )
    brief = create(stub, "A memory created and deleted after the flush", user="u1").memory
    stub.DeleteMemory(svc.DeleteMemoryRequest(id=brief.id, scope=USER, mode=svc.WRITE_MODE_SYNC))
    at = timestamp_pb2.Timestamp(seconds=1_780_000_000)
    imported = pb.Memory(
        id="imported-dentist",
        scope=USER,
        content="The user's dentist is Dr. Sousa",
        create_time=at,
        update_time=at,
        version=3,
    )
    stub.ImportMemories(
        iter([svc.ImportMemoriesRequest(memories=[svc.ExportedMemory(memory=imported)])])
    )


def _stored(stub: Stub) -> list[pb.Memory]:
    memories = [m for scope in (USER, LEAVING, AGENT) for m in list_all(stub, scope)]
    return sorted(memories, key=lambda m: m.id)


def _start_and_read(data: Path) -> tuple[list[pb.Memory], str, int]:
    """What a server started on ``data`` holds, the top memory of a search for
    the timezone, and how many memories its start put back."""
    server = ServerProcess(data).start()
    try:
        with server.channel() as channel:
            stub = Stub(channel)
            stored = _stored(stub)
            top = search(stub, "Which timezone is the user in?", user="u1")[0].memory.content
    finally:
        assert server.stop() == 0, "".join(server.log)
    put_back = PUT_BACK.search("".join(server.log))
    assert put_back is not None, "".join(server.log)
    return stored, top, int(put_back.group(1))


def test_a_power_loss_after_acknowledged_writes_loses_none_of_them(tmp_path):
    data = tmp_path / "data"
    first = ServerProcess(data, env=FLUSH_EACH_WRITE).start()
    try:
        with first.channel() as channel:
            before = _write_before_the_flush(Stub(channel))
    finally:
        assert first.stop() == 0
    shutil.copytree(data / "shard", tmp_path / "shard-at-last-flush")

    second = ServerProcess(data, env=NEVER_FLUSH).start()
    try:
        with second.channel() as channel:
            stub = Stub(channel)
            _write_after_the_flush(stub, before)
            acknowledged = _stored(stub)
    finally:
        second.stop(signal.SIGKILL)
    shutil.copytree(data, tmp_path / "killed")
    shutil.rmtree(data / "shard")  # the power loss: the index as it was at its last flush
    shutil.copytree(tmp_path / "shard-at-last-flush", data / "shard")

    stored, top, put_back = _start_and_read(data)
    assert stored == acknowledged
    assert top == "The user's timezone is Europe/Lisbon"
    # timezone, passport, tea, locker, two leaving notes, three ops notes, dentist
    assert put_back == 10
    contents = {m.content for m in stored}
    assert "The user's gym locker code is 4471" not in contents
    assert "A memory created and deleted after the flush" not in contents

    stored, top, put_back = _start_and_read(tmp_path / "killed")  # kill -9 alone
    assert (stored, top, put_back) == (acknowledged, "The user's timezone is Europe/Lisbon", 0)
