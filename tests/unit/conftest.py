"""The real embedding model, loaded once per test module that asks for it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from memoryd.embed.onnx_local import OnnxMiniLMEmbedder


@pytest.fixture(scope="module")
def model() -> Iterator[OnnxMiniLMEmbedder]:
    embedder = OnnxMiniLMEmbedder()
    yield embedder
    asyncio.run(embedder.close())
