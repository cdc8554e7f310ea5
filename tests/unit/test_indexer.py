"""The indexer keeps flowing when one write cannot be embedded: retried, then failed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from memoryd.core.applier import Applier
from memoryd.core.errors import WriteFailed
from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.journal import Journal
from memoryd.core.memories import Memories
from memoryd.core.model import NewMemory, Scope, WriteMode, WriteState, utc_now
from memoryd.core.validation import Limits
from memoryd.embed.base import EmbeddingError, Vector
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.base import IndexSpec
from memoryd.store.edge import EdgeIndex


class PoisonInjectingEmbedder:
    """The real model, except that any batch with 'poison' in it fails: fault injection."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        self._inner = inner
        self.calls_with_poison = 0

    model_id = property(lambda self: self._inner.model_id)
    dimension = property(lambda self: self._inner.dimension)

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        if any("poison" in t for t in texts):
            self.calls_with_poison += 1
            raise EmbeddingError("injected failure")
        return await self._inner.embed(texts)

    async def close(self) -> None:
        await self._inner.close()


@pytest.fixture(scope="module")
def model():
    embedder = OnnxMiniLMEmbedder()
    yield embedder
    asyncio.run(embedder.close())


def test_a_write_that_keeps_failing_is_marked_failed_and_later_writes_apply(tmp_path: Path, model):
    async def run() -> None:
        embedder = PoisonInjectingEmbedder(model)
        index = EdgeIndex.open(tmp_path / "index", IndexSpec(embedder.model_id, embedder.dimension))
        journal = Journal.open(tmp_path / "journal.sqlite3")
        applier = Applier(index, limits=Limits(), dedup_threshold=0.95, clock=utc_now)
        indexer = Indexer(journal, applier, embedder, IndexerSettings(max_attempts=3))
        memories = Memories(index, embedder, journal, indexer, applier)
        await memories.start()
        scope = Scope(user_id="u")
        try:
            bad = await memories.create([NewMemory("this is poison", scope)], WriteMode.ASYNC)
            good = await memories.create([NewMemory("this is fine", scope)], WriteMode.SYNC)
            assert good.result[0].memory.content == "this is fine"
            status = await memories.write_status(bad.token)
            assert status.state is WriteState.FAILED
            assert isinstance(status.error, WriteFailed)
            assert "3 attempts" in str(status.error)
            # one failed batch prefetch, then three attempts of its own
            assert embedder.calls_with_poison == 4
            with pytest.raises(WriteFailed):
                await memories.create([NewMemory("more poison", scope)], WriteMode.SYNC)
        finally:
            await memories.stop(0)
            await journal.close()
            await index.close()

    asyncio.run(run())
