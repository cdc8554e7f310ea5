"""The memory service: create, read, search, update and forget memories of a scope."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from memoryd.core import dedup, paging, scoping, validation
from memoryd.core.documents import from_document, to_document
from memoryd.core.errors import InvalidArgument, MemoryNotFound, VersionConflict
from memoryd.core.filters import Filter, all_of, one_of
from memoryd.core.model import (
    CreateResult,
    ListQuery,
    Memory,
    MemoryChange,
    MemoryPage,
    MetadataMode,
    NewMemory,
    Scope,
    ScoredMemory,
    SearchQuery,
    Selection,
    WriteOutcome,
)
from memoryd.core.validation import Limits
from memoryd.embed.base import Embedder, Vector
from memoryd.store.base import Point, Record, ScrollCursor, Search, VectorIndex

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Memories:
    """Stores and finds memories by meaning, enforcing scope and dedup rules.

    Writes to one owner (a user, or an agent/app pair) are serialized, which
    is what makes memory_key unique and near-duplicate skipping reliable
    under concurrency; writes to different owners run in parallel.
    """

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        *,
        limits: Limits | None = None,
        dedup_threshold: float = 0.95,
        clock: Clock = utc_now,
    ) -> None:
        self._index = index
        self._embedder = embedder
        self._limits = limits or Limits()
        self._dedup_threshold = dedup_threshold
        self._clock = clock
        self._locks = dedup.OwnerLocks()

    async def create(self, new: NewMemory) -> CreateResult:
        """Stores a memory, or updates the one with its key, or skips a duplicate.

        Raises InvalidArgument for bad input.
        """
        validation.check_new_memory(new, "memory", self._limits)
        (vector,) = await self._embedder.embed([new.content])
        return await self._create_embedded(new, vector)

    async def batch_create(self, news: Sequence[NewMemory]) -> list[CreateResult]:
        """Creates memories in order, with one embedding call for all of them.

        Every item is checked before any is written.
        """
        if not 1 <= len(news) <= self._limits.max_batch_size:
            raise InvalidArgument(
                "requests", f"needs 1 to {self._limits.max_batch_size} items, got {len(news)}"
            )
        for i, new in enumerate(news):
            try:
                validation.check_new_memory(new, "memory", self._limits)
            except InvalidArgument as exc:
                raise InvalidArgument(f"requests[{i}].{exc.field}", exc.reason) from exc
        vectors = await self._embedder.embed([new.content for new in news])
        return [await self._create_embedded(n, v) for n, v in zip(news, vectors, strict=True)]

    async def get(self, memory_id: str, scope: Scope) -> Memory:
        """Raises MemoryNotFound unless the scope's owner has this memory."""
        scoping.check_id(memory_id, "id", required=True)
        scoping.check_scope(scope, "scope")
        return (await self._owned_record(memory_id, scope))[0]

    async def search(self, query: SearchQuery) -> list[ScoredMemory]:
        """The memories of the scope closest to the query text, best first."""
        validation.check_content(query.text, "query", self._limits)
        validation.check_search_limit(query.limit)
        validation.check_selection(query.selection, self._limits)
        if query.score_threshold is not None and not 0.0 <= query.score_threshold <= 1.0:
            raise InvalidArgument("score_threshold", "must be between 0 and 1")
        (vector,) = await self._embedder.embed([query.text])
        search = Search(
            vector=vector,
            where=_selection_filter(query.selection, scoping.read_filter(query.selection.scope)),
            limit=query.limit,
            min_similarity=query.score_threshold or None,
        )
        (hits,) = await self._index.search([search])
        return [
            ScoredMemory(from_document(hit.payload), min(1.0, max(0.0, hit.similarity)))
            for hit in hits
        ]

    async def list(self, query: ListQuery) -> MemoryPage:
        """One page of the scope's memories, newest first."""
        validation.check_selection(query.selection, self._limits)
        if query.page_size < 0:
            raise InvalidArgument("page_size", "must not be negative (0 means 50)")
        cursor = None
        if query.page_token:
            cursor = ScrollCursor(*paging.decode_token(query.page_token, query.selection))
        where = _selection_filter(query.selection, scoping.read_filter(query.selection.scope))
        page = await self._index.scroll_newest_first(where, query.page_size + 1, cursor)
        records, order_values = page.records[: query.page_size], page.order_values
        token = ""
        if len(page.records) > query.page_size and records:
            last = order_values[len(records) - 1]
            seen = [r.id for r, v in zip(records, order_values, strict=False) if v == last]
            if cursor is not None and cursor.order_value == last:
                seen = [*cursor.seen_ids, *seen]
            token = paging.encode_token(query.selection, last, seen)
        return MemoryPage(tuple(from_document(r.payload) for r in records), token)

    async def update(self, change: MemoryChange) -> Memory:
        """Applies a partial change; changed content is embedded again.

        Raises MemoryNotFound, VersionConflict or InvalidArgument.
        """
        self._check_change(change)
        vector = None
        if change.content is not None:
            (vector,) = await self._embedder.embed([change.content])
        async with self._locks.hold(scoping.owner_key(change.scope)):
            current, record = await self._owned_record(change.memory_id, change.scope, vectors=True)
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
                update_time=self._clock(),
                version=current.version + 1,
            )
            await self._put(updated, vector if vector is not None else record.vector or [])
            return updated

    async def delete(self, memory_id: str, scope: Scope, expected_version: int | None) -> None:
        """Raises MemoryNotFound or VersionConflict."""
        scoping.check_id(memory_id, "id", required=True)
        scoping.check_scope(scope, "scope")
        async with self._locks.hold(scoping.owner_key(scope)):
            current, record = await self._owned_record(memory_id, scope)
            _check_version(current, expected_version)
            await self._index.delete([record.id])

    async def forget(self, selection: Selection, *, dry_run: bool) -> int:
        """Deletes (or with dry_run, counts) the selected memories; returns the count."""
        validation.check_selection(selection, self._limits)
        where = _selection_filter(selection, scoping.forget_filter(selection.scope))
        async with self._locks.hold(scoping.owner_key(selection.scope)):
            count = await self._index.count(where)
            if count and not dry_run:
                await self._index.delete_where(where)
        return count

    async def _create_embedded(self, new: NewMemory, vector: Vector) -> CreateResult:
        async with self._locks.hold(scoping.owner_key(new.scope)):
            existing = await self._existing_for(new)
            if existing is not None:
                return await self._overwrite(existing, new, vector)
            if not new.memory_key:
                duplicate = await self._near_duplicate(new, vector)
                if duplicate is not None:
                    return duplicate
            now = self._clock()
            memory = Memory(
                id=new.memory_id or str(uuid.uuid4()),
                content=new.content,
                scope=new.scope,
                memory_type=new.memory_type,
                category=new.category,
                metadata=new.metadata,
                memory_key=new.memory_key,
                create_time=now,
                update_time=now,
                version=1,
            )
            await self._put(memory, vector)
            return CreateResult(memory, WriteOutcome.CREATED)

    async def _existing_for(self, new: NewMemory) -> Memory | None:
        """The memory a create updates: the one with its key, else the one with its id."""
        if new.memory_key:
            page = await self._index.scroll_newest_first(
                dedup.same_key(new.scope, new.memory_key), 1, None
            )
            if page.records:
                keyed = from_document(page.records[0].payload)
                if new.memory_id and keyed.id != new.memory_id:
                    raise InvalidArgument(
                        "memory.memory_key",
                        f"belongs to memory {keyed.id!r} in this scope; create with that "
                        "memory_id or without one",
                    )
                return keyed
        if new.memory_id:
            found = await self._index.retrieve([scoping.point_id(new.scope, new.memory_id)])
            if found:
                return from_document(found[0].payload)
        return None

    async def _overwrite(self, current: Memory, new: NewMemory, vector: Vector) -> CreateResult:
        updated = dataclasses.replace(
            current,
            content=new.content,
            scope=new.scope,
            memory_type=new.memory_type,
            category=new.category,
            metadata=new.metadata,
            memory_key=new.memory_key or current.memory_key,
            update_time=self._clock(),
            version=current.version + 1,
        )
        if updated.memory_key != current.memory_key and current.memory_key:
            raise InvalidArgument(
                "memory.memory_key",
                f"memory {current.id!r} has key {current.memory_key!r}; keys cannot change",
            )
        await self._put(updated, vector)
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

    async def _owned_record(
        self, memory_id: str, scope: Scope, *, vectors: bool = False
    ) -> tuple[Memory, Record]:
        found = await self._index.retrieve(
            [scoping.point_id(scope, memory_id)], with_vectors=vectors
        )
        if not found:
            raise MemoryNotFound(memory_id)
        memory = from_document(found[0].payload)
        if memory.id != memory_id or not scoping.same_owner(scope, memory.scope):
            raise MemoryNotFound(memory_id)
        return memory, found[0]

    async def _put(self, memory: Memory, vector: Vector | Sequence[float]) -> None:
        point_id = scoping.point_id(memory.scope, memory.id)
        await self._index.upsert([Point(point_id, vector, to_document(memory))])

    def _check_change(self, change: MemoryChange) -> None:
        scoping.check_id(change.memory_id, "memory.id", required=True)
        scoping.check_scope(change.scope, "memory.scope")
        if change.content is not None:
            validation.check_content(change.content, "memory.content", self._limits)
        if change.category is not None:
            validation.check_category(change.category, "memory.category", self._limits)
        if change.metadata is not None:
            validation.check_metadata(change.metadata, "memory.metadata", self._limits)


def _check_version(memory: Memory, expected: int | None) -> None:
    if expected is not None and expected != memory.version:
        raise VersionConflict(memory.id, expected, memory.version)


def _selection_filter(selection: Selection, scope_filter: Filter) -> Filter:
    return all_of(
        scope_filter,
        one_of("memory_type", tuple(t.value for t in selection.memory_types))
        if selection.memory_types
        else None,
        one_of("category", selection.categories) if selection.categories else None,
        selection.where,
    )


__all__ = ["Memories"]
