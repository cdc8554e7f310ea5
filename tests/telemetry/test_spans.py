"""Span trees and metrics of a real in-process server, read from in-memory exporters."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
from opentelemetry import propagate
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from memoryd.config import Settings
from memoryd.telemetry import Telemetry
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from support import InProcessServer

SERVICE = "/memoryd.v1.MemoryService"


@dataclass
class Traced:
    server: InProcessServer
    stub: memory_service_pb2_grpc.MemoryServiceStub
    spans: InMemorySpanExporter
    metrics: InMemoryMetricReader
    telemetry: Telemetry
    client_tracer: object


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Traced]:
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    reader = InMemoryMetricReader()
    meter = MeterProvider(metric_readers=[reader]).get_meter("memoryd")
    telemetry = Telemetry(
        enabled=True, tracer=provider.get_tracer("memoryd"), meter=meter, tracer_provider=provider
    )
    settings = Settings(data_dir=tmp_path_factory.mktemp("traced"), port=0)
    server = InProcessServer(settings, telemetry).start()
    with server.channel() as channel:
        yield Traced(
            server,
            memory_service_pb2_grpc.MemoryServiceStub(channel),
            spans,
            reader,
            telemetry,
            provider.get_tracer("agent"),
        )
    server.stop()
    provider.shutdown()


def _under_parent(traced: Traced, call, request):  # type: ignore[no-untyped-def]
    """Calls under a client-side parent span, with W3C trace context in the metadata."""
    traced.spans.clear()
    with traced.client_tracer.start_as_current_span("agent.tool_call") as parent:  # type: ignore[attr-defined]
        carrier: dict[str, str] = {}
        propagate.inject(carrier)
        try:
            response = call(request, metadata=tuple(carrier.items()))
        except grpc.RpcError as error:
            response = error
    return parent.get_span_context(), response


def _finished(traced: Traced, name: str, timeout: float = 10.0) -> list[ReadableSpan]:
    """Finished spans, once one called ``name`` has ended: the server ends its
    span just after the client has the answer."""
    deadline = time.monotonic() + timeout
    while True:
        spans = list(traced.spans.get_finished_spans())
        if any(s.name == name for s in spans) or time.monotonic() > deadline:
            return spans
        time.sleep(0.01)


def _one(spans: list[ReadableSpan], name: str) -> ReadableSpan:
    matching = [s for s in spans if s.name == name]
    assert len(matching) == 1, f"{name}: {[s.name for s in spans]}"
    return matching[0]


def _children(spans: list[ReadableSpan], parent: ReadableSpan) -> list[str]:
    return sorted(s.name for s in spans if s.parent and s.parent.span_id == parent.context.span_id)


def test_create_memory_span_tree(traced: Traced) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    memory = pb.Memory(content="The user is in UTC-5", scope=pb.Scope(user_id=user))
    request = svc.CreateMemoryRequest(memory=memory, mode=svc.WRITE_MODE_SYNC)
    parent, response = _under_parent(traced, traced.stub.CreateMemory, request)
    assert response.outcome == svc.WRITE_OUTCOME_CREATED
    spans = _finished(traced, f"{SERVICE}/CreateMemory")
    server = _one(spans, f"{SERVICE}/CreateMemory")
    assert server.kind is SpanKind.SERVER
    assert server.context.trace_id == parent.trace_id
    assert server.parent is not None and server.parent.span_id == parent.span_id
    assert server.status.status_code is StatusCode.UNSET
    assert server.attributes["rpc.system"] == "grpc"
    assert server.attributes["rpc.method"] == "CreateMemory"
    assert server.attributes["rpc.grpc.status_code"] == 0
    assert "memoryd.journal.append" in _children(spans, server)

    append = _one(spans, "memoryd.journal.append")
    apply = _one(spans, "memoryd.index.apply")
    assert apply.kind is SpanKind.CONSUMER
    assert [link.context.span_id for link in apply.links] == [append.context.span_id]
    assert apply.context.trace_id != parent.trace_id  # its own trace, linked to the request
    assert {"memoryd.dedup.check", "qdrant.upsert"} <= set(_children(spans, apply))
    dedup = _one(spans, "memoryd.dedup.check")
    assert "qdrant.query" in _children(spans, dedup)
    upsert = _one(spans, "qdrant.upsert")
    assert upsert.attributes["db.system.name"] == "qdrant"
    assert upsert.attributes["db.operation.batch.size"] == 1
    batch = _one(spans, "memoryd.index.embed_batch")
    assert "embed" in _children(spans, batch)
    assert batch.links and batch.links[0].context.span_id == append.context.span_id


def test_search_span_tree(traced: Traced) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    request = svc.SearchMemoriesRequest(query="What timezone?", scope=pb.Scope(user_id=user))
    parent, response = _under_parent(traced, traced.stub.SearchMemories, request)
    assert isinstance(response, svc.SearchMemoriesResponse)
    spans = _finished(traced, f"{SERVICE}/SearchMemories")
    server = _one(spans, f"{SERVICE}/SearchMemories")
    assert server.context.trace_id == parent.trace_id
    assert {"embed", "qdrant.query"} <= set(_children(spans, server))
    embed = _one(spans, "embed")
    assert embed.attributes["gen_ai.request.model"] == "all-MiniLM-L6-v2-onnx-int8"
    assert embed.attributes["memoryd.embed.batch_size"] == 1
    assert _one(spans, "qdrant.query").attributes["memoryd.filter.kind"] == "user"


def test_preload_span_tree(traced: Traced) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    request = svc.PreloadRequest(
        query="What timezone?",
        user_scope=pb.Scope(user_id=user),
        agent_scope=pb.Scope(agent_id=f"agent-{user}"),
    )
    parent, events = _under_parent(
        traced, lambda r, metadata: list(traced.stub.Preload(r, metadata=metadata)), request
    )
    assert events[-1].WhichOneof("event") == "done"
    spans = _finished(traced, f"{SERVICE}/Preload")
    server = _one(spans, f"{SERVICE}/Preload")
    assert server.context.trace_id == parent.trace_id
    assert server.status.status_code is StatusCode.UNSET
    children = _children(spans, server)
    assert children.count("qdrant.query") == 2 and "memoryd.preload.render" in children
    render = _one(spans, "memoryd.preload.render")
    assert {"memoryd.preload.tokens", "memoryd.preload.kept", "memoryd.preload.dropped"} <= set(
        render.attributes
    )


@pytest.mark.parametrize(
    ("method", "request_", "code"),
    [
        (
            "CreateMemory",
            svc.CreateMemoryRequest(memory=pb.Memory(content="", scope=pb.Scope(user_id="u"))),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
        (
            "GetMemory",
            svc.GetMemoryRequest(id="missing", scope=pb.Scope(user_id="u")),
            grpc.StatusCode.NOT_FOUND,
        ),
        (
            "SearchMemories",
            svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id="u"), limit=1000),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
    ],
)
def test_client_errors_leave_the_server_span_unset(traced: Traced, method, request_, code) -> None:
    _, error = _under_parent(traced, getattr(traced.stub, method), request_)
    assert error.code() == code
    server = _one(_finished(traced, f"{SERVICE}/{method}"), f"{SERVICE}/{method}")
    assert server.status.status_code is StatusCode.UNSET
    assert server.attributes["rpc.grpc.status_code"] == code.value[0]


def test_an_uncaught_exception_ends_internal_with_an_error_span(
    traced: Traced, monkeypatch
) -> None:
    async def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("injected bug")

    monkeypatch.setattr(traced.server.app.memories.reads, "search", broken)
    request = svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id="u"))
    _, error = _under_parent(traced, traced.stub.SearchMemories, request)
    assert error.code() == grpc.StatusCode.INTERNAL
    assert "incident" in error.details() and "injected bug" not in error.details()
    server = _one(_finished(traced, f"{SERVICE}/SearchMemories"), f"{SERVICE}/SearchMemories")
    assert server.status.status_code is StatusCode.ERROR
    assert server.attributes["rpc.grpc.status_code"] == grpc.StatusCode.INTERNAL.value[0]
    assert any(e.name == "exception" and "injected bug" in str(e.attributes) for e in server.events)


def _all_attribute_text(spans: list[ReadableSpan]) -> str:
    parts = []
    for span in spans:
        parts.append(str(dict(span.attributes or {})))
        parts.extend(str(dict(e.attributes or {})) for e in span.events)
    return "\n".join(parts)


def test_content_and_queries_stay_out_of_spans_unless_opted_in(traced: Traced) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    secret = f"The door code is {uuid.uuid4().hex[:6]}"
    question = f"Which door code {uuid.uuid4().hex[:6]}?"
    write = svc.CreateMemoryRequest(
        memory=pb.Memory(content=secret, scope=pb.Scope(user_id=user)), mode=svc.WRITE_MODE_SYNC
    )
    read = svc.SearchMemoriesRequest(query=question, scope=pb.Scope(user_id=user))

    _under_parent(traced, traced.stub.CreateMemory, write)
    spans = _finished(traced, "memoryd.index.apply")
    _under_parent(traced, traced.stub.SearchMemories, read)
    spans += _finished(traced, f"{SERVICE}/SearchMemories")
    text = _all_attribute_text(spans)
    assert secret not in text and question not in text

    traced.telemetry.record_content = True
    try:
        write.memory.content = secret + " (opted in)"
        _under_parent(traced, traced.stub.CreateMemory, write)
        spans = _finished(traced, "memoryd.index.apply")
        _under_parent(traced, traced.stub.SearchMemories, read)
        spans += _finished(traced, f"{SERVICE}/SearchMemories")
    finally:
        traced.telemetry.record_content = False
    text = _all_attribute_text(spans)
    assert secret + " (opted in)" in text and question in text


def test_metrics_cover_rpcs_embedding_backlog_stores_and_preload(traced: Traced) -> None:
    user = f"u-{uuid.uuid4().hex[:8]}"
    traced.stub.CreateMemory(
        svc.CreateMemoryRequest(
            memory=pb.Memory(content="Metric me", scope=pb.Scope(user_id=user)),
            mode=svc.WRITE_MODE_SYNC,
        )
    )
    list(traced.stub.Preload(svc.PreloadRequest(query="metric", user_scope=pb.Scope(user_id=user))))
    data = traced.metrics.get_metrics_data()
    points: dict[str, list[dict[str, object]]] = {}
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points.setdefault(metric.name, []).extend(
                    dict(p.attributes or {}) for p in metric.data.data_points
                )
    assert {
        "rpc.server.duration",
        "memoryd.embed.duration",
        "memoryd.embed.batch_size",
        "memoryd.memories.stored",
        "memoryd.journal.backlog",
        "memoryd.preload.time_to_first_event",
    } <= set(points)
    methods = {(p["rpc.method"], p["rpc.grpc.status_code"]) for p in points["rpc.server.duration"]}
    assert ("CreateMemory", 0) in methods and ("Preload", 0) in methods
    assert user not in str(points), "a user id became a metric label"
