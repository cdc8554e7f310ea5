"""An LRU cache of embeddings: repeated texts skip the model."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from memoryd.core.ports import Embedder, Vector
from memoryd.embed.wrapper import EmbedderWrapper


class CachedEmbedder(EmbedderWrapper):
    """Wraps an embedder with an in-memory LRU of ``capacity`` texts.

    Agents repeat themselves: the same query before every model call, the
    same fact stored again. Only texts not in the cache reach the model, in
    one call. ``misses`` counts texts sent to the model and ``hits`` the
    texts answered without it, for telemetry.
    """

    def __init__(self, inner: Embedder, *, capacity: int = 10_000) -> None:
        super().__init__(inner)
        self._capacity = capacity
        self._vectors: OrderedDict[str, Vector] = OrderedDict()
        self.hits = 0
        self.misses = 0

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        # Take the hits before awaiting: another call may evict them meanwhile.
        known = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        for text in known:
            self._vectors.move_to_end(text)
        if missing:
            for text, vector in zip(missing, await self._inner.embed(missing), strict=True):
                known[text] = vector
                self._remember(text, vector)
        return [known[t] for t in texts]

    def _remember(self, text: str, vector: Vector) -> None:
        self._vectors[text] = vector
        self._vectors.move_to_end(text)
        while len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
