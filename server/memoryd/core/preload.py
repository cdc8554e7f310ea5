"""Preload: the memories relevant to a conversation, searched per scope concurrently and
streamed as events, then rendered as a context block within a token budget.

Order of events: one ScopeHits per requested scope, as each is ready; one
PreloadContext; one PreloadDone. Or, when the caller's etag still holds, one
NotModified and nothing is searched. A scope that fails or runs out of time
reports that in its own event; the stream itself fails only for a bad request.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from memoryd.core import preload_events as events
from memoryd.core import rendering
from memoryd.core.consistency import ANSWER_MARGIN_SECONDS, ReadBarrier
from memoryd.core.errors import InvalidArgument, MemorydError, ScopeTimedOut
from memoryd.core.expiry import etag_holds, etag_until_expiry
from memoryd.core.instruments import Telemetry
from memoryd.core.model import ScoredMemory, SearchQuery, Selection
from memoryd.core.policy import UNRESTRICTED, Access, Principal, authorize, is_shared
from memoryd.core.ports import TokenCounter, Vector
from memoryd.core.preload_etags import context_tag
from memoryd.core.retrieval import Retrieval

MAX_TURNS = 100

TimeRemaining = Callable[[], float | None]
#: A scope of the request and the search it runs.
_ScopeQuery = tuple[events.PreloadScope, SearchQuery]


class Preloader:
    """Runs Preload on SearchMemories' path: Retrieval's searches, each held
    back by the read barrier until its scope is current."""

    def __init__(
        self,
        retrieval: Retrieval,
        barrier: ReadBarrier,
        tokens: TokenCounter,
        *,
        margin_seconds: float = ANSWER_MARGIN_SECONDS,
        clock: Callable[[], float] = time.perf_counter,
        telemetry: Telemetry | None = None,
    ) -> None:
        self._retrieval = retrieval
        self._barrier = barrier
        self._tokens = tokens
        self._telemetry = telemetry or Telemetry()
        self._margin = margin_seconds
        self._clock = clock

    async def preload(
        self,
        request: events.PreloadRequest,
        time_remaining: TimeRemaining,
        principal: Principal = UNRESTRICTED,
    ) -> AsyncIterator[events.PreloadEvent]:
        """The events of one Preload. Raises InvalidArgument, or PermissionDenied
        for a scope the principal may not read, before the first event."""
        agent = request.agent_scope
        request = replace(
            request,
            user_scope=authorize(principal, request.user_scope, Access.READ),
            # An agent scope that is not shared memory is the contract's error.
            agent_scope=authorize(principal, agent, Access.READ)
            if agent and is_shared(agent)
            else agent,
        )
        started = self._clock()
        is_first = True
        async for event in self._events(request, time_remaining):
            if is_first:
                is_first = False
                elapsed_ms = (self._clock() - started) * 1000
                self._telemetry.preload_first_event.record(
                    elapsed_ms, {"memoryd.preload.format": request.format.value}
                )
            yield event

    async def _events(
        self, request: events.PreloadRequest, time_remaining: TimeRemaining
    ) -> AsyncIterator[events.PreloadEvent]:
        queries = self._queries(request)
        mode = self._retrieval.mode(request.mode)
        now = datetime.now(UTC)
        render = (request.format, request.max_tokens, self._tokens.tokenizer_id)
        searches = [q for _, q in queries]
        tag = context_tag(searches, mode, render, self._barrier, self._retrieval, now)
        if etag_holds(request.if_none_match, tag.etag, now):
            yield events.NotModified(request.if_none_match)
            return
        started = self._clock()
        vector = await self._embed(queries[0][1].text, time_remaining)
        embedded = self._clock()
        results: dict[events.PreloadScope, events.ScopeHits] = {}
        if isinstance(vector, Exception):
            for scope, _ in queries:
                results[scope] = events.ScopeHits(scope, (), vector)
                yield results[scope]
        else:
            async for hits in self._search_scopes(queries, vector, request, time_remaining):
                results[hits.scope] = hits
                yield hits
        searched = self._clock()
        sections = [results[scope].hits for scope, _ in queries]
        with self._telemetry.tracer.start_as_current_span("memoryd.preload.render") as span:
            fitted = rendering.fit(request.format, sections, request.max_tokens, self._tokens)
            span.set_attributes(
                {
                    "memoryd.preload.format": request.format.value,
                    "memoryd.preload.tokens": fitted.token_count,
                    "memoryd.preload.kept": len(fitted.included),
                    "memoryd.preload.dropped": fitted.dropped_count,
                }
            )
        is_partial = any(r.error is not None for r in results.values())
        yield events.PreloadContext(
            text=fitted.text,
            memory_ids=tuple(h.memory.id for h in fitted.included),
            dropped_count=fitted.dropped_count,
            token_count=fitted.token_count,
        )
        rendered = self._clock()
        agent = results.get(events.PreloadScope.AGENT)
        yield events.PreloadDone(
            user_hit_count=len(results[events.PreloadScope.USER].hits),
            agent_hit_count=len(agent.hits) if agent else 0,
            included_count=len(fitted.included),
            token_count=fitted.token_count,
            is_partial=is_partial,
            etag=""
            if is_partial
            else etag_until_expiry(
                tag.etag, (h.memory for s in sections for h in s), tag.recency_ends
            ),
            mode=mode,
            embed_seconds=embedded - started,
            search_seconds=searched - embedded,
            render_seconds=rendered - searched,
        )

    async def _search_scopes(
        self,
        queries: Sequence[_ScopeQuery],
        vector: Vector,
        request: events.PreloadRequest,
        time_remaining: TimeRemaining,
    ) -> AsyncIterator[events.ScopeHits]:
        """Searches the scopes concurrently and yields each one's hits as soon
        as it is done; scopes not done when the deadline nears time out. A search
        starts once the one before had a turn of the loop: an inline (in-process)
        one is then over, and its hits go out before the next runs; one waiting on
        I/O or on the read barrier lets the next start beside it."""
        tasks: dict[events.PreloadScope, asyncio.Task[list[ScoredMemory]]] = {}
        reported: set[events.PreloadScope] = set()
        try:
            for scope, query in queries:
                budget = self._budget(time_remaining)
                tasks[scope] = asyncio.create_task(self._search(query, vector, request, budget))
                await asyncio.sleep(0)
                if tasks[scope].done():
                    reported.add(scope)
                    yield _scope_hits(scope, tasks[scope])
            pending = {task for scope, task in tasks.items() if scope not in reported}
            while pending:
                done, pending = await asyncio.wait(
                    pending, timeout=self._budget(time_remaining), return_when="FIRST_COMPLETED"
                )
                if not done:
                    break
                for scope, task in tasks.items():
                    if task in done:
                        reported.add(scope)
                        yield _scope_hits(scope, task)
            for scope, _ in queries:
                if scope not in reported:
                    yield events.ScopeHits(scope, (), ScopeTimedOut(scope.value))
        finally:
            for task in tasks.values():
                task.cancel()

    def _queries(self, request: events.PreloadRequest) -> list[_ScopeQuery]:
        text = request.query.strip() or _last_user_turn(request.turns)
        if not text:
            raise InvalidArgument("query", "set query, or turns with a TURN_ROLE_USER turn")
        if len(request.turns) > MAX_TURNS:
            raise InvalidArgument("turns", f"at most {MAX_TURNS} turns, got {len(request.turns)}")
        if request.max_tokens < 0:
            raise InvalidArgument("max_tokens", "must not be negative (0 means no budget)")
        if not request.user_scope.user_id:
            raise InvalidArgument("user_scope.user_id", "must be set")
        # A bad token is a bad request, refused before the first event rather
        # than reported as every scope's error.
        self._barrier.consistency_seq(request.consistency_token)
        scopes = [(events.PreloadScope.USER, request.user_scope)]
        agent = request.agent_scope
        if agent is not None:
            if agent.user_id or not (agent.agent_id or agent.app_id):
                raise InvalidArgument(
                    "agent_scope", "set agent_id and/or app_id, and leave user_id empty"
                )
            scopes.append((events.PreloadScope.AGENT, agent))
        queries = []
        for scope, owner in scopes:
            query = SearchQuery(
                text=text,
                selection=Selection(owner, request.memory_types, request.categories),
                limit=request.limit,
                score_threshold=request.score_threshold,
                mode=request.mode,
                diversity=request.diversity,
                recency_half_life=request.recency_half_life,
            )
            try:
                self._retrieval.check(query)
            except InvalidArgument as exc:
                field = exc.field
                if field == "scope" or field.startswith("scope."):
                    field = f"{scope.value}_{field}"
                raise InvalidArgument(field, exc.reason) from exc
            queries.append((scope, query))
        return queries

    def _budget(self, time_remaining: TimeRemaining) -> float | None:
        remaining = time_remaining()
        return None if remaining is None else max(0.0, remaining - self._margin)

    async def _embed(self, text: str, time_remaining: TimeRemaining) -> Vector | Exception:
        """The query vector, or the error every scope reports instead."""
        task = asyncio.ensure_future(self._retrieval.embed(text))
        done, _ = await asyncio.wait({task}, timeout=self._budget(time_remaining))
        if not done:
            # Not cancelled: concurrent callers may share this model call.
            task.add_done_callback(_consume)
            return ScopeTimedOut("every")
        try:
            return task.result()
        except MemorydError as exc:
            return exc

    async def _search(
        self, query: SearchQuery, vector: Vector, request: events.PreloadRequest, wait: float | None
    ) -> list[ScoredMemory]:
        await self._barrier.wait_for_scope(query.selection.scope, request.consistency_token, wait)
        hits = await self._retrieval.search(query, vector)
        # The scores the client receives are 32-bit floats: render those same
        # numbers, so a client formatting the hits itself gets the same text.
        return [ScoredMemory(h.memory, _float32(h.score)) for h in hits]


def _last_user_turn(turns: Sequence[events.Turn]) -> str:
    for turn in reversed(turns):
        if turn.role is events.TurnRole.USER:
            return turn.content.strip()
    return ""


def _scope_hits(
    scope: events.PreloadScope, task: asyncio.Task[list[ScoredMemory]]
) -> events.ScopeHits:
    error = task.exception()
    if error is not None:
        if not isinstance(error, Exception):
            raise error
        return events.ScopeHits(scope, (), error)
    return events.ScopeHits(scope, tuple(task.result()))


def _float32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _consume(task: asyncio.Future[Vector]) -> None:
    if not task.cancelled():
        task.exception()
