"""Retrieval: checks a search, picks its ranking mode, embeds it and runs it on the index."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memoryd.core import rendering, scoping, validation
from memoryd.core.documents import from_document
from memoryd.core.errors import InvalidArgument
from memoryd.core.expiry import live_at
from memoryd.core.filters import all_of
from memoryd.core.model import RetrievalMode, ScoredMemory, SearchQuery
from memoryd.core.ports import Embedder, Recency, Search, TokenCounter, Vector, VectorIndex
from memoryd.core.recency import DEFAULT_HALF_LIFE, MAX_HALF_LIFE, clock_step
from memoryd.core.validation import Limits


class Retrieval:
    """Searches of one index; knows nothing of pending writes (Memories waits for them).

    ``default_mode`` ranks searches that ask for no mode; an index without a
    lexical vector can only rank by meaning, so there it is always DENSE.
    ``default_recency_half_life`` weights searches that set none by age; zero
    turns recency off.
    """

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        limits: Limits,
        tokens: TokenCounter,
        default_mode: RetrievalMode = RetrievalMode.DENSE,
        default_recency_half_life: timedelta = DEFAULT_HALF_LIFE,
    ) -> None:
        self._index = index
        self._default_half_life = default_recency_half_life
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
        half_life = query.recency_half_life
        if half_life is not None and not timedelta(0) <= half_life <= MAX_HALF_LIFE:
            raise InvalidArgument(
                "recency_half_life",
                f"must be between 0 (recency off) and {MAX_HALF_LIFE.days} days",
            )
        if query.mode is RetrievalMode.HYBRID and not self._index.supports_hybrid:
            raise InvalidArgument(
                "retrieval_mode", "HYBRID needs a lexical index, which this index lacks; use DENSE"
            )

    def mode(self, requested: RetrievalMode | None) -> RetrievalMode:
        """The mode a search asking for ``requested`` (None: the default) runs in."""
        return requested or self._default_mode

    def recency_clock(self, query: SearchQuery, now: datetime) -> tuple[datetime, datetime] | None:
        """The step of the recency clock ``query`` measures age by at ``now``, as
        (start, end); None when its recency is off (core/recency.py)."""
        return clock_step(self._half_life(query), now)

    def _half_life(self, query: SearchQuery) -> timedelta:
        if query.recency_half_life is None:
            return self._default_half_life
        return query.recency_half_life

    async def embed(self, text: str) -> Vector:
        """The query's dense vector; raises EmbeddingError."""
        (vector,) = await self._embedder.embed([text])
        return vector

    async def search(self, query: SearchQuery, vector: Vector) -> list[ScoredMemory]:
        """The checked query's best unexpired matches in its scope, best first,
        with scores in [0, 1] (see SearchResult.score in the contract)."""
        now = datetime.now(UTC)
        half_life = self._half_life(query)
        clock = clock_step(half_life, now)
        search = Search(
            vector=vector,
            where=all_of(scoping.read_selection_filter(query.selection), live_at(now)),
            limit=query.limit,
            min_similarity=query.score_threshold or None,
            text=query.text,
            is_hybrid=self.mode(query.mode) is RetrievalMode.HYBRID,
            diversity=query.diversity,
            recency=None if clock is None else Recency(clock[0], half_life.total_seconds()),
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
