"""One ImportMemories call, in the domain: each request message is checked
whole (every record validated and authorized), then journaled as one write
(core/writes.py); the indexer applies them in order (core/importing.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from memoryd.core import scoping, validation
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import ImportCounts, ImportedMemory
from memoryd.core.policy import Access, Principal, authorize
from memoryd.core.validation import Limits
from memoryd.core.writes import Writes

#: Records per ImportMemories request message (the contract's limit).
MAX_IMPORT_RECORDS = 500
#: Messages of one import journaled but not yet applied, at most, before the
#: next is read: the stream goes at the rate the index takes it (gRPC's flow
#: control slows the sender), and the wait at the end stays short. Unbounded,
#: 1M records streamed about 40% faster than they were indexed, and the call
#: ended in WRITE_NOT_YET_APPLIED after the server's read wait maximum (30 s).
IMPORT_AHEAD_MESSAGES = 8


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What a whole import did; ``write_token`` is its last write's ("" for none)."""

    received: int
    counts: ImportCounts
    write_token: str


class ImportSession:
    """One ImportMemories call: each message is checked whole, then journaled,
    IMPORT_AHEAD_MESSAGES at most ahead of the index.
    ``await_write(token, wait)`` returns once the write is applied."""

    def __init__(
        self,
        writes: Writes,
        limits: Limits,
        principal: Principal,
        await_write: Callable[[str, float | None], Awaitable[None]],
    ) -> None:
        self._writes = writes
        self._limits = limits
        self._principal = principal
        self._await_write = await_write
        self._received = 0
        self._tokens: list[str] = []

    async def add(
        self, items: Sequence[ImportedMemory], embedder_id: str, wait: float | None = None
    ) -> None:
        """Validates and authorizes every record of one message, then journals
        them as one write; the vectors it keeps are ``embedder_id``'s. Returns
        once at most IMPORT_AHEAD_MESSAGES of this import's writes are not yet
        applied (waiting at most ``wait`` seconds, None: the read wait maximum).
        Raises InvalidArgument naming the record's field
        (``memories[3].memory.content``), PermissionDenied, Overloaded,
        ShuttingDown, WriteNotApplied."""
        if not 1 <= len(items) <= MAX_IMPORT_RECORDS:
            raise InvalidArgument(
                "memories", f"needs 1 to {MAX_IMPORT_RECORDS} records per message, got {len(items)}"
            )
        checked = [self._check(i, item) for i, item in enumerate(items)]
        _check_unique(checked)
        self._tokens.append(
            await self._writes.import_memories(checked, embedder_id, self._principal)
        )
        self._received += len(items)
        if len(self._tokens) > IMPORT_AHEAD_MESSAGES:
            await self._await_write(self._tokens[-1 - IMPORT_AHEAD_MESSAGES], wait)

    def _check(self, i: int, item: ImportedMemory) -> ImportedMemory:
        field, limits = f"memories[{i}].memory", self._limits
        memory = item.memory
        scope = authorize(self._principal, memory.scope, Access.WRITE)
        scoping.check_id(memory.id, f"{field}.id", required=True)
        validation.check_content(memory.content, f"{field}.content", limits)
        scoping.check_scope(scope, f"{field}.scope")
        validation.check_category(memory.category, f"{field}.category", limits)
        validation.check_metadata(memory.metadata, f"{field}.metadata", limits)
        scoping.check_id(memory.memory_key, f"{field}.memory_key", required=False)
        if memory.version < 1:
            raise InvalidArgument(f"{field}.version", "must be at least 1 (0 means 1)")
        if memory.update_time < memory.create_time:
            raise InvalidArgument(f"{field}.update_time", "must not be before create_time")
        if item.vector is not None:
            validation.check_vector(item.vector, f"memories[{i}].vector")
        return replace(item, memory=replace(memory, scope=scope))

    async def finish(self, wait: float | None) -> ImportResult:
        """Waits until every journaled message is applied (at most ``wait``
        seconds; None: the read wait maximum), then sums what they did. Raises
        WriteNotApplied, or the error a message failed with."""
        if not self._tokens:
            return ImportResult(self._received, ImportCounts(), "")
        last = self._tokens[-1]
        await self._await_write(last, wait)
        created = updated = unchanged = embedded = 0
        for token in self._tokens:
            status = await self._writes.write_status(token)
            if status.error is not None:
                raise status.error
            assert isinstance(status.outcome, ImportCounts)
            created += status.outcome.created
            updated += status.outcome.updated
            unchanged += status.outcome.unchanged
            embedded += status.outcome.embedded
        counts = ImportCounts(created, updated, unchanged, embedded)
        return ImportResult(self._received, counts, last)


def _check_unique(items: Sequence[ImportedMemory]) -> None:
    """Refuses two records of one memory, or of one memory_key, in a message:
    which one would win could not be told from the message."""
    ids: dict[str, int] = {}
    keys: dict[tuple[str, str, str, str], int] = {}
    for i, item in enumerate(items):
        memory = item.memory
        point = scoping.point_id(memory.scope, memory.id)
        if point in ids:
            raise InvalidArgument(
                f"memories[{i}].memory.id", f"is the same memory as memories[{ids[point]}]"
            )
        ids[point] = i
        if memory.memory_key:
            key = (memory.scope.user_id, memory.scope.agent_id, memory.scope.app_id)
            owner_key = (*key, memory.memory_key)
            if owner_key in keys:
                raise InvalidArgument(
                    f"memories[{i}].memory.memory_key",
                    f"is also the key of memories[{keys[owner_key]}] in the same scope",
                )
            keys[owner_key] = i
