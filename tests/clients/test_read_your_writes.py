"""Issue 10 item 2, in the plain clients: a read of a scope sees the client's own writes.

A write still in flight (sent, not yet answered) holds back a read of its scope,
within the read's deadline; an acknowledged write's token rides along on later
reads of the scope as ``consistency_token``; a token the server no longer
recognises never turns into an error. Real server, real channels. Writes go over
a slow or a held link (a client interceptor, as a congested network would
delay them): the read is sent while the write is provably still in flight.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd_client import (
    AsyncMemorydClient,
    DeadlineExceeded,
    MemorydClient,
    MemoryNotFound,
    ScopeWrites,
    UnknownWriteToken,
    pb,
    svc,
)

from support import ServerProcess

FACT = "the user's flight leaves at nine"
QUESTION = "When does the flight leave?"
LINK_DELAY_SECONDS = 0.3


def _method(details: Any) -> str:
    method = details.method
    return method.decode() if isinstance(method, bytes) else str(method)


class SlowWrites(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """Sync link: each CreateMemory leaves ``LINK_DELAY_SECONDS`` late; ``sending``
    is set once it has left the client's hands."""

    def __init__(self) -> None:
        self.sending = threading.Event()

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        if _method(details).endswith("/CreateMemory"):
            self.sending.set()
            time.sleep(LINK_DELAY_SECONDS)
        return continuation(details, request)


class HeldWrites(grpc.aio.UnaryUnaryClientInterceptor):
    """Async link: each CreateMemory waits for ``release`` (or, with ``delay``, that
    long); ``sending`` is set once it has left the client's hands."""

    def __init__(self, delay: float | None = None) -> None:
        self.delay = delay
        self.sending = asyncio.Event()
        self.release = asyncio.Event()

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        if _method(details).endswith("/CreateMemory"):
            self.sending.set()
            if self.delay is None:
                await self.release.wait()
            else:
                await asyncio.sleep(self.delay)
        return await continuation(details, request)


