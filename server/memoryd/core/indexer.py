"""The indexer: applies journaled writes to the index, in journal order.

One task, one write at a time, so writes to one memory or one memory_key
apply exactly in the order they were acknowledged. Texts of the next writes
are embedded together first (one model call for many writes). A write whose
embedding or index call fails is retried with backoff, then marked failed;
a write the domain rejects (a missing memory, a stale version) fails at once
(core/apply_retries.py). Either way the queue moves on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context

from memoryd.core import operations
from memoryd.core.applier import Applier
from memoryd.core.apply_entry import CREATE_CHUNK, EntryApplier, ImportApplier
from memoryd.core.apply_retries import apply_with_retries
from memoryd.core.changes import Change
from memoryd.core.importing import Importer
from memoryd.core.index_flush import FlushSchedule
from memoryd.core.index_redo import redo_lost_writes
from memoryd.core.indexer_settings import IndexerSettings
from memoryd.core.instruments import Telemetry
from memoryd.core.model import OperationKind, WriteState
from memoryd.core.ports import Embedder, Vector
from memoryd.core.tracing import links_to
from memoryd.core.write_log import Entry, WriteLog

logger = logging.getLogger(__name__)


class Indexer:
    """Applies pending journal entries; ``applied_seq`` is the last one in the
    index, ``done_seq`` the last finished one (its outcome committed to the log)."""

    def __init__(
        self,
        journal: WriteLog,
        applier: Applier,
        embedder: Embedder,
        settings: IndexerSettings | None = None,
        telemetry: Telemetry | None = None,
        importer: ImportApplier | None = None,
    ) -> None:
        self._journal, self._applier, self._embedder = journal, applier, embedder
        importer = importer or Importer(applier, journal)
        self._entries = EntryApplier(journal, applier, importer, lambda: embedder.model_id)
        self._settings = settings or IndexerSettings()
        self._tracer = (telemetry or Telemetry()).tracer
        self.done_seq = self.applied_seq = self.last_seq = 0
        self._progress = asyncio.Condition()
        self._wake = asyncio.Event()
        self._gate = asyncio.Lock()
        self._listeners: list[Callable[[Sequence[Change]], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._embedding_ahead: set[asyncio.Future[list[Vector]]] = set()
        #: Entries the writers handed over, by seq, until applied.
        self._handed: dict[int, Entry] = {}
        #: SYNC waiters per write, and the outcomes the indexer left for them.
        self._awaited: dict[int, int] = {}
        self._finished: dict[int, tuple[WriteState, dict[str, Any]]] = {}
        self._flushes = FlushSchedule(applier.index, self._settings, journal)

    async def start(self) -> list[Entry]:
        """Starts applying; returns the entries still pending from a previous run,
        once the applied writes a power loss took from the index are back in it."""
        if self._settings.redo_lost_writes:
            await redo_lost_writes(self._journal, self._applier, self._embedder)
        pending = await self._journal.pending(after=0, limit=1_000_000)
        self.last_seq = await self._journal.last_seq()
        self.done_seq = self.applied_seq = pending[0].seq - 1 if pending else self.last_seq
        if pending:
            logger.info("replaying %d journaled writes not yet applied", len(pending))
        self._task = asyncio.create_task(self._run(), name="memoryd-indexer")
        return pending

    @property
    def backlog(self) -> int:
        """Journaled writes not yet in the index."""
        return self.last_seq - self.applied_seq

    def appended(self, seq: int, entry: Entry | None = None) -> None:
        """Write ``seq`` is journaled; ``entry`` (the log's Appended.entry) spares
        the indexer reading it back from the log."""
        self.last_seq = max(self.last_seq, seq)
        if entry is not None and seq > self.done_seq:
            self._handed[seq] = entry
        self._wake.set()

    async def wait_done(self, seq: int, timeout: float | None) -> bool:
        """Waits until write ``seq`` is finished; False if ``timeout`` passed first."""
        return await self._wait_until(lambda: self.done_seq >= seq, timeout)

    async def wait_applied(self, seq: int, timeout: float | None) -> bool:
        """Waits until write ``seq`` is in the index, which is what a read needs
        (its outcome may still be committing to the log); False on ``timeout``."""
        return await self._wait_until(lambda: self.applied_seq >= seq, timeout)

    async def _wait_until(self, reached: Callable[[], bool], timeout: float | None) -> bool:
        if reached():
            return True
        try:
            async with asyncio.timeout(timeout), self._progress:
                await self._progress.wait_for(reached)
        except TimeoutError:
            return False
        return True

    async def wait_outcome(self, seq: int) -> tuple[WriteState, dict[str, Any]] | None:
        """Waits until write ``seq`` is applied; its state and outcome, or None if it
        was applied before this call (the log has them). Spares a SYNC write a log read."""
        self._awaited[seq] = self._awaited.get(seq, 0) + 1
        try:
            await self.wait_applied(seq, None)
            return self._finished.get(seq)
        finally:
            self._awaited[seq] -= 1
            if not self._awaited[seq]:
                del self._awaited[seq]
                self._finished.pop(seq, None)

    def embed_ahead(self, kind: OperationKind, document: Mapping[str, Any]) -> None:
        """Starts embedding a write's first texts, to run while its journal commit
        does: the embedder's cache hands the vectors to the indexer when the write
        applies, and the writer waits for that, not for this. A task of its own,
        so a writer that goes away cannot cancel a model call the indexer may
        have joined; its failure is the indexer's to retry.

        Only the first chunk: the indexer embeds each further chunk while it
        applies the one before (apply_entry.py), which a batch embedded whole
        up front would leave nothing to overlap with (a SYNC batch of 100 took
        4.8 ms per memory against 3.8 ms for the model alone)."""
        texts = operations.texts_to_embed(kind, document)[:CREATE_CHUNK]
        if texts and self._settings.embed_ahead:
            ahead = asyncio.ensure_future(self._embedder.embed(texts))
            self._embedding_ahead.add(ahead)
            ahead.add_done_callback(self._embedded_ahead)

    def _embedded_ahead(self, ahead: asyncio.Future[list[Vector]]) -> None:
        self._embedding_ahead.discard(ahead)
        if not ahead.cancelled():
            ahead.exception()  # retrieved, not raised: the indexer embeds again

    async def drain(self, timeout: float) -> bool:
        """Waits until every journaled write is finished, at most ``timeout``."""
        return await self.wait_done(self.last_seq, timeout)

    @contextlib.asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        """No write is applied while this is held (after the one being applied
        finishes): a consistent view of the index, for an export or a switch of
        embedders. Writes are still journaled and acknowledged meanwhile."""
        async with self._gate:
            yield

    def on_changes(self, listener: Callable[[Sequence[Change]], None]) -> None:
        """Calls ``listener`` with each applied write's changes, once they are
        durable in the write log (core/feed.py fans them out to watchers)."""
        self._listeners.append(listener)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            for ahead in self._embedding_ahead:  # the writes stay journaled; no one needs these
                ahead.cancel()
            await asyncio.gather(self._task, *self._embedding_ahead, return_exceptions=True)
            await self._flushes.flush()  # so the next start finds nothing to put back

    async def _run(self) -> None:
        # Memories.start() has just purged; purge again every interval, busy or idle.
        next_purge = time.monotonic() + self._settings.purge_interval_seconds
        while True:
            if time.monotonic() >= next_purge:
                next_purge = time.monotonic() + self._settings.purge_interval_seconds
                purged = await self._journal.purge_forgotten()
                logger.debug("purged %d finished journal entries", purged)
            entries = self._take_handed() or await self._journal.pending(
                self.done_seq, self._settings.batch_entries
            )
            if not entries:
                self._wake.clear()
                if self.done_seq >= self.last_seq:
                    wake_at = min(next_purge, self._flushes.due_at())
                    with contextlib.suppress(TimeoutError):  # time to purge or to flush
                        async with asyncio.timeout(wake_at - time.monotonic()):
                            await self._wake.wait()
                    await self._flush_when_due()
                continue
            with self._tracer.start_as_current_span(
                "memoryd.index.embed_batch",
                context=Context(),
                kind=trace.SpanKind.CONSUMER,
                links=[link for e in entries for link in links_to(e.trace_context)],
                attributes={"memoryd.index.writes": len(entries)},
            ):
                embedded_by = self._embedder.model_id
                vectors = await self._prefetch_vectors(entries)
            for entry in entries:
                async with self._gate:
                    if self._embedder.model_id != embedded_by:
                        vectors = {}  # a re-embedding switched embedders meanwhile (paused())
                    with self._apply_span(entry) as span:
                        state, outcome, changes = await self._apply(entry, vectors)
                        span.set_attribute("memoryd.write.state", state.value)
                    await self._applied(entry.seq, state, outcome)
                    kept = operations.kept_once_finished(entry.kind, entry.operation)
                    numbered = await self._journal.finish(entry.seq, state, outcome, changes, kept)
                    self._flushes.finished(numbered)
                    self._handed.pop(entry.seq, None)
                    async with self._progress:
                        self.done_seq = entry.seq
                        self._progress.notify_all()
                for listener in self._listeners:
                    listener(numbered)
            await self._flush_when_due()

    async def _flush_when_due(self) -> None:
        if self._flushes.is_due():
            async with self._gate:  # not while a re-embedding swaps the index (paused())
                await self._flushes.flush()

    async def _applied(self, seq: int, state: WriteState, outcome: dict[str, Any]) -> None:
        """Write ``seq`` is in the index: its reads and its SYNC writer go on now,
        not after its outcome's commit (about 0.7 ms). The indexer calls the log's
        finish next, before it yields, so whatever the writer does once answered
        sees the write finished in the log too (WriteLog.finish); after a crash in
        between, the write replays to the same outcome (the applier's stamps)."""
        if seq in self._awaited:
            self._finished[seq] = (state, outcome)
        async with self._progress:
            self.applied_seq = seq
            self._progress.notify_all()

    def _take_handed(self) -> list[Entry]:
        """The next entries in order, as the writers handed them over; empty at
        the first gap (a write handed over later), where the log is read instead."""
        entries: list[Entry] = []
        seq = self.done_seq + 1
        while seq in self._handed and len(entries) < self._settings.batch_entries:
            entries.append(self._handed[seq])
            seq += 1
        return entries

    def _apply_span(self, entry: Entry) -> AbstractContextManager[trace.Span]:
        """A root span per applied write, linked to the request that journaled it."""
        return self._tracer.start_as_current_span(
            "memoryd.index.apply",
            context=Context(),
            kind=trace.SpanKind.CONSUMER,
            links=links_to(entry.trace_context),
            attributes={"memoryd.write.kind": entry.kind.value, "memoryd.write.seq": entry.seq},
        )

    async def _prefetch_vectors(self, entries: list[Entry]) -> dict[str, Vector]:
        # One model batch: many small writes share it; a large create embeds
        # the rest of its items chunk by chunk while it applies (apply_entry.py).
        texts = list(
            dict.fromkeys(
                t for e in entries for t in operations.texts_to_embed(e.kind, e.operation)
            )
        )
        texts = texts[:CREATE_CHUNK]
        if not texts:
            return {}
        try:
            return dict(zip(texts, await self._embedder.embed(texts), strict=True))
        except Exception:  # each write retries its own embedding below
            logger.warning("batch embedding of %d texts failed; embedding per write", len(texts))
            return {}

    async def _apply(
        self, entry: Entry, vectors: Mapping[str, Vector]
    ) -> tuple[WriteState, dict[str, Any], list[Change]]:
        return await apply_with_retries(
            lambda: self._entries.apply(entry, lambda texts: self._vectors(texts, vectors)),
            entry.seq,
            self._settings.max_attempts,
        )

    async def _vectors(self, texts: list[str], known: Mapping[str, Vector]) -> list[Vector]:
        missing = [t for t in texts if t not in known]
        fresh = (
            dict(zip(missing, await self._embedder.embed(missing), strict=True)) if missing else {}
        )
        return [known[t] if t in known else fresh[t] for t in texts]


__all__ = ["Indexer", "IndexerSettings"]
