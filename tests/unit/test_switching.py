"""The switchable embedder and index (core/switching.py): a search embedded
with the old model never queries the new index. Real engines and models: two
Edge shards, the local model, and GeminiEmbedder on the fake Gemini API."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from google.genai import types

from memoryd.core.errors import EmbeddingError
from memoryd.core.filters import equals
from memoryd.core.ports import Embedder, IndexSpec, Point, Search, VectorIndex
from memoryd.core.switching import SwitchingEmbedder, SwitchingIndex
from memoryd.embed.gemini import GeminiEmbedder
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.edge import EdgeIndex

from support.hooks import FakeGeminiApi

TEXTS = {
    "00000000-0000-4000-8000-000000000001": "orange marmalade on toast",
    "00000000-0000-4000-8000-000000000002": "the violin lesson is on saturday",
}


async def _filled(path: Path, embedder: Embedder) -> VectorIndex:
    index = EdgeIndex.open(path, IndexSpec(embedder.model_id, embedder.dimension))
    vectors = await embedder.embed(list(TEXTS.values()))
    await index.upsert(
        [
            Point(point_id, vector, {"content": text, "user_id": "u"}, text)
            for (point_id, text), vector in zip(TEXTS.items(), vectors, strict=True)
        ]
    )
    return index


def test_a_search_embedded_before_a_swap_is_embedded_again(tmp_path: Path) -> None:
    async def main() -> None:
        fake = FakeGeminiApi()
        local = OnnxMiniLMEmbedder()
        gemini = GeminiEmbedder(
            "fake-key",
            dimension=64,
            http_options=types.HttpOptions(async_client_args={"transport": fake}),
        )
        embedder = SwitchingEmbedder(local)
        index = SwitchingIndex(await _filled(tmp_path / "old", local), embedder)
        new_index = await _filled(tmp_path / "new", gemini)
        try:
            (stale,) = await embedder.embed(["violin"])
            old = index.swap(gemini, new_index)
            await old.close()
            seen = fake.texts
            where = equals("user_id", "u")

            (hits,) = await index.search([Search(stale, where, 1, text="violin")])

            assert hits[0].payload["content"] == TEXTS["00000000-0000-4000-8000-000000000002"]
            assert fake.texts == seen + 1  # the query, embedded again by the new model
            with pytest.raises(EmbeddingError, match="switched"):
                await index.search([Search(stale, where, 1)])  # no text to embed again
            (fresh,) = await embedder.embed(["marmalade"])
            (hits,) = await index.search([Search(fresh, where, 1, text="marmalade")])
            assert hits[0].payload["content"] == TEXTS["00000000-0000-4000-8000-000000000001"]
            assert fake.texts == seen + 2
        finally:
            await index.close()
            await embedder.close()

    asyncio.run(main())
