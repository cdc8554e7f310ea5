"""The write path: validate, authorize, journal durably, and (SYNC) wait until applied.

Every mutating RPC comes through Writes. A write is acknowledged once its
journal entry is on disk (ASYNC), or once the indexer has applied it (SYNC);
the indexer applies entries in journal order (core/indexer.py). Each
acknowledged write is noted in the read barrier, so a later read of its scope
waits for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import NamedTuple

from memoryd.core import operations, scoping, validation
from memoryd.core.consistency import ReadBarrier
from memoryd.core.errors import InvalidArgument, Overloaded, ShuttingDown, UnknownWrite
from memoryd.core.indexer import Indexer
from memoryd.core.instruments import Telemetry
from memoryd.core.memory_ids import memory_id_for
from memoryd.core.model import (
    CreateResult,
    ImportedMemory,
    Memory,
    MemoryChange,
    NewMemory,
    Receipt,
    Scope,
    Selection,
    WriteMode,
    WriteOutcome,
    WritePolicy,
    WriteState,
    WriteStatus,
    as_memory,
)
from memoryd.core.policy import UNRESTRICTED, Access, Principal, authorize, may
from memoryd.core.tracing import current_trace_context
from memoryd.core.validation import Limits
from memoryd.core.write_log import Append, Appended, WriteLog
from memoryd.core.write_tokens import WriteTokens, status_of


class _Written(NamedTuple):
    """A journaled write."""

    seq: int
    #: When it was journaled: the time it stores on the memories it changes.
    journaled_at: datetime
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


class Writes:
    """Creates, updates, deletes and forgets memories, durably and in order.

    ``principal`` is the caller (every method takes one): its scope rules
    (core/policy.py) apply before anything is read or written.
    """

    def __init__(
        self,
        journal: WriteLog,
        indexer: Indexer,
        barrier: ReadBarrier,
        tokens: WriteTokens,
        *,
        limits: Limits,
        policy: WritePolicy,
        telemetry: Telemetry,
    ) -> None:
        self._journal = journal
        self._indexer = indexer
        self._barrier = barrier
        self._tokens = tokens
        self._limits = limits
        self._policy = policy
        self._telemetry = telemetry
        self._is_closing = False

    def refuse_writes(self) -> None:
        """From now on, writes fail with ShuttingDown; reads still work."""
        self._is_closing = True

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
        Overloaded, ShuttingDown."""
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
        items = tuple(
            replace(new, generated_id=memory_id_for(new, principal, request_id, i))
            for i, new in enumerate(news)
        )
        written = await self._write(operations.Create(items, is_batch), mode, request_id, principal)
        token = self._tokens.token(written.seq)
        if mode is WriteMode.ASYNC:
            assert isinstance(written.original, operations.Create)
            accepted = (_accepted(item, written.journaled_at) for item in written.original.items)
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
        written = await self._write(operations.Update(change), mode, request_id, principal)
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
        validation.check_expected_version(expected_version)
        delete = operations.Delete(memory_id, scope, expected_version)
        written = await self._write(delete, mode, request_id, principal)
        return self._tokens.token(written.seq)

    async def forget(
        self,
        selection: Selection,
        mode: WriteMode,
        request_id: str = "",
        *,
        principal: Principal = UNRESTRICTED,
    ) -> Receipt[int]:
        """Deletes the selected memories. The count is final in SYNC mode, 0 in
        ASYNC mode. (A dry run is a read: Reads.count_forget.)"""
        selection = replace(selection, scope=authorize(principal, selection.scope, Access.FORGET))
        validation.check_selection(selection, self._limits)
        written = await self._write(operations.Forget(selection), mode, request_id, principal)
        count = written.outcome if isinstance(written.outcome, int) else 0
        return Receipt(self._tokens.token(written.seq), count)

    async def import_memories(
        self, items: Sequence[ImportedMemory], embedder_id: str, principal: Principal
    ) -> str:
        """Journals one message of an import as one write (ASYNC); returns its
        token. The items are validated and authorized already (core/transfers.py)."""
        written = await self._write(
            operations.Import(tuple(items), embedder_id), WriteMode.ASYNC, "", principal
        )
        return self._tokens.token(written.seq)

    async def purge_expired(self, now: datetime) -> int:
        """Journals a purge of the memories expired at ``now`` (core/purge.py);
        returns its sequence number. Raises ShuttingDown or Overloaded."""
        return (await self._write(operations.Expire(now), WriteMode.ASYNC, "", UNRESTRICTED)).seq

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
            access = Access.FORGET if isinstance(operation, operations.Forget) else Access.READ
            scopes = operations.scopes_of(operation)
            if not all(may(principal, scope, access) for scope in scopes):
                raise UnknownWrite(token)
        return status_of(entry, token)

    async def _journaled(self, write: Append, operation: operations.Operation) -> Appended:
        """Journals ``write``; once it is durable, the read barrier notes it and the
        indexer takes it. At once, not after the SYNC write's embed-ahead: the
        indexer joins that model call and applies the write when it returns."""
        appended = await self._journal.append(write)
        if not appended.is_retry:
            self._barrier.note(operation, appended.seq)
            self._indexer.appended(appended.seq, appended.entry)
        return appended

    async def _write(
        self,
        operation: operations.Operation,
        mode: WriteMode,
        request_id: str,
        principal: Principal,
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
        kind = operations.kind_of(operation)
        document = operations.operation_to_json(operation)
        fingerprint = operations.fingerprint(kind, document)
        with self._telemetry.tracer.start_as_current_span(
            "memoryd.journal.append", attributes={"memoryd.write.kind": kind.value}
        ) as span:
            write = Append(kind, document, request_id, fingerprint, current_trace_context())
            if self._telemetry.record_content and isinstance(operation, operations.Create):
                span.set_attribute("memoryd.memory.content", [i.content for i in operation.items])
            if mode is WriteMode.SYNC:
                self._indexer.embed_ahead(kind, document)
            appended = await self._journaled(write, operation)
            span.set_attributes(
                {"memoryd.write.seq": appended.seq, "memoryd.write.retry": appended.is_retry}
            )
        seq, original = appended.seq, operation
        if appended.is_retry:
            if appended.fingerprint != fingerprint:
                raise InvalidArgument("request_id", "was already used for a different request")
            assert appended.first is not None
            original = operations.operation_from_json(appended.first.kind, appended.first.operation)
        if mode is WriteMode.ASYNC:
            return _Written(seq, appended.journaled_at, None, original)
        finished = await self._indexer.wait_outcome(seq)
        if finished is None:  # finished before we waited (a retry): the journal has it
            entry = await self._journal.get(seq)
            assert entry is not None and entry.outcome is not None
            finished = entry.state, entry.outcome
        state, outcome_document = finished
        if state is WriteState.FAILED:
            raise operations.error_from_json(outcome_document)
        assert state is WriteState.APPLIED
        outcome = operations.outcome_from_json(kind, outcome_document)
        return _Written(seq, appended.journaled_at, outcome, original)
