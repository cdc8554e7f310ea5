"""Applies journaled writes to the vector index, exactly once.

The indexer calls these one write at a time, in journal order, so no two
writes race and the dedup rules (memory_key uniqueness, near-duplicate
skipping) hold without locks. Every point records the write that last changed
it (core/stamps.py): a write replayed after a crash finds its own mark and is
not applied twice. Deletes store their outcome in the journal
before their effect, so replaying one deletes again rather than failing.
Expiry is judged at the write's journal time (``at``), never the clock, so a
replay settles dedup the same way: memories expired then count for nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import datetime

from memoryd.core import dedup, scoping, validation
from memoryd.core.documents import from_document, to_document
from memoryd.core.errors import InvalidArgument, MemoryNotFound, VersionConflict
from memoryd.core.expiry import is_expired, live_at
from memoryd.core.filters import Filter, all_of
from memoryd.core.instruments import Telemetry
from memoryd.core.model import (
    CreateResult,
    Memory,
    MemoryChange,
    MetadataMode,
    NewMemory,
    Scope,
    Selection,
    WriteOutcome,
    as_memory,
)
from memoryd.core.operations import Delete
from memoryd.core.ports import Point, Record, Search, Vector, VectorIndex
from memoryd.core.stamps import Stamp, stamp_fields, stamp_of
from memoryd.core.validation import Limits

_SCAN_PAGE = 1_000


class Applier:
    """Turns one journaled write into index calls."""

    def __init__(
        self,
        index: VectorIndex,
        *,
        limits: Limits,
        dedup_threshold: float,
        telemetry: Telemetry | None = None,
        journal_id: str = "",
    ) -> None:
        self.index = index
        #: The journal whose writes this applies: its replay stamps are ours (core/stamps.py).
        self.journal_id = journal_id
        self._index = index
        self._limits = limits
        self._dedup_threshold = dedup_threshold
        self._telemetry = telemetry or Telemetry()

    async def create(
        self,
        items: Sequence[NewMemory],
        vectors: Sequence[Vector],
        seq: int,
        at: datetime,
        *,
        first: int = 0,
    ) -> tuple[CreateResult, ...]:
        """Creates, updates by key or id, or skips each item, in order. ``at`` is
        when write ``seq`` was journaled: the create and update time it stores,
        the same on a replay and in the write's acknowledgement. ``first`` is
        the position of ``items[0]`` in the write (a write applies in chunks)."""
        results = []
        for i, (item, vector) in enumerate(zip(items, vectors, strict=True), start=first):
            if i > first:
                # Index calls never suspend: a turn of the loop between items lets
                # the next chunk's embedding start while this one is applied.
                await asyncio.sleep(0)
            result = await self._create_one(item, vector, (seq, i), at)
            if result.outcome in (WriteOutcome.CREATED, WriteOutcome.UPDATED_EXISTING):
                self._telemetry.memories_stored.add(1, {"memoryd.outcome": result.outcome.value})
            results.append(result)
        return tuple(results)

    async def _create_one(
        self, new: NewMemory, vector: Vector, stamp: Stamp, at: datetime
    ) -> CreateResult:
        with self._telemetry.tracer.start_as_current_span(
            "memoryd.dedup.check", attributes={"memoryd.dedup.keyed": bool(new.memory_key)}
        ) as span:
            result = await self._dedup(new, vector, stamp, at)
            span.set_attribute(
                "memoryd.outcome", "none" if result is None else result.outcome.value
            )
        if result is not None:
            return result
        memory = as_memory(new, at, version=1)
        await self.put(memory, vector, stamp)
        return CreateResult(memory, WriteOutcome.CREATED)

    async def _dedup(
        self, new: NewMemory, vector: Vector, stamp: Stamp, at: datetime
    ) -> CreateResult | None:
        """The result of a create the dedup rules settle: an update of the
        memory with its key or id, a skipped near-duplicate, or a replay.
        Memories expired at ``at`` do not count: a create over one (same id)
        stores a fresh memory, version 1."""
        found = await self._existing_for(new, at)
        if found is not None:
            existing, record = found
            if self._stamp_of(record) >= stamp:  # replayed: this write is already in
                outcome = (
                    WriteOutcome.CREATED
                    if self._stamp_of(record) == stamp and existing.version == 1
                    else WriteOutcome.UPDATED_EXISTING
                )
                return CreateResult(existing, outcome)
            if not is_expired(existing, at):
                return await self._overwrite(existing, new, vector, stamp, at)
        if not new.memory_key:
            return await self._near_duplicate(new, vector, at)
        return None

    async def _existing_for(self, new: NewMemory, at: datetime) -> tuple[Memory, Record] | None:
        """The memory a create updates: the live one with its key, else the one
        with its id (expired or not: the caller tells a replay from a fresh create)."""
        if new.memory_key:
            page = await self._index.scroll_newest_first(
                all_of(dedup.same_key(new.scope, new.memory_key), live_at(at)), 1, None
            )
            if page.records:
                record = page.records[0]
                keyed = from_document(record.payload)
                if new.memory_id and keyed.id != new.memory_id:
                    raise _key_taken(keyed)
                return keyed, record
        # A generated id exists only if this very write was applied before a crash.
        memory_id = new.memory_id or new.generated_id
        if memory_id:
            found = await self._index.retrieve([scoping.point_id(new.scope, memory_id)])
            if found:
                return from_document(found[0].payload), found[0]
        return None

    async def _overwrite(
        self, current: Memory, new: NewMemory, vector: Vector, stamp: Stamp, at: datetime
    ) -> CreateResult:
        if new.memory_key and current.memory_key and new.memory_key != current.memory_key:
            raise InvalidArgument(
                "memory.memory_key",
                f"memory {current.id!r} has key {current.memory_key!r}; keys cannot change",
            )
        updated = dataclasses.replace(
            current,
            content=new.content,
            scope=new.scope,
            memory_type=new.memory_type,
            category=new.category,
            metadata=new.metadata,
            memory_key=new.memory_key or current.memory_key,
            update_time=at,
            version=current.version + 1,
            expire_time=new.expiry_at(at),
        )
        await self.put(updated, vector, stamp)
        return CreateResult(updated, WriteOutcome.UPDATED_EXISTING)

    async def _near_duplicate(
        self, new: NewMemory, vector: Vector, at: datetime
    ) -> CreateResult | None:
        threshold = (
            new.dedup_threshold if new.dedup_threshold is not None else self._dedup_threshold
        )
        where = all_of(dedup.same_scope_and_type(new.scope, new.memory_type), live_at(at))
        search = Search(vector, where, 1, threshold)
        (hits,) = await self._index.search([search])
        if not hits:
            return None
        return CreateResult(
            from_document(hits[0].payload),
            WriteOutcome.SKIPPED_DUPLICATE,
            min(1.0, hits[0].similarity),
        )

    async def update(
        self, change: MemoryChange, vector: Vector | None, seq: int, at: datetime
    ) -> Memory:
        """Applies a partial change, updated ``at`` (when write ``seq`` was
        journaled). Raises MemoryNotFound (also for a memory expired at ``at``),
        VersionConflict or InvalidArgument (merged metadata over its limit)."""
        current, record = await self._stored(change.memory_id, change.scope, vectors=True)
        if self._stamp_of(record) >= (seq, 0):
            return current  # replayed (its own expire_time may lie before ``at``)
        if is_expired(current, at):
            raise MemoryNotFound(change.memory_id)
        _check_version(current, change.expected_version)
        metadata = current.metadata
        if change.metadata is not None:
            metadata = (
                dict(change.metadata)
                if change.metadata_mode is MetadataMode.REPLACE
                else {**current.metadata, **change.metadata}
            )
            validation.check_metadata(metadata, "memory.metadata", self._limits)
        updated = dataclasses.replace(
            current,
            content=change.content if change.content is not None else current.content,
            category=change.category if change.category is not None else current.category,
            memory_type=change.memory_type or current.memory_type,
            metadata=metadata,
            update_time=at,
            version=current.version + 1,
            expire_time=change.expiry_at(at, current.expire_time),
        )
        await self.put(updated, vector if vector is not None else record.vector or [], (seq, 0))
        return updated

    async def check_delete(self, delete: Delete, at: datetime) -> Memory:
        """The memory the delete (journaled ``at``) removes; raises MemoryNotFound
        or VersionConflict if the delete cannot happen (an expired memory is the purge's)."""
        current, _ = await self.owned(delete.memory_id, delete.scope, at)
        _check_version(current, delete.expected_version)
        return current

    async def count_forget(self, selection: Selection, now: datetime) -> int:
        """How many memories a forget of ``selection`` at ``now`` deletes."""
        where = all_of(scoping.forget_selection_filter(selection), live_at(now))
        return await self._index.count(where)

    async def matching(self, where: Filter) -> list[Memory]:
        """Every memory matching ``where``, in pages, without vectors."""
        memories: list[Memory] = []
        offset: str | None = None
        while True:
            page = await self._index.scan(where, _SCAN_PAGE, offset)
            memories.extend(from_document(record.payload) for record in page.records)
            if page.next_offset is None:
                return memories
            offset = page.next_offset

    async def forgettable(self, selection: Selection, now: datetime) -> list[Memory]:
        """The memories a forget of ``selection`` at ``now`` deletes (expired
        ones are the purge's)."""
        return await self.matching(all_of(scoping.forget_selection_filter(selection), live_at(now)))

    async def delete_memories(self, memories: Sequence[Memory]) -> None:
        """Deletes the points of these memories; idempotent."""
        await self._index.delete([scoping.point_id(m.scope, m.id) for m in memories])

    async def owned(
        self, memory_id: str, scope: Scope, now: datetime, *, vectors: bool = False
    ) -> tuple[Memory, Record]:
        """The memory ``memory_id`` of the scope's owner, live at ``now``;
        raises MemoryNotFound."""
        memory, record = await self._stored(memory_id, scope, vectors=vectors)
        if is_expired(memory, now):
            raise MemoryNotFound(memory_id)
        return memory, record

    async def _stored(
        self, memory_id: str, scope: Scope, *, vectors: bool = False
    ) -> tuple[Memory, Record]:
        """The stored memory ``memory_id`` of the scope's owner, expired or not."""
        found = await self._index.retrieve(
            [scoping.point_id(scope, memory_id)], with_vectors=vectors
        )
        if not found:
            raise MemoryNotFound(memory_id)
        memory = from_document(found[0].payload)
        if memory.id != memory_id or not scoping.same_owner(scope, memory.scope):
            raise MemoryNotFound(memory_id)
        return memory, found[0]

    def _stamp_of(self, record: Record) -> Stamp:
        return stamp_of(record.payload, self.journal_id)

    async def put(self, memory: Memory, vector: Vector | Sequence[float], stamp: Stamp) -> None:
        """Stores ``memory`` as written by ``stamp`` (core/stamps.py)."""
        point_id = scoping.point_id(memory.scope, memory.id)
        document = to_document(memory) | stamp_fields(self.journal_id, *stamp)
        await self._index.upsert([Point(point_id, vector, document, text=memory.content)])


def _check_version(memory: Memory, expected: int | None) -> None:
    if expected is not None and expected != memory.version:
        raise VersionConflict(memory.id, expected, memory.version)


def _key_taken(keyed: Memory) -> InvalidArgument:
    return InvalidArgument(
        "memory.memory_key",
        f"belongs to memory {keyed.id!r} in this scope; create with that memory_id or without one",
    )
