"""The memory service: its write path and read path over one index and one journal.

Writes are validated, journaled durably and acknowledged (ASYNC), or also
applied before answering (SYNC); the indexer applies them in journal order.
Reads first wait for the acknowledged writes of their scope, so a caller
always reads its own writes, and never silently returns stale results. This
class assembles the two paths around their shared collaborators and owns the
indexer's lifecycle; the paths themselves are core/writes.py and core/reads.py.
"""

from __future__ import annotations

from datetime import timedelta

from memoryd.core.applier import Applier
from memoryd.core.consistency import ReadBarrier
from memoryd.core.indexer import Indexer
from memoryd.core.instruments import Telemetry
from memoryd.core.model import RetrievalMode, WritePolicy
from memoryd.core.operations import operation_from_json
from memoryd.core.ports import Embedder, TokenCounter, VectorIndex
from memoryd.core.purge import ExpiryPurge
from memoryd.core.reads import Reads
from memoryd.core.recency import DEFAULT_HALF_LIFE
from memoryd.core.retrieval import Retrieval
from memoryd.core.validation import Limits
from memoryd.core.write_log import WriteLog
from memoryd.core.write_tokens import WriteTokens
from memoryd.core.writes import Writes


class Memories:
    """Stores and finds memories by meaning: ``writes``, ``reads``, and the
    ``retrieval`` and read ``barrier`` Preload shares with them."""

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        journal: WriteLog,
        indexer: Indexer,
        applier: Applier,
        *,
        limits: Limits | None = None,
        policy: WritePolicy | None = None,
        tokens: TokenCounter,
        default_mode: RetrievalMode = RetrievalMode.DENSE,
        default_recency_half_life: timedelta = DEFAULT_HALF_LIFE,
        telemetry: Telemetry | None = None,
        expiry_purge_interval_seconds: float = 60.0,
    ) -> None:
        limits = limits or Limits()
        policy = policy or WritePolicy()
        telemetry = telemetry or Telemetry()
        write_tokens = WriteTokens(journal.journal_id)
        self._journal = journal
        self._indexer = indexer
        self.barrier = ReadBarrier(
            indexer, write_tokens, read_wait_max_seconds=policy.read_wait_max_seconds
        )
        self.retrieval = Retrieval(
            index, embedder, limits, tokens, default_mode, default_recency_half_life
        )
        self.writes = Writes(
            journal,
            indexer,
            self.barrier,
            write_tokens,
            limits=limits,
            policy=policy,
            telemetry=telemetry,
        )
        self.reads = Reads(
            index, applier, self.retrieval, self.barrier, limits=limits, telemetry=telemetry
        )
        self.purge = ExpiryPurge(index, self.writes, indexer, expiry_purge_interval_seconds)

    async def start(self) -> None:
        """Starts the indexer, replaying writes a previous run left pending,
        then the expiry purge (core/purge.py)."""
        for entry in await self._indexer.start():
            self.barrier.note(operation_from_json(entry.kind, entry.operation), entry.seq)
        self.barrier.start(self._indexer.last_seq)
        await self._journal.purge_forgotten()
        self.purge.start()

    def refuse_writes(self) -> None:
        """From now on, writes fail with ShuttingDown; reads still work."""
        self.writes.refuse_writes()

    async def stop(self, drain_seconds: float) -> bool:
        """Stops the purge, refuses writes, lets the indexer apply the backlog for at most
        ``drain_seconds``, then stops it. What remains stays journaled for the
        next start. Returns whether the backlog was drained."""
        await self.purge.stop()
        self.refuse_writes()
        drained = await self._indexer.drain(drain_seconds)
        await self._indexer.stop()
        return drained
