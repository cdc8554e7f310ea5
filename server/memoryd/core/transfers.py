"""Export snapshots and import writes: ExportMemories and ImportMemories, in the domain.

An export first waits for the writes it must see (the scope's acknowledged
writes, or every journaled write for an export of everything), then reads its
whole selection, vectors included, into a spool (core/spool.py) while the
indexer applies no write (Indexer.paused): the snapshot is exact, and the
header's change_sequence is the last change it holds. Then it streams the
spool as fast as the reader takes it, while writes apply again.

An import journals each request message as one write (core/writes.py), after
validating and authorizing every record in it, and answers once the last one
is applied. The indexer applies them in order (core/importing.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memoryd.core import scoping, validation
from memoryd.core.consistency import ReadBarrier
from memoryd.core.documents import from_document
from memoryd.core.errors import InvalidArgument, PermissionDenied, WriteNotApplied
from memoryd.core.expiry import live_at
from memoryd.core.filters import all_of, validate_client_filter
from memoryd.core.import_session import ImportSession
from memoryd.core.indexer import Indexer
from memoryd.core.model import Memory, Scope, Selection
from memoryd.core.policy import ADMIN, Principal, readable
from memoryd.core.ports import Embedder, IndexSpec, VectorIndex
from memoryd.core.spool import Spool
from memoryd.core.validation import Limits
from memoryd.core.write_log import WriteLog
from memoryd.core.write_tokens import WriteTokens
from memoryd.core.writes import Writes

DEFAULT_EXPORT_PAGE = 100
MAX_EXPORT_PAGE = 1000
_SCAN_PAGE = 1000


@dataclass(frozen=True, slots=True)
class ExportQuery:
    """What to export: a selection (a scope with no id at all: every owner)
    and how many memories per answer (0: DEFAULT_EXPORT_PAGE)."""

    selection: Selection
    page_size: int = 0


@dataclass(frozen=True, slots=True)
class ExportHeader:
    """What an export holds; its first event."""

    memory_count: int
    embedder_id: str
    dimension: int
    #: The last change sequence the snapshot includes (WatchMemories resumes after it).
    change_sequence: int
    snapshot_time: datetime


@dataclass(frozen=True, slots=True)
class ExportedMemory:
    """A memory of an export with its dense vector."""

    memory: Memory
    vector: Sequence[float]


def is_every_owner(scope: Scope) -> bool:
    """Whether a scope names no id at all: an export or watch of every owner."""
    return not (scope.user_id or scope.agent_id or scope.app_id or scope.thread_id)


class Transfers:
    """Exports snapshots of a selection and journals imports.

    ``read_wait_max_seconds`` bounds a wait for writes when the caller set no
    deadline; ``spool_dir`` holds the exports' temporary files (None: the
    system's temporary directory).
    """

    def __init__(
        self,
        index: VectorIndex,
        journal: WriteLog,
        indexer: Indexer,
        barrier: ReadBarrier,
        writes: Writes,
        embedder: Embedder,
        *,
        limits: Limits,
        read_wait_max_seconds: float,
        spool_dir: Path | None = None,
    ) -> None:
        self._index = index
        self._journal = journal
        self._indexer = indexer
        self._barrier = barrier
        self._writes = writes
        self._embedder = embedder
        self._limits = limits
        self._read_wait_max = read_wait_max_seconds
        self._spool_dir = spool_dir
        self._tokens = WriteTokens(journal.journal_id)

    async def export(
        self,
        query: ExportQuery,
        consistency_token: str = "",
        wait: float | None = None,
        *,
        principal: Principal,
    ) -> AsyncIterator[ExportHeader | list[ExportedMemory]]:
        """The header, then pages of the snapshot. Raises InvalidArgument,
        PermissionDenied (a scope the principal may not read; no scope, for a
        principal that is not an admin) and WriteNotApplied (``wait`` seconds
        passed before the writes the export must see were applied)."""
        selection = self._readable(query.selection, principal)
        if query.page_size < 0:
            raise InvalidArgument("page_size", "must not be negative (0 means 100)")
        page_size = min(query.page_size or DEFAULT_EXPORT_PAGE, MAX_EXPORT_PAGE)
        await self._wait_for(selection.scope, consistency_token, wait)
        spool = Spool(self._spool_dir)
        try:
            yield await self._snapshot(selection, spool)
            # Half the answer limit: payloads are sized as JSON (core/paging.py).
            budget = self._limits.max_response_bytes // 2
            while page := await spool.read_page(page_size, budget):
                yield [ExportedMemory(from_document(p), vector) for p, vector in page]
        finally:
            spool.close()

    def _readable(self, selection: Selection, principal: Principal) -> Selection:
        if not is_every_owner(selection.scope):
            selection = readable(principal, selection)
            validation.check_selection(selection, self._limits)
            return selection
        if not (principal.is_unrestricted or principal.has(ADMIN)):
            raise PermissionDenied(f"export every owner's memories (needs {ADMIN}); set a scope")
        validation.check_category_filter(selection.categories, self._limits)
        if selection.where is not None:
            validate_client_filter(selection.where, "filter")
        return selection

    async def _wait_for(self, scope: Scope, consistency_token: str, wait: float | None) -> None:
        if not is_every_owner(scope):
            await self._barrier.wait_for_scope(scope, consistency_token, wait)
            return
        # Every owner: every write journaled before the call.
        seq = max(self._indexer.last_seq, self._barrier.consistency_seq(consistency_token))
        await self._wait_applied(seq, wait)

    async def _wait_applied(self, seq: int, wait: float | None) -> None:
        timeout = self._read_wait_max if wait is None else max(0.0, wait)
        if not await self._indexer.wait_done(seq, timeout):
            raise WriteNotApplied(self._tokens.token(seq))

    @property
    def spec(self) -> IndexSpec:
        """The embedder in use now (a re-embedding switches it, core/reembed.py)."""
        return IndexSpec(self._embedder.model_id, self._embedder.dimension)

    async def _snapshot(self, selection: Selection, spool: Spool) -> ExportHeader:
        """Reads the selection into the spool while no write is applied."""
        async with self._indexer.paused():
            spec = self.spec  # embedders switch only while paused
            # Exact: the changes of every applied write are recorded when it
            # finishes, and none finishes while paused.
            change_sequence = (await self._journal.change_bounds()).last
            snapshot_time = datetime.now(UTC)
            if is_every_owner(selection.scope):
                where = scoping.selection_filter(selection, live_at(snapshot_time))
            else:
                where = all_of(scoping.read_selection_filter(selection), live_at(snapshot_time))
            offset: str | None = None
            while True:
                page = await self._index.scan(where, _SCAN_PAGE, offset, with_vectors=True)
                await spool.append([(r.payload, r.vector or ()) for r in page.records])
                if page.next_offset is None:
                    break
                offset = page.next_offset
        return ExportHeader(
            memory_count=spool.count,
            embedder_id=spec.embedder_id,
            dimension=spec.dimension,
            change_sequence=change_sequence,
            snapshot_time=snapshot_time,
        )

    def importing(self, principal: Principal) -> ImportSession:
        """A new import by ``principal``: add each request message, then finish."""
        return ImportSession(self._writes, self._limits, principal, self._await_import)

    async def _await_import(self, token: str, wait: float | None) -> None:
        await self._wait_applied(self._tokens.seq_of(token, "write_token"), wait)
