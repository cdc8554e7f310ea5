"""The read path: authorize, wait for the scope's acknowledged writes, then read the index.

Get, List, Search and a dry-run forget each pass the read barrier
(core/consistency.py) first, so a caller always reads its own writes.
Search and Preload share one search path: Retrieval embeds and queries,
the barrier holds the query back until the scope is current.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

from opentelemetry import trace

from memoryd.core import paging, scoping, validation
from memoryd.core.applier import Applier
from memoryd.core.consistency import ReadBarrier
from memoryd.core.documents import from_document
from memoryd.core.errors import InvalidArgument
from memoryd.core.expiry import live_at
from memoryd.core.filters import all_of
from memoryd.core.instruments import Telemetry
from memoryd.core.model import (
    ListQuery,
    Memory,
    MemoryPage,
    Scope,
    ScoredMemory,
    SearchQuery,
    Selection,
)
from memoryd.core.policy import UNRESTRICTED, Access, Principal, authorize, readable
from memoryd.core.ports import ScrollCursor, VectorIndex
from memoryd.core.retrieval import Retrieval
from memoryd.core.validation import Limits


class Reads:
    """Finds memories: by id, newest first, and by meaning.

    ``consistency_token`` and ``wait`` (seconds the read may wait for pending
    writes; None: the policy's maximum) work as in ReadBarrier.wait_for_scope.
    """

    def __init__(
        self,
        index: VectorIndex,
        applier: Applier,
        retrieval: Retrieval,
        barrier: ReadBarrier,
        *,
        limits: Limits,
        telemetry: Telemetry,
    ) -> None:
        self._index = index
        self._applier = applier
        self._retrieval = retrieval
        self._barrier = barrier
        self._limits = limits
        self._telemetry = telemetry

    async def get(
        self,
        memory_id: str,
        scope: Scope,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal = UNRESTRICTED,
    ) -> Memory:
        """Raises MemoryNotFound unless the scope's owner has this memory, unexpired."""
        scope = authorize(principal, scope, Access.READ)
        scoping.check_id(memory_id, "id", required=True)
        scoping.check_scope(scope, "scope")
        await self._barrier.wait_for_scope(scope, consistency_token, wait)
        return (await self._applier.owned(memory_id, scope, datetime.now(UTC)))[0]

    async def search(
        self,
        query: SearchQuery,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal = UNRESTRICTED,
    ) -> list[ScoredMemory]:
        """The memories of the scope closest to the query text, best first."""
        query = replace(query, selection=readable(principal, query.selection))
        self._retrieval.check(query)
        if self._telemetry.record_content:
            trace.get_current_span().set_attribute("memoryd.query.text", query.text)
        if self._barrier.is_current(query.selection.scope, consistency_token):
            vector = await self._retrieval.embed(query.text)
        else:  # embed while waiting for pending writes: both take milliseconds
            vector, _ = await asyncio.gather(
                self._retrieval.embed(query.text),
                self._barrier.wait_for_scope(query.selection.scope, consistency_token, wait),
            )
        return await self._retrieval.search(query, vector)

    async def list(
        self,
        query: ListQuery,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal = UNRESTRICTED,
    ) -> MemoryPage:
        """One page of the scope's memories, newest first."""
        query = replace(query, selection=readable(principal, query.selection))
        validation.check_selection(query.selection, self._limits)
        if query.page_size < 0:
            raise InvalidArgument("page_size", "must not be negative (0 means 50)")
        cursor = None
        if query.page_token:
            cursor = ScrollCursor(*paging.decode_token(query.page_token, query.selection))
        await self._barrier.wait_for_scope(query.selection.scope, consistency_token, wait)
        # Expired memories drop out between pages too: a token resumes by create_time.
        where = all_of(scoping.read_selection_filter(query.selection), live_at(datetime.now(UTC)))
        page = await self._index.scroll_newest_first(where, query.page_size + 1, cursor)
        records = page.records[: query.page_size]
        fitting = paging.fitting_count(
            [r.payload for r in records], self._limits.max_response_bytes
        )
        records = records[:fitting]
        token = ""
        if len(page.records) > len(records) and records:
            token = paging.next_token(query.selection, records, page.order_values, cursor)
        return MemoryPage(tuple(from_document(r.payload) for r in records), token)

    async def count_forget(
        self,
        selection: Selection,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal = UNRESTRICTED,
    ) -> int:
        """How many memories ForgetMemories would delete (its dry run)."""
        selection = replace(selection, scope=authorize(principal, selection.scope, Access.FORGET))
        validation.check_selection(selection, self._limits)
        await self._barrier.wait_for_scope(selection.scope, consistency_token, wait)
        return await self._applier.count_forget(selection, datetime.now(UTC))
