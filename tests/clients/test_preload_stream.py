"""The Preload stream helper of MemorydClient and AsyncMemorydClient, on a real server."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from memoryd_client import (
    AsyncMemorydClient,
    ClientOptions,
    DeadlineExceeded,
    InvalidArgument,
    MemorydClient,
    PreloadEvent,
    Unavailable,
    pb,
    svc,
)

from support import ServerProcess

SYNC = svc.WRITE_MODE_SYNC


def seed(client: MemorydClient, user: str, agent: str) -> None:
    requests = [
        svc.CreateMemoryRequest(memory=pb.Memory(content=text, scope=pb.Scope(user_id=user)))
        for text in ("I'm in UTC-5", "I prefer short answers")
    ]
    requests.append(
        svc.CreateMemoryRequest(
            memory=pb.Memory(content="Support hours are 9-17 UTC", scope=pb.Scope(agent_id=agent))
        )
    )
    client.batch_create_memories(svc.BatchCreateMemoriesRequest(requests=requests, mode=SYNC))


def request_for(user: str, agent: str, **fields: object) -> svc.PreloadRequest:
    return svc.PreloadRequest(
        query="What timezone is the user in?",
        user_scope=pb.Scope(user_id=user),
        agent_scope=pb.Scope(agent_id=agent),
        **fields,  # type: ignore[arg-type]
    )


def check_order(events: list[PreloadEvent]) -> tuple[svc.PreloadContext, svc.PreloadDone]:
    """Two ScopeHits (any order), one PreloadContext, then the terminal PreloadDone."""
    assert [type(e) for e in events[:2]] == [svc.ScopeHits, svc.ScopeHits]
    assert {e.scope for e in events[:2]} == {  # type: ignore[union-attr]
        svc.PRELOAD_SCOPE_USER,
        svc.PRELOAD_SCOPE_AGENT,
    }
    assert [type(e) for e in events[2:]] == [svc.PreloadContext, svc.PreloadDone]
    context, done = events[2], events[3]
    assert isinstance(context, svc.PreloadContext) and isinstance(done, svc.PreloadDone)
    return context, done


@pytest.fixture
def agent() -> str:
    return f"agent-{uuid.uuid4().hex[:12]}"


def test_sync_stream_yields_typed_events_in_order(
    client: MemorydClient, user: str, agent: str
) -> None:
    seed(client, user, agent)
    events = list(client.preload(request_for(user, agent)))
    context, done = check_order(events)
    assert context.text.startswith("[Long-term Memory Context]\nUser memory:\n- I'm in UTC-5")
    assert "Agent memory:\n- Support hours are 9-17 UTC" in context.text
    assert (done.user_hit_count, done.agent_hit_count, done.included_count) == (2, 1, 3)
    assert done.etag and not done.partial

    # The same request with the etag: one not_modified, nothing searched.
    again = list(client.preload(request_for(user, agent, if_none_match=done.etag)))
    assert again == [svc.PreloadNotModified(etag=done.etag)]

    # A write in a scope moves the etag.
    client.create_memory(
        svc.CreateMemoryRequest(
            memory=pb.Memory(content="I moved to UTC+1", scope=pb.Scope(user_id=user)), mode=SYNC
        )
    )
    fresh = list(client.preload(request_for(user, agent, if_none_match=done.etag)))
    _, fresh_done = check_order(fresh)
    assert fresh_done.etag != done.etag


def test_stopping_early_cancels_the_stream(client: MemorydClient, user: str, agent: str) -> None:
    seed(client, user, agent)
    stream = client.preload(request_for(user, agent))
    assert isinstance(next(stream), svc.ScopeHits)
    stream.close()
    # The channel is still good for the next call.
    assert isinstance(list(client.preload(request_for(user, agent)))[-1], svc.PreloadDone)


def test_async_stream_yields_the_same_events_in_any_loop(
    server: ServerProcess, client: MemorydClient, user: str, agent: str
) -> None:
    seed(client, user, agent)
    aclient = AsyncMemorydClient(server.address)

    async def collect(**fields: object) -> list[PreloadEvent]:
        return [event async for event in aclient.preload(request_for(user, agent, **fields))]

    events = asyncio.run(collect())
    context, done = check_order(events)
    sync_context = list(client.preload(request_for(user, agent)))[2]
    assert context == sync_context
    # A second loop gets its own channel; the etag holds across clients.
    assert asyncio.run(collect(if_none_match=done.etag)) == [svc.PreloadNotModified(etag=done.etag)]


def test_a_bad_request_raises_invalid_argument_before_any_event(
    server: ServerProcess, client: MemorydClient
) -> None:
    bad = svc.PreloadRequest(query="anything", user_scope=pb.Scope(agent_id="not-a-user"))
    with pytest.raises(InvalidArgument) as error:
        list(client.preload(bad))
    assert any("user_scope" in v.field for v in error.value.field_violations)

    async def run() -> None:
        async for _ in AsyncMemorydClient(server.address).preload(bad):
            raise AssertionError("no event before the error")

    with pytest.raises(InvalidArgument):
        asyncio.run(run())


def test_the_stream_has_a_deadline(server: ServerProcess, user: str) -> None:
    request = svc.PreloadRequest(query="x", user_scope=pb.Scope(user_id=user))
    with MemorydClient(server.address, read_timeout=1e-6) as client:
        with pytest.raises(DeadlineExceeded):
            list(client.preload(request))

    async def run() -> None:
        async for _ in AsyncMemorydClient(server.address).preload(request, timeout=1e-6):
            pass

    with pytest.raises(DeadlineExceeded):
        asyncio.run(run())


def test_an_unreachable_server_is_unavailable() -> None:
    options = ClientOptions(target="127.0.0.1:1", read_timeout=2.0, max_attempts=2)
    request = svc.PreloadRequest(query="x", user_scope=pb.Scope(user_id="u"))
    with MemorydClient(options=options) as client, pytest.raises(Unavailable):
        list(client.preload(request))


def test_the_stream_carries_the_client_metadata(server: ServerProcess, user: str) -> None:
    """The built-in interceptors cover the server stream too (the bearer token)."""
    import grpc

    seen: list[tuple[str, object]] = []

    class Spy(grpc.UnaryStreamClientInterceptor):
        def intercept_unary_stream(self, continuation, details, request):  # type: ignore[no-untyped-def]
            seen.extend(details.metadata or ())
            return continuation(details, request)

    request = svc.PreloadRequest(query="x", user_scope=pb.Scope(user_id=user))
    with MemorydClient(server.address, token="t", interceptors=[Spy()]) as client:
        list(client.preload(request))
    assert dict(seen)["authorization"] == "Bearer t"


def test_preload_context_returns_the_block_and_none_while_the_etag_holds(
    client: MemorydClient, user: str
) -> None:
    agent = f"agent-{uuid.uuid4().hex[:8]}"
    seed(client, user, agent)
    request = request_for(user, agent)
    block = client.preload_context(request)
    assert block is not None and block.startswith("[Long-term Memory Context]")
    assert "I'm in UTC-5" in block and "Support hours are 9-17 UTC" in block
    (done,) = [e for e in client.preload(request) if isinstance(e, svc.PreloadDone)]
    request.if_none_match = done.etag
    assert client.preload_context(request) is None

    async def in_a_loop() -> tuple[str | None, str | None]:
        async with AsyncMemorydClient(client.options.target) as aclient:
            fresh = svc.PreloadRequest()
            fresh.CopyFrom(request)
            fresh.if_none_match = ""
            return await aclient.preload_context(fresh), await aclient.preload_context(request)

    assert asyncio.run(in_a_loop()) == (block, None)
