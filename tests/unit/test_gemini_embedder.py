"""GeminiEmbedder against a fake Gemini HTTP transport; the real google-genai SDK runs."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import httpx2
import pytest
from google.genai import types

from memoryd.core.errors import EmbeddingError
from memoryd.core.ports import Vector
from memoryd.embed.gemini import MAX_BATCH_SIZE, GeminiEmbedder

API_KEY = "test-api-key"
MODEL = "gemini-embedding-001"
BATCH_URL = f"/models/{MODEL}:batchEmbedContents"
SECRET_TEXT = "my bank PIN is 4321"


@dataclass
class SeenRequest:
    """One batchEmbedContents call as the fake received it."""

    path: str
    api_key: str | None
    texts: list[str]
    dimensions: list[int]
    task_types: list[str]


@dataclass
class FakeGeminiTransport(httpx2.AsyncBaseTransport):
    """Answers batchEmbedContents like the Gemini Developer API, without a network.

    Text ``i`` gets a non-normalised vector of the requested length whose one
    non-zero entry, ``2 * (i + 1)``, sits at ``i % dimension``, so a test can read
    back both the order and the normalisation. With ``error_status`` set it
    answers Gemini's error body instead; with ``error`` set it raises it.
    """

    error_status: int | None = None
    error: Exception | None = None
    requests: list[SeenRequest] = field(default_factory=list)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(await request.aread())
        entries = body["requests"]
        seen = SeenRequest(
            path=request.url.path,
            api_key=request.headers.get("x-goog-api-key"),
            texts=[entry["content"]["parts"][0]["text"] for entry in entries],
            dimensions=[entry["outputDimensionality"] for entry in entries],
            task_types=[entry["taskType"] for entry in entries],
        )
        self.requests.append(seen)
        if self.error is not None:
            raise self.error
        if self.error_status is not None:
            return httpx2.Response(self.error_status, json=gemini_error(self.error_status))
        embeddings = [
            {"values": spike_vector(int(text), dimension)}
            for text, dimension in zip(seen.texts, seen.dimensions, strict=True)
        ]
        return httpx2.Response(200, json={"embeddings": embeddings})


def spike_vector(index: int, dimension: int) -> list[float]:
    values = [0.0] * dimension
    values[index % dimension] = 2.0 * (index + 1)
    return values


def gemini_error(status: int) -> dict[str, Any]:
    names = {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}
    return {"error": {"code": status, "message": "try again later", "status": names[status]}}


def run_with_embedder(
    transport: httpx2.AsyncBaseTransport | httpx.AsyncBaseTransport,
    action: Callable[[GeminiEmbedder], Awaitable[Any]],
    *,
    dimension: int = 8,
) -> Any:
    async def scenario() -> Any:
        embedder = GeminiEmbedder(
            API_KEY,
            model=MODEL,
            dimension=dimension,
            http_options=types.HttpOptions(async_client_args={"transport": transport}),
        )
        try:
            return await action(embedder)
        finally:
            await embedder.close()

    return asyncio.run(scenario())


def embed(
    transport: httpx2.AsyncBaseTransport | httpx.AsyncBaseTransport,
    texts: Sequence[str],
    dimension: int = 8,
) -> list[Vector]:
    result: list[Vector] = run_with_embedder(
        transport, lambda embedder: embedder.embed(texts), dimension=dimension
    )
    return result


def numbered_texts(count: int) -> list[str]:
    return [str(i) for i in range(count)]


def test_vectors_come_back_in_order_and_unit_length() -> None:
    vectors = embed(FakeGeminiTransport(), numbered_texts(5))

    assert len(vectors) == 5
    for index, vector in enumerate(vectors):
        assert len(vector) == 8
        assert math.isclose(math.hypot(*vector), 1.0)
        assert vector[index] == pytest.approx(1.0)


def test_request_carries_model_key_dimension_and_task_type() -> None:
    transport = FakeGeminiTransport()

    embed(transport, numbered_texts(3), dimension=16)

    [request] = transport.requests
    assert request.path.endswith(BATCH_URL)
    assert request.api_key == API_KEY
    assert request.texts == ["0", "1", "2"]
    assert request.dimensions == [16, 16, 16]
    assert request.task_types == ["RETRIEVAL_DOCUMENT"] * 3


def test_more_than_100_texts_are_split_into_batches() -> None:
    transport = FakeGeminiTransport()

    vectors = embed(transport, numbered_texts(250), dimension=300)

    assert [len(request.texts) for request in transport.requests] == [100, 100, 50]
    assert MAX_BATCH_SIZE == 100
    assert [text for request in transport.requests for text in request.texts] == numbered_texts(250)
    assert [vector.index(max(vector)) for vector in vectors] == list(range(250))


def test_empty_input_makes_no_call() -> None:
    transport = FakeGeminiTransport()

    assert embed(transport, []) == []
    assert transport.requests == []


@pytest.mark.parametrize("status", [429, 500])
def test_error_status_raises_embedding_error_without_the_texts(status: int) -> None:
    transport = FakeGeminiTransport(error_status=status)

    with pytest.raises(EmbeddingError) as raised:
        embed(transport, [SECRET_TEXT])

    message = str(raised.value)
    assert str(status) in message
    assert SECRET_TEXT not in message
    assert API_KEY not in message
    assert len(transport.requests) == 1


def refuse_connection(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


@pytest.mark.parametrize(
    "transport",
    [
        pytest.param(FakeGeminiTransport(error=httpx2.ConnectError("refused")), id="httpx2"),
        # An injected httpx transport switches the SDK from httpx2 to httpx.
        pytest.param(httpx.MockTransport(refuse_connection), id="httpx"),
    ],
)
def test_unreachable_api_raises_embedding_error_without_the_texts(
    transport: httpx2.AsyncBaseTransport | httpx.AsyncBaseTransport,
) -> None:
    with pytest.raises(EmbeddingError, match="no answer from the API") as raised:
        embed(transport, [SECRET_TEXT])

    assert SECRET_TEXT not in str(raised.value)


def test_wrong_vector_length_raises_embedding_error() -> None:
    class ShortVectorTransport(FakeGeminiTransport):
        async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
            return httpx2.Response(200, json={"embeddings": [{"values": [1.0, 0.0]}]})

    with pytest.raises(EmbeddingError, match="expected 8"):
        embed(ShortVectorTransport(), ["0"])


def test_model_id_and_dimension_are_reported() -> None:
    async def describe(embedder: GeminiEmbedder) -> tuple[str, int]:
        return embedder.model_id, embedder.dimension

    assert run_with_embedder(FakeGeminiTransport(), describe, dimension=1536) == (
        "gemini:gemini-embedding-001:1536",
        1536,
    )


def test_close_is_idempotent() -> None:
    async def close_twice(embedder: GeminiEmbedder) -> None:
        await embedder.close()
        await embedder.close()

    run_with_embedder(FakeGeminiTransport(), close_twice)