class Reads(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):  # type: ignore[misc]
    """Records the read requests as they leave the client."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        if not isinstance(request, svc.CreateMemoryRequest | svc.ForgetMemoriesRequest):
            self.sent.append(request)
        return continuation(details, request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        self.sent.append(request)
        return continuation(details, request)

    def tokens(self) -> list[str]:
        tokens = [request.consistency_token for request in self.sent]
        self.sent.clear()
        return tokens


def create(content: str, **scope: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(memory=pb.Memory(content=content, scope=pb.Scope(**scope)))


def search(**scope: str) -> svc.SearchMemoriesRequest:
    return svc.SearchMemoriesRequest(query=QUESTION, scope=pb.Scope(**scope))


def contents(response: svc.SearchMemoriesResponse) -> list[str]:
    return [hit.memory.content for hit in response.results]


def test_an_async_read_waits_for_a_write_of_its_scope_still_in_flight(
    server: ServerProcess, user: str
) -> None:
    async def scenario() -> svc.SearchMemoriesResponse:
        link = HeldWrites(delay=LINK_DELAY_SECONDS)
        async with AsyncMemorydClient(server.address, interceptors=[link]) as client:
            write = asyncio.create_task(client.create_memory(create(FACT, user_id=user)))
            await link.sending.wait()
            found = await client.search_memories(search(user_id=user, app_id="any-app"))
            await write
            return found

    assert contents(asyncio.run(scenario())) == [FACT]


def test_a_sync_read_in_another_thread_waits_for_a_write_in_flight(
    server: ServerProcess, user: str
) -> None:
    link = SlowWrites()
    with MemorydClient(server.address, interceptors=[link]) as client:
        writer = threading.Thread(target=client.create_memory, args=(create(FACT, user_id=user),))
        writer.start()
        link.sending.wait()
        found = client.search_memories(search(user_id=user))
        writer.join()
    assert contents(found) == [FACT]


def test_clients_sharing_their_writes_wait_for_each_other_across_threads_and_loops(
    server: ServerProcess, user: str
) -> None:
    writes = ScopeWrites()
    sent = threading.Event()

    async def write() -> None:
        link = HeldWrites(delay=LINK_DELAY_SECONDS)
        async with AsyncMemorydClient(server.address, interceptors=[link], writes=writes) as a:
            task = asyncio.create_task(a.create_memory(create(FACT, user_id=user)))
            await link.sending.wait()
            sent.set()
            await task

    writer = threading.Thread(target=asyncio.run, args=(write(),))
    writer.start()
    sent.wait()
    with MemorydClient(server.address, writes=writes) as reader:
        found = reader.search_memories(search(user_id=user))
    writer.join()
    assert contents(found) == [FACT]


def test_a_read_past_its_deadline_fails_rather_than_miss_a_write_in_flight(
    server: ServerProcess, user: str
) -> None:
    other = user + "-other"
    with MemorydClient(server.address) as plain:
        plain.create_memory(create("the other user likes tea", user_id=other))

    async def scenario() -> None:
        link = HeldWrites()
        async with AsyncMemorydClient(server.address, interceptors=[link]) as client:
            write = asyncio.create_task(client.create_memory(create(FACT, user_id=user)))
            await link.sending.wait()
            with pytest.raises(DeadlineExceeded) as error:
                await client.search_memories(search(user_id=user), timeout=0.2)
            assert error.value.reason == "WRITE_IN_FLIGHT"
            # A read of another scope is not held back by that write.
            others = await client.search_memories(search(user_id=other))
            assert contents(others) == ["the other user likes tea"]
            link.release.set()
            await write

    asyncio.run(scenario())


def test_reads_carry_the_newest_write_token_of_their_scope(
    server: ServerProcess, user: str
) -> None:
    reads = Reads()
    agent, app = f"agent-{user}", f"app-{user}"
    with MemorydClient(server.address, interceptors=[reads]) as client:
        first = client.create_memory(create(FACT, user_id=user)).write_token
        client.search_memories(search(user_id=user, app_id="any-app", thread_id="t9"))
        client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
        assert reads.tokens() == [first, first]

        second = client.create_memory(create("the user likes window seats", user_id=user))
        preload = svc.PreloadRequest(query=QUESTION, user_scope=pb.Scope(user_id=user))
        list(client.preload(preload))
        with pytest.raises(MemoryNotFound):
            client.get_memory(svc.GetMemoryRequest(id="none", scope=pb.Scope(user_id=user)))
        client.search_memories(search(user_id=user + "-other"))
        assert reads.tokens() == [second.write_token, second.write_token, ""]

        shared = client.create_memory(create("refunds take 5 days", agent_id=agent, app_id=app))
        client.search_memories(search(agent_id=agent))
        client.search_memories(search(app_id=app))
        client.search_memories(search(agent_id=agent + "-other"))
        assert reads.tokens() == [shared.write_token, shared.write_token, ""]

        # A forget of the agent's memory in every app reaches a read of any one app.
        forget = client.forget_memories(svc.ForgetMemoriesRequest(scope=pb.Scope(agent_id=agent)))
        client.search_memories(search(app_id=app + "-other"))
        # A caller's own token is sent as given.
        given = search(user_id=user)
        given.consistency_token = first
        client.search_memories(given)
        assert reads.tokens() == [forget.write_token, first]


def test_a_token_the_server_refuses_is_dropped_and_the_read_still_answers(
    server: ServerProcess, user: str
) -> None:
    reads = Reads()
    with MemorydClient(server.address, interceptors=[reads]) as client:
        client.create_memory(
            svc.CreateMemoryRequest(
                memory=pb.Memory(content=FACT, scope=pb.Scope(user_id=user)),
                mode=svc.WRITE_MODE_SYNC,
            )
        )
        # A token another memoryd issued, handed over by a service wired to it.
        foreign = "0123456789ab-7"
        client.writes.note(pb.Scope(user_id=user), foreign)
        assert contents(client.search_memories(search(user_id=user))) == [FACT]
        assert reads.tokens() == [foreign, ""]  # refused once, then sent without it
        client.writes.note(pb.Scope(user_id=user), foreign)
        preload = svc.PreloadRequest(query=QUESTION, user_scope=pb.Scope(user_id=user))
        assert any(isinstance(event, svc.PreloadDone) for event in client.preload(preload))
        client.search_memories(search(user_id=user))
        assert reads.tokens() == [foreign, "", ""]


def test_tokens_are_kept_for_a_bounded_number_of_scopes() -> None:
    writes = ScopeWrites(max_scopes=2)
    for name in ("a", "b", "c"):
        writes.note(pb.Scope(user_id=name), f"token-{name}")
    assert writes.token_for(pb.Scope(user_id="a")) == ""
    assert writes.token_for(pb.Scope(user_id="b")) == "token-b"
    writes.note(pb.Scope(user_id="d"), "token-d")  # "b" was used last: "c" goes
    assert writes.token_for(pb.Scope(user_id="c")) == ""
    assert writes.token_for(pb.Scope(user_id="b")) == "token-b"


def test_a_token_whose_write_was_forgotten_still_reads_after_restarts(tmp_path: Path) -> None:
    """A service hands a write_token to another, which reads with it much later: after
    the write's status has passed retention and the server restarted."""
    env = {"MEMORYD_REQUEST_ID_RETENTION_SECONDS": "0.001"}
    process = ServerProcess(tmp_path, env=env).start()
    with MemorydClient(process.address) as writer:
        written = writer.create_memory(
            svc.CreateMemoryRequest(
                memory=pb.Memory(content=FACT, scope=pb.Scope(user_id="u1")),
                mode=svc.WRITE_MODE_SYNC,
            )
        )
    # The first restart purges the finished write; the second starts without it.
    for _ in range(2):
        assert process.stop() == 0, "".join(process.log)
        process = ServerProcess(tmp_path, env=env).start()
        with MemorydClient(process.address) as reader, pytest.raises(UnknownWriteToken):
            # Answered once the server serves, so its SIGTERM handler is in place.
            reader.get_write_status(written.write_token)
    try:
        with MemorydClient(process.address) as reader:
            request = search(user_id="u1")
            request.consistency_token = written.write_token
            assert contents(reader.search_memories(request, timeout=2.0)) == [FACT]
    finally:
        assert process.stop() == 0, "".join(process.log)
