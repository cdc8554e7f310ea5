"""Spans and metrics around embedding, as a wrapper composed in server.py."""

from __future__ import annotations

import time
from collections.abc import Sequence

from memoryd.core.instruments import Telemetry
from memoryd.core.ports import Embedder, Vector
from memoryd.embed.cache import CachedEmbedder
from memoryd.embed.wrapper import EmbedderWrapper


class TracedEmbedder(EmbedderWrapper):
    """Wraps the outermost embedder: one ``embed`` span per call.

    Attributes follow gen_ai conventions where they fit: the model id, the
    number of texts, and whether the cache answered every text. Texts are
    never recorded.
    """

    def __init__(self, inner: Embedder, telemetry: Telemetry, cache: CachedEmbedder | None) -> None:
        super().__init__(inner)
        self._telemetry = telemetry
        self._cache = cache

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        telemetry = self._telemetry
        misses_before = self._cache.misses if self._cache is not None else 0
        with telemetry.tracer.start_as_current_span("embed") as span:
            started = time.perf_counter()
            vectors = await self._inner.embed(texts)
            elapsed = (time.perf_counter() - started) * 1000
            misses = (self._cache.misses - misses_before) if self._cache is not None else len(texts)
            attributes = {
                "gen_ai.operation.name": "embeddings",
                "gen_ai.request.model": self.model_id,
            }
            span.set_attributes(
                {
                    **attributes,
                    "memoryd.embed.batch_size": len(texts),
                    "memoryd.embed.cache_hit": misses == 0,
                }
            )
            telemetry.embed_duration.record(elapsed, attributes)
            telemetry.embed_batch_size.record(len(texts), attributes)
            return vectors
