"""kill -9 in the middle of a write storm loses no acknowledged write and applies none twice."""

from __future__ import annotations

import signal
import threading
import uuid
from collections import Counter
from dataclasses import dataclass, field

import grpc

from memoryd.testing import ServerProcess
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import list_all, new_memory

CLIENTS = 8
WRITES_PER_CLIENT = 250
KILL_AFTER_ACKS = 700
# Every text is distinct; exact-duplicate dedup only, so nothing is skipped.
ENV = {"MEMORYD_DEDUP_THRESHOLD": "1.0"}


@dataclass
class Client:
    number: int
    acked: list[tuple[str, str]] = field(default_factory=list)
    unacked: list[tuple[str, str]] = field(default_factory=list)


def _text(client: int, i: int) -> str:
    return f"Client {client} wrote fact {i}: {uuid.uuid5(uuid.NAMESPACE_OID, f'{client}-{i}').hex}"


def _write_storm(
    address: str, clients: list[Client], killed: threading.Event, acks: threading.Semaphore
) -> None:
    def run(client: Client) -> None:
        with grpc.insecure_channel(address) as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            for i in range(WRITES_PER_CLIENT):
                text, request_id = _text(client.number, i), str(uuid.uuid4())
                if killed.is_set():
                    client.unacked.append((text, request_id))
                    continue
                try:
                    stub.CreateMemory(
                        new_memory(
                            text,
                            user=f"crash-{client.number}",
                            request_id=request_id,
                            mode=svc.WRITE_MODE_ASYNC,
                        ),
                        timeout=10,
                    )
                except grpc.RpcError:
                    client.unacked.append((text, request_id))
                    continue
                client.acked.append((text, request_id))
                acks.release()

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _stored_contents(stub: memory_service_pb2_grpc.MemoryServiceStub) -> Counter[str]:
    contents: Counter[str] = Counter()
    for number in range(CLIENTS):
        # The first read waits for the replay of what the kill left unindexed.
        scope = pb.Scope(user_id=f"crash-{number}")
        contents.update(m.content for m in list_all(stub, scope, timeout=600))
    return contents


def test_sigkill_during_write_storm_keeps_every_acknowledged_write_exactly_once(tmp_path):
    server = ServerProcess(tmp_path / "data", env=ENV).start()
    clients = [Client(n) for n in range(CLIENTS)]
    killed = threading.Event()
    acks = threading.Semaphore(0)
    storm = threading.Thread(target=_write_storm, args=(server.address, clients, killed, acks))
    storm.start()
    for _ in range(KILL_AFTER_ACKS):
        assert acks.acquire(timeout=120), "the server stopped acknowledging writes"
    server.stop(signal.SIGKILL)
    killed.set()
    storm.join()

    acked = [text for c in clients for text, _ in c.acked]
    unacked = [(text, rid) for c in clients for text, rid in c.unacked]
    assert len(acked) >= KILL_AFTER_ACKS and unacked, "the kill did not land mid-storm"

    restarted = ServerProcess(tmp_path / "data", env=ENV).start()
    try:
        with restarted.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            after_restart = _stored_contents(stub)
            assert "replaying" in "".join(restarted.log), "no journaled write was left to replay"
            assert all(after_restart[text] == 1 for text in acked), (
                "an acknowledged write is lost or doubled"
            )
            assert all(count == 1 for count in after_restart.values())

            # Writes whose answer was lost may or may not be journaled: resending
            # them with their request ids must leave each exactly once.
            for text, request_id in unacked:
                user = f"crash-{text.split()[1]}"
                stub.CreateMemory(
                    new_memory(text, user=user, request_id=request_id, mode=svc.WRITE_MODE_ASYNC)
                )
            final = _stored_contents(stub)
    finally:
        assert restarted.stop() == 0
    assert len(final) == CLIENTS * WRITES_PER_CLIENT
    assert set(final.values()) == {1}
