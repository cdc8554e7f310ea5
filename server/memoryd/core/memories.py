"""The memory service: journaled writes, and reads that see the caller's own writes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import NamedTuple

from opentelemetry import trace

from memoryd.core import operations, paging, scoping, validation
from memoryd.core.applier import Applier, selection_filter
from memoryd.core.documents import from_document
from memoryd.core.errors import (
    InvalidArgument,
    Overloaded,
    ShuttingDown,
    UnknownWrite,
    WriteNotApplied,
)
from memoryd.core.freshness import WriteTracker
from memoryd.core.indexer import Indexer
from memoryd.core.journal import APPLIED, FAILED, Append, Journal
from memoryd.core.model import (
    CreateResult,
    ListQuery,
    Memory,
    MemoryChange,
    MemoryPage,
    NewMemory,
    Receipt,
    RetrievalMode,
    Scope,
    ScoredMemory,
    SearchQuery,
    Selection,
    WriteMode,
    WriteOutcome,
    WritePolicy,
    WriteStatus,
    as_memory,
)
from memoryd.core.policy import UNRESTRICTED, Access, Principal, authorize, may, readable
from memoryd.core.retrieval import Retrieval
from memoryd.core.tracing import current_trace_context
from memoryd.core.validation import Limits
from memoryd.core.write_tokens import WriteTokens, status_of
from memoryd.embed.base import Embedder, TokenCounter
from memoryd.store.base import ScrollCursor, VectorIndex
from memoryd.telemetry import Telemetry


class _Written(NamedTuple):
    """A journaled write."""

    seq: int
    #: When it was journaled: the time it stores on the memories it changes.
    journaled_at: datetime
    #: The final state, or None in ASYNC mode.
    state: str | None
    #: The final outcome, or None in ASYNC mode.
    outcome: operations.Outcome
    #: The operation as first journaled under the request_id (the same, but for a retry).
    original: operations.Operation


def _accepted(item: NewMemory, journaled_at: datetime) -> CreateResult:
    """The acknowledgement of an ASYNC create: the memory as it is stored if
    created. A create with a memory_key or memory_id may update an existing
    memory instead, which keeps its create_time: then that time is not known yet."""
    return CreateResult(
        as_memory(item, journaled_at, version=0),
        WriteOutcome.ACCEPTED,
        is_create_time_known=not (item.memory_key or item.memory_id),
    )


class Memories:
    """Stores and finds memories by meaning.

    Writes are validated, journaled durably and acknowledged (ASYNC), or also
    applied before answering (SYNC); the indexer applies them in journal order.
    Reads first wait for the acknowledged writes of their scope, so a caller
    always reads its own writes, and never silently returns stale results.
    """

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        journal: Journal,
        indexer: Indexer,
        applier: Applier,
        *,
        limits: Limits | None = None,
        policy: WritePolicy | None = None,
        tokens: TokenCounter,
        default_mode: RetrievalMode = RetrievalMode.DENSE,
        telemetry: Telemetry | None = None,
    ) -> None:
        self._index = index
        self._embedder = embedder
        self._journal = journal
        self._tokens = WriteTokens(journal.journal_id)
        self._indexer = indexer
        self._applier = applier
        self._limits = limits or Limits()
        self._policy = policy or WritePolicy()
        self._telemetry = telemetry or Telemetry()
        self._writes = WriteTracker()
        self._is_closing = False
        self._retrieval = Retrieval(index, embedder, self._limits, tokens, default_mode)

    async def start(self) -> None:
        """Starts the indexer, replaying writes a previous run left pending."""
        for entry in await self._indexer.start():
            self._note(operations.operation_from_json(entry.kind, entry.operation), entry.seq)
        self._writes.start(self._indexer.last_seq)
        await self._journal.purge_forgotten()

    def refuse_writes(self) -> None:
        """From now on, writes fail with ShuttingDown; reads still work."""
        self._is_closing = True

    async def stop(self, drain_seconds: float) -> bool:
        """Refuses writes, lets the indexer apply the backlog for at most
        ``drain_seconds``, then stops it. What remains stays journaled for the
        next start. Returns whether the backlog was drained."""
        self.refuse_writes()
        drained = await self._indexer.drain(drain_seconds)
        await self._indexer.stop()
        return drained

    # --- writes -----------------------------------------------------------------

    async def create(
        self,
        news: Sequence[NewMemory],
        mode: WriteMode,
        request_id: str = "",
        *,
        is_batch: bool = False,
        principal: Principal = UNRESTRICTED,
    ) -> Receipt[tuple[CreateResult, ...]]:
        """Stores memories in order: each is created, updates the memory with its
        key or id, or is skipped as a near-duplicate. Every item is checked
        before any is journaled; raises InvalidArgument, PermissionDenied,
        Overloaded, ShuttingDown.

        ``principal`` is the caller (every method takes one): its scope rules
        (core/policy.py) apply before anything is read or written."""
        news = [replace(n, scope=authorize(principal, n.scope, Access.WRITE)) for n in news]
        if is_batch and not 1 <= len(news) <= self._limits.max_batch_size:
            raise InvalidArgument(
                "requests",
                f"needs 1 to {self._limits.max_batch_size} items, got {len(news)} "
                "(limit max_batch_size)",
            )
        for i, new in enumerate(news):
            try:
                validation.check_new_memory(new, "memory", self._limits)
            except InvalidArgument as exc:
                field = f"requests[{i}].{exc.field}" if is_batch else exc.field
                raise InvalidArgument(field, exc.reason) from exc
        items = tuple(replace(new, generated_id=new.memory_id or str(uuid.uuid4())) for new in news)
        kind = operations.BATCH_CREATE if is_batch else operations.CREATE
        written = await self._write(items, mode, request_id, kind, principal=principal)
        token = self._tokens.token(written.seq)
        if written.state is None:
            assert isinstance(written.original, tuple)
            accepted = (_accepted(item, written.journaled_at) for item in written.original)
            return Receipt(token, tuple(accepted))
        assert isinstance(written.outcome, tuple)
        return Receipt(token, written.outcome)

    async def update(
        self,
        change: MemoryChange,
        mode: WriteMode,
        request_id: str = "",
        *,
        principal: Principal = UNRESTRICTED,
    ) -> Receipt[Memory | None]:
        """Applies a partial change; changed content is embedded again. In SYNC
        mode raises MemoryNotFound or VersionConflict; in ASYNC mode those show
        in the write status."""
        change = replace(change, scope=authorize(principal, change.scope, Access.WRITE))
        validation.check_change(change, self._limits)
        written = await self._write(change, mode, request_id, principal=principal)
        assert written.outcome is None or isinstance(written.outcome, Memory)
        return Receipt(self._tokens.token(written.seq), written.outcome)

    async def delete(
        self,
        memory_id: str,
        scope: Scope,
        expected_version: int | None,
        mode: WriteMode,
        request_id: str = "",
        *,
        principal: Principal = UNRESTRICTED,
    ) -> str:
        """Deletes one memory; returns the write token. Errors as for update."""
        scope = authorize(principal, scope, Access.WRITE)
        scoping.check_id(memory_id, "id", required=True)
        scoping.check_scope(scope, "scope")
        delete = operations.Delete(memory_id, scope, expected_version)
        written = await self._write(delete, mode, request_id, principal=principal)
        return self._tokens.token(written.seq)

    async def forget(
        self,
        selection: Selection,
        *,
        dry_run: bool,
        mode: WriteMode,
        request_id: str = "",
        wait_seconds: float | None = None,
        principal: Principal = UNRESTRICTED,
    ) -> Receipt[int]:
        """Deletes (or with dry_run, counts) the selected memories. The count is
        final in SYNC mode and for a dry run, 0 in ASYNC mode."""
        selection = replace(selection, scope=authorize(principal, selection.scope, Access.FORGET))
        validation.check_selection(selection, self._limits)
        if dry_run:
            await self.wait_for_scope(selection.scope, "", wait_seconds)
            count = await self._index.count(
                selection_filter(selection, scoping.forget_filter(selection.scope))
            )
            return Receipt("", count)
        written = await self._write(selection, mode, request_id, principal=principal)
        count = written.outcome if isinstance(written.outcome, int) else 0
        return Receipt(self._tokens.token(written.seq), count)

    async def write_status(self, token: str, *, principal: Principal = UNRESTRICTED) -> WriteStatus:
        """Raises UnknownWrite for a token this journal never issued, and for
        one of a write in a scope the principal may not read (indistinguishable,
        so a token never reveals another principal's write)."""
        if not token:
            raise InvalidArgument("write_token", "must not be empty")
        seq = self._tokens.seq_of(token, "write_token", unknown_is_error=True)
        entry = await self._journal.get(seq)
        if entry is None or self._journal.is_forgotten(entry):
            raise UnknownWrite(token)
        if not principal.is_unrestricted:
            operation = operations.operation_from_json(entry.kind, entry.operation)
            # A forget's status is the forgetter's (an admin may not read the scope).
            access = Access.FORGET if isinstance(operation, Selection) else Access.READ
            scopes = operations.scopes_of(operation)
            if not all(may(principal, scope, access) for scope in scopes):
                raise UnknownWrite(token)
        return status_of(entry, token)

    async def _write(
        self,
        operation: operations.Operation,
        mode: WriteMode,
        request_id: str,
        kind: str = "",
        *,
        principal: Principal = UNRESTRICTED,
    ) -> _Written:
        """Journals a write; in SYNC mode, waits until it is applied."""
        if request_id:
            scoping.check_id(request_id, "request_id", required=True)
            if not principal.is_unrestricted:
                # Each principal has its own request_id space, so none can
                # replay, or probe for, another's request.
                request_id = f"{principal.name}\x1f{request_id}"
        if self._is_closing:
            raise ShuttingDown()
        backlog = self._indexer.backlog
        if backlog >= self._policy.max_backlog:
            raise Overloaded(backlog, retry_after=min(5.0, max(0.1, backlog / 500)))
        kind = kind or operations.kind_of(operation)
        document = operations.operation_to_json(operation)
        with self._telemetry.tracer.start_as_current_span(
            "memoryd.journal.append", attributes={"memoryd.write.kind": kind}
        ) as span:
            write = Append(
                kind,
                document,
                request_id,
                operations.fingerprint(kind, document),
                current_trace_context(),
            )
            if self._telemetry.record_content and isinstance(operation, tuple):
                span.set_attribute("memoryd.memory.content", [i.content for i in operation])
            appended = await self._journal.append(write)
            span.set_attributes(
                {"memoryd.write.seq": appended.seq, "memoryd.write.retry": appended.is_retry}
            )
        seq = appended.seq
        original = operation
        if appended.is_retry:
            if appended.fingerprint != operations.fingerprint(kind, document):
                raise InvalidArgument("request_id", "was already used for a different request")
            assert appended.first is not None
            original = operations.operation_from_json(appended.first.kind, appended.first.operation)
        else:
            self._note(operation, seq)
            self._indexer.appended(seq)
        if mode is WriteMode.ASYNC:
            return _Written(seq, appended.journaled_at, None, None, original)
        await self._indexer.wait_done(seq, None)
        entry = await self._journal.get(seq)
        assert entry is not None and entry.outcome is not None
        if entry.state == FAILED:
            raise operations.error_from_json(entry.outcome)
        assert entry.state == APPLIED
        outcome = operations.outcome_from_json(kind, entry.outcome)
        return _Written(seq, appended.journaled_at, entry.state, outcome, original)

    def _note(self, operation: operations.Operation, seq: int) -> None:
        """Records an acknowledged write in the scopes it reaches, for reads to wait on."""
        is_forget = isinstance(operation, Selection)
        for scope in operations.scopes_of(operation):
            self._writes.note(scope, seq, self._indexer.done_seq, is_forget=is_forget)

    # --- reads ------------------------------------------------------------------

    async def get(
        self,
        memory_id: str,
        scope: Scope,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal = UNRESTRICTED,
    ) -> Memory:
        """Raises MemoryNotFound unless the scope's owner has this memory."""
        scope = authorize(principal, scope, Access.READ)
        scoping.check_id(memory_id, "id", required=True)
        scoping.check_scope(scope, "scope")
        await self.wait_for_scope(scope, consistency_token, wait)
        return (await self._applier.owned(memory_id, scope))[0]

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
        # Embed the query while waiting for pending writes: both take milliseconds.
        vector, _ = await asyncio.gather(
            self._retrieval.embed(query.text),
            self.wait_for_scope(query.selection.scope, consistency_token, wait),
        )
        return await self._retrieval.search(query, vector)

    @property
    def retrieval(self) -> Retrieval:
        """The searches of this service's index, for Preload."""
        return self._retrieval

    @property
    def journal_id(self) -> str:
        """Identifies this server's journal, and so its write tokens."""
        return self._journal.journal_id

    def scope_version(self, scope: Scope) -> int:
        """Grows with every write acknowledged in ``scope``; see core/freshness.py."""
        return self._writes.version(scope)

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
        await self.wait_for_scope(query.selection.scope, consistency_token, wait)
        where = selection_filter(query.selection, scoping.read_filter(query.selection.scope))
        page = await self._index.scroll_newest_first(where, query.page_size + 1, cursor)
        size = paging.fitting_count(
            [r.payload for r in page.records[: query.page_size]], self._limits.max_response_bytes
        )
        records, order_values = page.records[: min(query.page_size, size)], page.order_values
        token = ""
        if len(page.records) > len(records) and records:
            last = order_values[len(records) - 1]
            seen = [r.id for r, v in zip(records, order_values, strict=False) if v == last]
            if cursor is not None and cursor.order_value == last:
                seen = [*cursor.seen_ids, *seen]
            token = paging.encode_token(query.selection, last, seen)
        return MemoryPage(tuple(from_document(r.payload) for r in records), token)

    # --- read-your-writes ---------------------------------------------------------

    def consistency_seq(self, consistency_token: str) -> int:
        """The journal seq a read's ``consistency_token`` asks it to wait for (0
        for none). Raises InvalidArgument for a token this server never issued."""
        if not consistency_token:
            return 0
        seq = self._tokens.seq_of(consistency_token, "consistency_token")
        # Past the journal's end, a token names no write: waiting would only
        # use up the caller's deadline.
        if seq > self._indexer.last_seq:
            raise InvalidArgument("consistency_token", "is not a write_token this server issued")
        return seq

    async def wait_for_scope(
        self, scope: Scope, consistency_token: str, wait: float | None
    ) -> None:
        """Returns once the writes acknowledged in ``scope`` (and the write of
        ``consistency_token``) are applied; raises WriteNotApplied after
        ``wait`` seconds (None: the policy's maximum)."""
        seq = max(self._writes.pending_seq(scope), self.consistency_seq(consistency_token))
        if seq <= self._indexer.done_seq:
            return
        timeout = self._policy.read_wait_max_seconds if wait is None else max(0.0, wait)
        if not await self._indexer.wait_done(seq, timeout):
            raise WriteNotApplied(self._tokens.token(seq))
