"""Applies journaled writes to the vector index, exactly once.

The indexer calls these one write at a time, in journal order, so no two
writes race and the dedup rules (memory_key uniqueness, near-duplicate
skipping) hold without locks. Every point records the write that last changed
it (``write_seq``, ``write_item``): a write replayed after a crash finds its
own mark and is not applied twice. Deletes store their outcome in the journal
before their effect, so replaying one deletes again rather than failing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from memoryd.core import dedup, scoping, validation
from memoryd.core.documents import from_document, to_document
from memoryd.core.errors import InvalidArgument, MemoryNotFound, VersionConflict
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
from memoryd.core.validation import Limits

Stamp = tuple[int, int]


class Applier:
    """Turns one journaled write into index calls."""

    def __init__(
        self,
        index: VectorIndex,
        *,
        limits: Limits,
        dedup_threshold: float,
        telemetry: Telemetry | None = None,
    ) -> None:
        self._index = index
        self._limits = limits
        self._dedup_threshold = dedup_threshold
        self._telemetry = telemetry or Telemetry()

    async def create(
        self, items: Sequence[NewMemory], vectors: Sequence[Vector], seq: int, at: datetime
    ) -> tuple[CreateResult, ...]:
        """Creates, updates by key or id, or skips each item, in order. ``at`` is
        when write ``seq`` was journaled: the create and update time it stores,
        the same on a replay and in the write's acknowledgement."""
        results = []
        for i, (item, vector) in enumerate(zip(items, vectors, strict=True)):
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
        await self._put(memory, vector, stamp)
        return CreateResult(memory, WriteOutcome.CREATED)

    async def _dedup(
        self, new: NewMemory, vector: Vector, stamp: Stamp, at: datetime
    ) -> CreateResult | None:
        """The result of a create the dedup rules settle: an update of the
        memory with its key or id, a skipped near-duplicate, or a replay."""
        found = await self._existing_for(new)
        if found is not None:
            existing, record = found
            if _stamp_of(record) >= stamp:  # replayed: this write is already in
                outcome = (
                    WriteOutcome.CREATED
                    if _stamp_of(record) == stamp and existing.version == 1
                    else WriteOutcome.UPDATED_EXISTING
                )
                return CreateResult(existing, outcome)
            return await self._overwrite(existing, new, vector, stamp, at)
        if not new.memory_key:
            return await self._near_duplicate(new, vector)
        return None

    async def _existing_for(self, new: NewMemory) -> tuple[Memory, Record] | None:
        """The memory a create updates: the one with its key, else the one with its id."""
        if new.memory_key:
            page = await self._index.scroll_newest_first(
                dedup.same_key(new.scope, new.memory_key), 1, None
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
        )
        await self._put(updated, vector, stamp)
        return CreateResult(updated, WriteOutcome.UPDATED_EXISTING)

    async def _near_duplicate(self, new: NewMemory, vector: Vector) -> CreateResult | None:
        threshold = (
            new.dedup_threshold if new.dedup_threshold is not None else self._dedup_threshold
        )
        search = Search(vector, dedup.same_scope_and_type(new.scope, new.memory_type), 1, threshold)
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
        journaled). Raises MemoryNotFound, VersionConflict or InvalidArgument
        (merged metadata over its limit)."""
        current, record = await self.owned(change.memory_id, change.scope, vectors=True)
        if _stamp_of(record) >= (seq, 0):
            return current
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
        )
        await self._put(updated, vector if vector is not None else record.vector or [], (seq, 0))
        return updated

    async def check_delete(self, delete: Delete) -> None:
        """Raises MemoryNotFound or VersionConflict if the delete cannot happen."""
        current, _ = await self.owned(delete.memory_id, delete.scope)
        _check_version(current, delete.expected_version)

    async def delete(self, delete: Delete) -> None:
        """Deletes the point; idempotent."""
        await self._index.delete([scoping.point_id(delete.scope, delete.memory_id)])

    async def count_forget(self, selection: Selection) -> int:
        return await self._index.count(scoping.forget_selection_filter(selection))

    async def forget(self, selection: Selection) -> None:
        """Deletes the selection; idempotent."""
        await self._index.delete_where(scoping.forget_selection_filter(selection))

    async def owned(
        self, memory_id: str, scope: Scope, *, vectors: bool = False
    ) -> tuple[Memory, Record]:
        """The memory ``memory_id`` of the scope's owner; raises MemoryNotFound."""
        found = await self._index.retrieve(
            [scoping.point_id(scope, memory_id)], with_vectors=vectors
        )
        if not found:
            raise MemoryNotFound(memory_id)
        memory = from_document(found[0].payload)
        if memory.id != memory_id or not scoping.same_owner(scope, memory.scope):
            raise MemoryNotFound(memory_id)
        return memory, found[0]

    async def _put(self, memory: Memory, vector: Vector | Sequence[float], stamp: Stamp) -> None:
        point_id = scoping.point_id(memory.scope, memory.id)
        document = to_document(memory) | {"write_seq": stamp[0], "write_item": stamp[1]}
        await self._index.upsert([Point(point_id, vector, document, text=memory.content)])


def _stamp_of(record: Record) -> Stamp:
    return int(record.payload.get("write_seq", 0)), int(record.payload.get("write_item", 0))


def _check_version(memory: Memory, expected: int | None) -> None:
    if expected is not None and expected != memory.version:
        raise VersionConflict(memory.id, expected, memory.version)


def _key_taken(keyed: Memory) -> InvalidArgument:
    return InvalidArgument(
        "memory.memory_key",
        f"belongs to memory {keyed.id!r} in this scope; create with that memory_id or without one",
    )
