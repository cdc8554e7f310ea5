"""Retrieval: checks a search, picks its ranking mode, embeds it and runs it on the index."""

from __future__ import annotations

from datetime import UTC, datetime

from memoryd.core import rendering, scoping, validation
from memoryd.core.documents import from_document
from memoryd.core.errors import InvalidArgument
from memoryd.core.expiry import live_at
from memoryd.core.filters import all_of
from memoryd.core.model import RetrievalMode, ScoredMemory, SearchQuery
from memoryd.core.ports import Embedder, Search, TokenCounter, Vector, VectorIndex
from memoryd.core.validation import Limits


class Retrieval:
    """Searches of one index; knows nothing of pending writes (Memories waits for them).

    ``default_mode`` ranks searches that ask for no mode; an index without a
    lexical vector can only rank by meaning, so there it is always DENSE.
    """

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        limits: Limits,
        tokens: TokenCounter,
        default_mode: RetrievalMode = RetrievalMode.DENSE,
    ) -> None:
        self._index = index
        self._embedder = embedder
        self._tokens = tokens
        self._limits = limits
        self._default_mode = default_mode if index.supports_hybrid else RetrievalMode.DENSE

    def check(self, query: SearchQuery) -> None:
        """Raises InvalidArgument for a query ``search`` would reject."""
        validation.check_content(query.text, "query", self._limits)
        validation.check_search_limit(query.limit, self._limits)
        validation.check_selection(query.selection, self._limits)
        if query.score_threshold is not None and not 0.0 <= query.score_threshold <= 1.0:
            raise InvalidArgument("score_threshold", "must be between 0 and 1")
        if query.diversity is not None and not 0.0 <= query.diversity <= 1.0:
            raise InvalidArgument("diversity", "must be between 0 and 1")
        if query.max_tokens < 0:
            raise InvalidArgument("max_tokens", "must not be negative (0 means no budget)")
        if query.mode is RetrievalMode.HYBRID and not self._index.supports_hybrid:
            raise InvalidArgument(
                "retrieval_mode", "HYBRID needs a lexical index, which this index lacks; use DENSE"
            )

    def mode(self, requested: RetrievalMode | None) -> RetrievalMode:
        """The mode a search asking for ``requested`` (None: the default) runs in."""
        return requested or self._default_mode

    async def embed(self, text: str) -> Vector:
        """The query's dense vector; raises EmbeddingError."""
        (vector,) = await self._embedder.embed([text])
        return vector

    async def search(self, query: SearchQuery, vector: Vector) -> list[ScoredMemory]:
        """The checked query's best unexpired matches in its scope, best first,
        with scores in [0, 1] (see SearchResult.score in the contract)."""
        search = Search(
            vector=vector,
            where=all_of(
                scoping.read_selection_filter(query.selection), live_at(datetime.now(UTC))
            ),
            limit=query.limit,
            min_similarity=query.score_threshold or None,
            text=query.text,
            is_hybrid=self.mode(query.mode) is RetrievalMode.HYBRID,
            diversity=query.diversity,
        )
        (hits,) = await self._index.search([search])
        scored = [
            ScoredMemory(from_document(hit.payload), min(1.0, max(0.0, hit.similarity)))
            for hit in hits
        ]
        if not query.max_tokens:
            return scored
        # Counted as a PLAIN Preload budget is, so both keep the same memories.
        fitted = rendering.fit(
            rendering.PreloadFormat.PLAIN, [scored], query.max_tokens, self._tokens
        )
        return list(fitted.included)
