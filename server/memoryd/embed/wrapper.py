"""What every embedder wrapper shares: it is the embedder it wraps, but for ``embed``."""

from __future__ import annotations

from collections.abc import Sequence

from memoryd.core.ports import Embedder, Vector


class EmbedderWrapper:
    """An Embedder around ``inner``: same model, same dimension, closed together.

    Wrappers (micro-batching, the cache, tracing) are composed in server.py;
    each overrides ``embed`` only.
    """

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        return await self._inner.embed(texts)

    async def close(self) -> None:
        await self._inner.close()
