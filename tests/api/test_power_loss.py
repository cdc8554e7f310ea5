"""A power loss loses no acknowledged write, although the index had not flushed it.

Qdrant Edge puts an applied write on disk only when the index is flushed
(every few seconds). A power loss leaves the index as of its last flush: here,
the index's directory put back as it was at a flush, after the server that
wrote on was killed. The journal keeps every acknowledged write (synced
before the answer), but not always the record that the last one finished: a
write is answered once applied, while that record commits. Here, the
journal's write-ahead log cut after its last commit but one. The restarted
server must hold every acknowledged write, exactly as answered before the
crash, and stream the same changes; after a plain kill -9, with nothing
lost, it must rewrite nothing.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import sqlite3
import tempfile
from pathlib import Path
from typing import NamedTuple

from google.protobuf import field_mask_pb2, struct_pb2, timestamp_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, list_all, new_memory, open_watch, search
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
#: A flush after every write, then none while the test writes on.
FLUSH_EACH_WRITE = {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "0"}
NEVER_FLUSH = {"MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "86400"}
USER, LEAVING, AGENT = pb.Scope(user_id="u1"), pb.Scope(user_id="leaving"), pb.Scope(agent_id="ops")
IMPORTED = "imported-dentist"
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
        id=IMPORTED,
        scope=USER,
        content="The user's dentist is Dr. Sousa",
        create_time=at,
        update_time=at,
        version=3,
    )
    stub.ImportMemories(
        iter([svc.ImportMemoriesRequest(memories=[svc.ExportedMemory(memory=imported)])])
    )


def _changes(stub: Stub) -> list[svc.MemoryChange]:
    """The user's changes, streamed from the oldest kept up to the import's,
    the last write (a change streams once its write's finish has committed)."""
    watch = open_watch(stub, USER, start_after_sequence=0)
    try:
        changes = watch.changes(1)
        while changes[-1].memory.id != IMPORTED:
            changes += watch.changes(1)
    finally:
        watch.cancel()
    return changes


def _lose_the_last_commit(data: Path) -> None:
    """Cuts the journal's write-ahead log after its last commit but one, as a power
    loss does to a commit not yet synced (WAL format: sqlite.org/fileformat.html)."""
    wal = data / "journal.sqlite3-wal"
    log = wal.read_bytes()
    page_size, salts = int.from_bytes(log[8:12], "big"), log[16:24]
    frame = 24 + page_size
    commit_ends = []
    for offset in range(32, len(log) - frame + 1, frame):
        assert log[offset + 8 : offset + 16] == salts  # no checkpoint restarted the log
        if int.from_bytes(log[offset + 4 : offset + 8], "big"):  # a commit's last frame
            commit_ends.append(offset + frame)
    wal.write_bytes(log[: commit_ends[-2]])
    (data / "journal.sqlite3-shm").unlink()  # its index of the log; rebuilt from the log
    with tempfile.TemporaryDirectory() as scratch:  # read a copy: a reader may checkpoint
        for name in ("journal.sqlite3", "journal.sqlite3-wal"):
            shutil.copy(data / name, Path(scratch) / name)
        with contextlib.closing(sqlite3.connect(Path(scratch) / "journal.sqlite3")) as journal:
            last = "SELECT kind, apply_time FROM entries ORDER BY seq DESC LIMIT 1"
            assert journal.execute(last).fetchone() == ("import", None)  # journaled, unfinished


def _stored(stub: Stub) -> list[pb.Memory]:
    memories = [m for scope in (USER, LEAVING, AGENT) for m in list_all(stub, scope)]
    return sorted(memories, key=lambda m: m.id)


class Restarted(NamedTuple):
    """What a server started after the crash holds and streams."""

    stored: list[pb.Memory]
    #: The top memory of a search for the timezone.
    top: str
    changes: list[svc.MemoryChange]
    #: How many memories its start put back into the index.
    put_back: int


def _start_and_read(data: Path) -> Restarted:
    server = ServerProcess(data).start()
    try:
        with server.channel() as channel:
            stub = Stub(channel)
            stored = _stored(stub)
            top = search(stub, "Which timezone is the user in?", user="u1")[0].memory.content
            changes = _changes(stub)
    finally:
        assert server.stop() == 0, "".join(server.log)
    put_back = PUT_BACK.search("".join(server.log))
    assert put_back is not None, "".join(server.log)
    return Restarted(stored, top, changes, int(put_back.group(1)))


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
            acknowledged, streamed = _stored(stub), _changes(stub)
    finally:
        second.stop(signal.SIGKILL)
    shutil.copytree(data, tmp_path / "killed")
    shutil.copytree(data, tmp_path / "index-flushed")
    _lose_the_last_commit(tmp_path / "index-flushed")
    # The power loss: the index as at its last flush, the journal without the import's finish.
    shutil.rmtree(data / "shard")
    shutil.copytree(tmp_path / "shard-at-last-flush", data / "shard")
    _lose_the_last_commit(data)
    timezone = "The user's timezone is Europe/Lisbon"

    restarted = _start_and_read(data)
    assert restarted.stored == acknowledged
    assert (restarted.top, restarted.changes) == (timezone, streamed)
    # timezone, passport, tea, locker, two leaving notes, three ops notes; the
    # import, unfinished in the journal, replayed as a pending write
    assert restarted.put_back == 9
    contents = {m.content for m in restarted.stored}
    assert "The user's gym locker code is 4471" not in contents
    assert "A memory created and deleted after the flush" not in contents

    # The index had flushed the import when the power went during its finish's commit.
    restarted = _start_and_read(tmp_path / "index-flushed")
    assert restarted == Restarted(acknowledged, timezone, streamed, 0)

    restarted = _start_and_read(tmp_path / "killed")  # kill -9 alone
    assert restarted == Restarted(acknowledged, timezone, streamed, 0)
