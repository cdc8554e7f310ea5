"""embed: the offline model, micro-batching and the LRU cache, on the real model."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence

import numpy as np

from memoryd.core.errors import EmbeddingError
from memoryd.core.ports import Vector
from memoryd.embed.batching import MicroBatchingEmbedder
from memoryd.embed.cache import CachedEmbedder
from memoryd.embed.onnx_local import DIMENSION, OnnxMiniLMEmbedder


class CountingEmbedder:
    """Passes through to the real model and records each batch it receives."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        self._inner = inner
        self.batches: list[list[str]] = []

    model_id = property(lambda self: self._inner.model_id)
    dimension = property(lambda self: self._inner.dimension)

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        self.batches.append(list(texts))
        return self._inner.embed_sync(list(texts))

    async def close(self) -> None:
        pass


def test_model_gives_unit_vectors_that_rank_paraphrases_first(model):
    vectors = np.array(
        model.embed_sync(["I'm in UTC-5", "What timezone is the user in?", "I love pizza"])
    )
    assert vectors.shape == (3, DIMENSION)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    similarity = vectors @ vectors.T
    assert similarity[0, 1] > similarity[0, 2] + 0.3


def test_batch_and_single_embeddings_agree(model):
    texts = ["short", "a much longer sentence about the weather in Lisbon in spring"]
    batched = np.array(model.embed_sync(texts))
    single = np.array([model.embed_sync([t])[0] for t in texts])
    assert np.allclose(batched, single, atol=1e-4)


def test_concurrent_calls_share_model_calls(model):
    counting = CountingEmbedder(model)
    batching = MicroBatchingEmbedder(counting, max_batch=32)

    async def run() -> list[list[Vector]]:
        return await asyncio.gather(*(batching.embed([f"text number {i}"]) for i in range(20)))

    results = asyncio.run(run())
    assert len(counting.batches) < 20
    assert sum(len(b) for b in counting.batches) == 20
    for i, (vector,) in enumerate(results):
        assert np.allclose(vector, model.embed_sync([f"text number {i}"])[0], atol=1e-4)


def test_cache_skips_the_model_for_repeated_texts(model):
    counting = CountingEmbedder(model)
    cache = CachedEmbedder(counting, capacity=2)

    async def run() -> None:
        first = await cache.embed(["alpha", "beta", "alpha"])
        assert counting.batches == [["alpha", "beta"]]
        again = await cache.embed(["beta", "alpha"])
        assert counting.batches == [["alpha", "beta"]]
        assert again == [first[1], first[0]]
        await cache.embed(["gamma"])  # evicts the least recently used: beta
        await cache.embed(["beta"])
        assert counting.batches[-1] == ["beta"]

    asyncio.run(run())
    assert cache.hits == 3 and cache.misses == 4


class GatedEmbedder(CountingEmbedder):
    """The real model, held until the test opens the gate; fails while ``failing`` is set."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        super().__init__(inner)
        self.gate = asyncio.Event()
        self.failing = False

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        self.batches.append(list(texts))
        await self.gate.wait()
        if self.failing:
            raise EmbeddingError("injected failure")
        return self._inner.embed_sync(list(texts))


def test_cache_embeds_a_text_once_while_another_call_is_embedding_it(model):
    gated = GatedEmbedder(model)
    cache = CachedEmbedder(gated)

    async def run() -> None:
        first = asyncio.create_task(cache.embed(["alpha", "beta"]))
        await asyncio.sleep(0)  # the first call reaches the model and waits at the gate
        second = asyncio.create_task(cache.embed(["beta", "gamma"]))
        await asyncio.sleep(0)
        gated.gate.set()
        (alpha, beta), (beta_again, gamma) = await asyncio.gather(first, second)
        assert gated.batches == [["alpha", "beta"], ["gamma"]]
        assert beta_again == beta
        assert np.allclose(gamma, model.embed_sync(["gamma"])[0], atol=1e-4)

    asyncio.run(run())


def test_a_failed_embedding_fails_every_call_waiting_for_it_and_is_not_cached(model):
    gated = GatedEmbedder(model)
    gated.failing = True
    cache = CachedEmbedder(gated)

    async def run() -> None:
        first = asyncio.create_task(cache.embed(["alpha"]))
        await asyncio.sleep(0)
        second = asyncio.create_task(cache.embed(["alpha"]))
        await asyncio.sleep(0)
        gated.gate.set()
        results = await asyncio.gather(first, second, return_exceptions=True)
        assert [type(r) for r in results] == [EmbeddingError, EmbeddingError]
        gated.failing = False
        (vector,) = await cache.embed(["alpha"])
        assert np.allclose(vector, model.embed_sync(["alpha"])[0], atol=1e-4)
        assert gated.batches == [["alpha"], ["alpha"]]

    asyncio.run(run())


def test_a_long_call_goes_in_batches_of_like_length_and_returns_in_the_callers_order(model):
    counting = CountingEmbedder(model)
    batching = MicroBatchingEmbedder(counting, max_batch=4)
    topics = ["tea", "rust", "jazz", "chess", "Lisbon", "kayaks", "sourdough", "taxes", "yoga"]
    words = [9, 1, 7, 3, 12, 2, 5, 4, 10]  # mixed lengths, in no order
    texts = [
        f"the user likes {topic}" + " a lot" * n for topic, n in zip(topics, words, strict=True)
    ]

    vectors = asyncio.run(batching.embed(texts))
    assert [len(b) for b in counting.batches] == [4, 4, 1]
    lengths = [[len(t) for t in b] for b in counting.batches]
    assert all(max(shorter) <= min(longer) for shorter, longer in itertools.pairwise(lengths))
    assert sorted(t for b in counting.batches for t in b) == sorted(texts)
    assert np.allclose(vectors, model.embed_sync(texts), atol=1e-4)


def test_a_call_longer_than_a_batch_keeps_the_order_of_texts_of_one_length(model):
    counting = CountingEmbedder(model)
    batching = MicroBatchingEmbedder(counting, max_batch=32)
    texts = [f"a note about topic {i:02d}" for i in range(70)]  # all of one length

    vectors = asyncio.run(batching.embed(texts))
    assert [len(b) for b in counting.batches] == [32, 32, 6]
    assert [t for b in counting.batches for t in b] == texts
    assert np.allclose(vectors, model.embed_sync(texts), atol=1e-4)
