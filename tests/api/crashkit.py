"""A write storm against a server process, and a kill -9 that lands with writes left to replay.

Each client runs its own script of requests, one at a time, and records every
request it sends: acknowledged, or in flight when the server died (sent, and
answered with an error instead of a response). Requests it never sent are
not writes at all. After the restart, a test resends exactly the requests in
flight, with their request ids, as a real client retrying would.

The kill lands while the journal holds unapplied writes of the kinds a test
names: the server is stopped (SIGSTOP), its journal read, and only then
killed (SIGKILL), so what is pending at the kill is known, not hoped for. The
journal is read only for that premise; every assertion is on what clients see.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
#: A client's script: given what it saw acknowledged so far, the next request
#: as (RPC name, request), or None when it has nothing more to send.
Script = Callable[["Client"], tuple[str, Any] | None]


@dataclass
class Sent:
    """One request a client sent, and what came back."""

    rpc: str
    request: Any
    response: Any = None
    error: grpc.StatusCode | None = None

    @property
    def is_acked(self) -> bool:
        return self.response is not None


@dataclass
class Client:
    number: int
    script: Script
    sent: list[Sent] = field(default_factory=list)
    unsent: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def acked(self) -> list[Sent]:
        return [s for s in self.sent if s.is_acked]

    @property
    def in_flight(self) -> list[Sent]:
        return [s for s in self.sent if not s.is_acked]


def _run(address: str, client: Client, killed: threading.Event, acks: threading.Semaphore) -> None:
    with grpc.insecure_channel(address) as channel:
        stub = Stub(channel)
        while (step := client.script(client)) is not None:
            if killed.is_set():
                client.unsent.append(step)
                continue
            sent = Sent(*step)
            client.sent.append(sent)
            try:
                sent.response = getattr(stub, sent.rpc)(sent.request, timeout=30)
            except grpc.RpcError as error:
                sent.error = error.code()
                continue
            acks.release()


def pending_kinds(journal: Path) -> Counter[str]:
    """The kinds of the journal's unapplied writes (empty if it cannot be read now)."""
    try:
        with contextlib.closing(
            sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=1.0)
        ) as db:
            rows = db.execute("SELECT kind FROM entries WHERE state = 'pending'").fetchall()
    except sqlite3.Error:  # e.g. stopped in the middle of a commit: look again later
        return Counter()
    return Counter(kind for (kind,) in rows)


@contextlib.contextmanager
def storm(server: ServerProcess, clients: list[Client]) -> Iterator[Callable[..., Counter[str]]]:
    """Runs the clients against ``server``; yields ``kill(kinds, after_acks)``,
    which waits for ``after_acks`` acknowledgements, then SIGKILLs the server
    once its journal holds an unapplied write of each of ``kinds``, and
    returns the pending kinds it saw. On exit every client has stopped."""
    assert server.process is not None
    pid = server.process.pid
    killed = threading.Event()
    acks = threading.Semaphore(0)
    threads = [
        threading.Thread(target=_run, args=(server.address, c, killed, acks)) for c in clients
    ]
    for thread in threads:
        thread.start()

    def await_acks(count: int) -> bool:
        """False if the storm ends before ``count`` more acknowledgements."""
        for _ in range(count):
            while not acks.acquire(timeout=1.0):
                if not any(t.is_alive() for t in threads) or server.process.poll() is not None:
                    return False
        return True

    def kill(kinds: set[str], after_acks: int) -> Counter[str]:
        assert await_acks(after_acks), "the server stopped acknowledging writes"
        while True:
            os.kill(pid, signal.SIGSTOP)
            pending = pending_kinds(server.data_dir / "journal.sqlite3")
            if kinds <= set(pending):
                break
            os.kill(pid, signal.SIGCONT)
            # Let more writes queue up before looking again.
            assert await_acks(20), (
                f"the storm ended before {sorted(kinds)} were pending together: {pending}"
            )
        killed.set()
        server.stop(signal.SIGKILL)
        return pending

    try:
        yield kill
    finally:
        killed.set()
        if server.process.poll() is None:  # the test failed before its kill
            server.stop(signal.SIGKILL)
        for thread in threads:
            thread.join(120)
