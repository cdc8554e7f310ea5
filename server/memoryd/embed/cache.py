"""An LRU cache of embeddings: repeated texts skip the model."""

from __future__ import annotations

import asyncio
from array import array
from collections import OrderedDict
from collections.abc import Sequence

from memoryd.core.errors import EmbeddingError
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
        # float32, as the model made them: a tenth of the memory of a list of floats
        # (1.5 KB against 12 KB for 384 dimensions), and the same values back.
        self._vectors: OrderedDict[str, array[float]] = OrderedDict()
        self._in_flight: dict[str, asyncio.Future[Vector]] = {}
        self.hits = 0
        self.misses = 0

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        # Take the hits before awaiting: another call may evict them meanwhile.
        known: dict[str, Vector] = {
            t: self._vectors[t].tolist() for t in texts if t in self._vectors
        }
        for text in known:
            self._vectors.move_to_end(text)
        # A text another call is embedding right now is awaited, not embedded twice
        # (a SYNC write embeds ahead while the indexer may already want it).
        joined = {t: self._in_flight[t] for t in texts if t not in known and t in self._in_flight}
        missing = [t for t in dict.fromkeys(texts) if t not in known and t not in joined]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            known.update(await self._embed_missing(missing))
        for text, flight in joined.items():
            known[text] = await asyncio.shield(flight)
        return [known[t] for t in texts]

    async def _embed_missing(self, missing: list[str]) -> dict[str, Vector]:
        flights = {t: asyncio.get_running_loop().create_future() for t in missing}
        self._in_flight.update(flights)
        try:
            vectors = await self._inner.embed(missing)
        except BaseException as error:
            for flight in flights.values():
                flight.set_exception(
                    error
                    if isinstance(error, Exception)
                    else EmbeddingError("the embedding this call waited for was cancelled; retry")
                )
                flight.exception()  # a joiner re-raises it; nobody else must
            raise
        finally:
            for text in missing:
                self._in_flight.pop(text, None)
        for (text, flight), vector in zip(flights.items(), vectors, strict=True):
            flight.set_result(vector)
            self._remember(text, vector)
        return dict(zip(missing, vectors, strict=True))

    def _remember(self, text: str, vector: Vector) -> None:
        self._vectors[text] = array("f", vector)
        self._vectors.move_to_end(text)
        while len(self._vectors) > self._capacity:
            self._vectors.popitem(last=False)
