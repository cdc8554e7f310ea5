"""The sync and async clients against a real server: calls, deadlines, retries, errors."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from memoryd.config import Settings
from memoryd.core.errors import EmbeddingError
from memoryd_client import (
    AsyncMemorydClient,
    ClientOptions,
    InvalidArgument,
    MemorydClient,
    MemoryNotFound,
    TransientError,
    Unavailable,
    filters,
    pb,
    struct_from_dict,
    svc,
)

from support import InProcessServer, ServerProcess

SYNC = svc.WRITE_MODE_SYNC


def create(content: str, user: str, **fields: Any) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=pb.Scope(user_id=user), **fields), mode=SYNC
    )


def test_options_are_validated_with_a_fix() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        ClientOptions(max_attempts=9)
    with pytest.raises(ValueError, match="host:port"):
        ClientOptions(target="")
    with pytest.raises(ValueError, match="tls=True"):
        ClientOptions(root_certificates=b"pem")
    with pytest.raises(ValueError, match="positive"):
        ClientOptions(read_timeout=0)


def test_service_config_retries_unavailable_only() -> None:
    config = json.loads(ClientOptions(max_attempts=3).service_config())
    (method,) = config["methodConfig"]
    assert method["name"] == [{"service": "memoryd.v1.MemoryService"}]
    assert method["retryPolicy"]["maxAttempts"] == 3
    assert method["retryPolicy"]["retryableStatusCodes"] == ["UNAVAILABLE"]


def test_create_get_search_update_delete(client: MemorydClient, user: str) -> None:
    created = client.create_memory(
        create("I'm in UTC-5", user, memory_key="tz", metadata=struct_from_dict({"n": 1}))
    )
    assert created.outcome == svc.WRITE_OUTCOME_CREATED
    scope = pb.Scope(user_id=user)
    got = client.get_memory(svc.GetMemoryRequest(id=created.memory.id, scope=scope))
    assert got.memory.content == "I'm in UTC-5"
    hits = client.search_memories(
        svc.SearchMemoriesRequest(
            query="What timezone is the user in?", scope=scope, filter=filters.eq("metadata.n", 1)
        )
    ).results
    assert [h.memory.id for h in hits] == [created.memory.id]
    assert 0.0 <= hits[0].score <= 1.0
    update = svc.UpdateMemoryRequest(
        memory=pb.Memory(id=created.memory.id, scope=scope, content="I'm in UTC+1"), mode=SYNC
    )
    update.update_mask.paths.append("content")
    assert client.update_memory(update).memory.content == "I'm in UTC+1"
    client.delete_memory(svc.DeleteMemoryRequest(id=created.memory.id, scope=scope, mode=SYNC))
    with pytest.raises(MemoryNotFound) as missing:
        client.get_memory(svc.GetMemoryRequest(id=created.memory.id, scope=scope))
    assert missing.value.memory_id == created.memory.id
    assert missing.value.reason == "MEMORY_NOT_FOUND"


def test_bad_field_raises_invalid_argument_naming_it(client: MemorydClient, user: str) -> None:
    with pytest.raises(InvalidArgument) as error:
        client.create_memory(create("", user))
    assert [v.field for v in error.value.field_violations] == ["memory.content"]


def test_a_retried_request_id_writes_once(client: MemorydClient, user: str) -> None:
    request = create("retry me", user)
    request.request_id = "3f1f8a9e-4a57-4d3c-9d55-6b4a1f4f2a10-" + user
    first = client.create_memory(request)
    second = client.create_memory(request)
    assert first.memory.id == second.memory.id
    listed = client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
    assert len(listed.memories) == 1


def test_page_iterator_walks_every_page(client: MemorydClient, user: str) -> None:
    batch = svc.BatchCreateMemoriesRequest(
        requests=[create(f"fact number {i} about topic {i * 7}", user) for i in range(5)],
        mode=SYNC,
    )
    client.batch_create_memories(batch)
    request = svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), page_size=2)
    assert len(list(client.iter_memories(request))) == 5


def test_unreachable_server_is_unavailable_within_the_read_timeout() -> None:
    options = ClientOptions(target="127.0.0.1:1", read_timeout=2.0, max_attempts=3)
    started = time.monotonic()
    with MemorydClient(options=options) as client, pytest.raises(Unavailable) as error:
        client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id="u")))
    assert isinstance(error.value, TransientError)
    assert time.monotonic() - started < 3.0


class FlakyModel:
    """Fault injection into the server's embedder: the next ``failures`` calls
    fail as a busy model would (EmbeddingError, which the server answers with
    UNAVAILABLE); every call after them runs the real model."""

    def __init__(self, server: InProcessServer) -> None:
        assert server.app is not None
        self._embed = server.app.embedder.embed
        self.failures = 0
        self.calls = 0
        server.app.embedder.embed = self.embed  # type: ignore[method-assign]  # the injected fault

    async def embed(self, texts: Any) -> Any:
        self.calls += 1
        if self.failures:
            self.failures -= 1
            raise EmbeddingError("injected: the model is busy")
        return await self._embed(texts)


def test_unavailable_is_retried_until_max_attempts(tmp_path: Any, user: str) -> None:
    server = InProcessServer(Settings(data_dir=tmp_path, port=0)).start()
    try:
        model = FlakyModel(server)
        search = svc.SearchMemoriesRequest(query="tea or coffee?", scope=pb.Scope(user_id=user))
        with MemorydClient(server.address, max_attempts=3) as client:
            client.create_memory(create("the user drinks green tea", user))
            model.calls, model.failures = 0, 2
            hits = client.search_memories(search).results
            assert [h.memory.content for h in hits] == ["the user drinks green tea"]
            assert model.calls == 3, "two failed attempts, then the one that answered"

            model.calls, model.failures = 0, 3
            with pytest.raises(Unavailable):
                client.search_memories(search)
            assert model.calls == 3, "no attempt past max_attempts"
    finally:
        server.stop()


def test_every_call_has_a_deadline(server: ServerProcess, user: str) -> None:
    with MemorydClient(server.address, read_timeout=1e-6) as client:
        with pytest.raises(TransientError) as error:
            client.search_memories(
                svc.SearchMemoriesRequest(query="x", scope=pb.Scope(user_id=user))
            )
    assert error.value.code == "DEADLINE_EXCEEDED"


def test_async_client_works_across_event_loops(server: ServerProcess, user: str) -> None:
    client = AsyncMemorydClient(server.address)

    async def create_and_count(text: str) -> int:
        await client.create_memory(create(text, user))
        listed = await client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
        return len(listed.memories)

    # Each asyncio.run is a new loop, as 10xgraph's sync wrappers do per call.
    assert asyncio.run(create_and_count("the user likes green tea")) == 1
    assert asyncio.run(create_and_count("the user's cat is called Miso")) == 2

    async def concurrently() -> None:
        memories = [
            m
            async for m in client.iter_memories(
                svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), page_size=1)
            )
        ]
        assert len(memories) == 2
        await client.close()
        await client.close()  # idempotent

    asyncio.run(concurrently())


def test_async_errors_are_typed(server: ServerProcess, user: str) -> None:
    async def missing() -> None:
        async with AsyncMemorydClient(server.address) as client:
            await client.get_memory(svc.GetMemoryRequest(id="nope", scope=pb.Scope(user_id=user)))

    with pytest.raises(MemoryNotFound):
        asyncio.run(missing())


class _Recorder(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    def __init__(self) -> None:
        self.metadata: list[dict[str, str]] = []

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        self.metadata.append(dict(details.metadata or ()))
        return continuation(details, request)


def test_calls_carry_token_request_id_and_the_callers_trace(
    server: ServerProcess, user: str
) -> None:
    from opentelemetry import context, trace
    from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

    recorder = _Recorder()
    options = ClientOptions(target=server.address, token="s3cret", interceptors=[recorder])
    span = NonRecordingSpan(
        SpanContext(trace_id=0x1234, span_id=0x5678, is_remote=False, trace_flags=TraceFlags(1))
    )
    token = context.attach(trace.set_span_in_context(span))
    try:
        with MemorydClient(options=options) as client:
            client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
    finally:
        context.detach(token)
    (sent,) = recorder.metadata
    assert sent["authorization"] == "Bearer s3cret"
    assert "x-request-id" not in sent  # no header the server does not read
    assert sent["traceparent"] == f"00-{0x1234:032x}-{0x5678:016x}-01"


class _AsyncRecorder(grpc.aio.UnaryUnaryClientInterceptor):
    def __init__(self) -> None:
        self.metadata: list[dict[str, str]] = []

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        self.metadata.append(dict(details.metadata or ()))
        return await continuation(details, request)


def test_async_calls_carry_token_and_the_callers_trace(server: ServerProcess, user: str) -> None:
    from opentelemetry import context, trace
    from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

    recorder = _AsyncRecorder()
    options = ClientOptions(target=server.address, token="s3cret", interceptors=[recorder])
    span = NonRecordingSpan(
        SpanContext(trace_id=0x4321, span_id=0x8765, is_remote=False, trace_flags=TraceFlags(1))
    )

    async def listed() -> None:
        async with AsyncMemorydClient(options=options) as client:
            token = context.attach(trace.set_span_in_context(span))
            try:
                await client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
            finally:
                context.detach(token)

    asyncio.run(listed())
    (sent,) = recorder.metadata
    assert sent["authorization"] == "Bearer s3cret"
    assert sent["traceparent"] == f"00-{0x4321:032x}-{0x8765:016x}-01"


def test_async_mode_write_is_final_after_wait_for_write(client: MemorydClient, user: str) -> None:
    request = create("the user's flight leaves at 9", user)
    request.mode = svc.WRITE_MODE_ASYNC
    answer = client.create_memory(request)
    if answer.outcome == svc.WRITE_OUTCOME_ACCEPTED:  # servers that journal before indexing
        status = client.wait_for_write(answer.write_token)
        assert status.state == svc.WRITE_STATE_APPLIED
        answer = status.create_memory
    assert answer.outcome == svc.WRITE_OUTCOME_CREATED
    # Reads see the caller's acknowledged writes.
    scope = pb.Scope(user_id=user)
    assert client.get_memory(svc.GetMemoryRequest(id=answer.memory.id, scope=scope)).memory.content


def test_an_answer_over_grpcs_4_mib_client_default_is_received(tmp_path: Path) -> None:
    # 80 results of 60 KB: one SearchMemories answer of about 4.8 MB, under the
    # server's 8 MiB send limit but over gRPC's default client receive limit.
    # Keyed, since texts this alike would otherwise be skipped as duplicates.
    env = {"MEMORYD_MAX_CONTENT_BYTES": str(64 * 1024)}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with MemorydClient(process.address) as client:
            for first in (0, 40):
                client.batch_create_memories(
                    svc.BatchCreateMemoriesRequest(
                        mode=SYNC,
                        requests=[
                            create(f"memory {i} " + "x" * 60_000, "u1", memory_key=f"k{i}")
                            for i in range(first, first + 40)
                        ],
                    ),
                    timeout=300,
                )
            request = svc.SearchMemoriesRequest(
                query="memory", scope=pb.Scope(user_id="u1"), limit=100
            )
            answer = client.search_memories(request)
            assert len(answer.results) == 80
            assert answer.ByteSize() > 4 * 1024 * 1024
    finally:
        assert process.stop() == 0
