"""One journal entry, applied: its operation's index calls, its outcome and its changes.

The indexer (core/indexer.py) owns the order and the retries; this module
owns what each kind of write does. Writes whose effect depends on what the
index holds when they run (a delete, a forget, an expiry purge) record their
outcome in the journal before their effect, so a replay after a crash
deletes exactly the same memories and reports the same changes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol, assert_never

from memoryd.core import operations
from memoryd.core.applier import Applier
from memoryd.core.changes import Change, ChangeType
from memoryd.core.documents import from_document, to_document
from memoryd.core.expiry import expired_at
from memoryd.core.model import (
    CreateResult,
    ImportCounts,
    ImportedMemory,
    Memory,
    NewMemory,
    WriteOutcome,
)
from memoryd.core.operations import Create, Delete, Expire, Forget, Import, Update
from memoryd.core.ports import Vector
from memoryd.core.write_log import Entry, WriteLog

#: Embeds texts, reusing the vectors the indexer embedded for a batch of entries.
Embed = Callable[[list[str]], Awaitable[list[Vector]]]
#: Items of a create applied while the next ones are embedded (the embedder's batch).
CREATE_CHUNK = 32
#: The most memories one purge entry deletes; the next purge takes the rest.
MAX_EXPIRED_PER_PURGE = 1_000


class ImportApplier(Protocol):
    """Stores imported memories as they are (core/importing.py)."""

    async def apply(
        self, items: Sequence[ImportedMemory], embed: Embed, seq: int, at: datetime
    ) -> tuple[ImportCounts, list[Change]]: ...


_CHANGE_OF_OUTCOME = {
    WriteOutcome.CREATED: ChangeType.CREATED,
    WriteOutcome.UPDATED_EXISTING: ChangeType.UPDATED,
}


class EntryApplier:
    """Applies one entry: returns its outcome document and its changes."""

    def __init__(
        self,
        journal: WriteLog,
        applier: Applier,
        importer: ImportApplier,
        embedder_id: Callable[[], str],
    ) -> None:
        self._journal = journal
        self._applier = applier
        self._importer = importer
        self._embedder_id = embedder_id

    async def apply(self, entry: Entry, embed: Embed) -> tuple[dict[str, Any], list[Change]]:
        at, seq = entry.journaled_at, entry.seq
        operation = operations.operation_from_json(entry.kind, entry.operation)
        match operation:
            case Create(items):
                results = await self._create_in_chunks(items, embed, seq, at)
                return operations.outcome_to_json(results), _created(results, at, seq)
            case Update(change):
                vector = None
                if change.content is not None:
                    (vector,) = await embed([change.content])
                updated = await self._applier.update(change, vector, seq, at)
                changed = [Change(ChangeType.UPDATED, updated, at, seq)]
                return operations.outcome_to_json(updated), changed
            case Delete():
                document = entry.outcome
                if document is None:
                    deleted = await self._applier.check_delete(operation, at)
                    document = {"deleted": to_document(deleted)}
                    await self._journal.record_outcome(seq, document)
                memory = from_document(document["deleted"])
                await self._applier.delete_memories([memory])
                return document, [Change(ChangeType.DELETED, memory, at, seq)]
            case Forget(selection):
                document = entry.outcome
                if document is None:
                    memories = await self._applier.forgettable(selection, at)
                    document = _deleted_document(memories)
                    await self._journal.record_outcome(seq, document)
                return await self._delete_recorded(document, ChangeType.DELETED, at, seq)
            case Import(items, embedder_id):
                if embedder_id != self._embedder_id():  # vectors of a replaced model
                    items = tuple(replace(item, vector=None) for item in items)
                counts, changes = await self._importer.apply(items, embed, seq, at)
                return operations.outcome_to_json(counts), changes
            case Expire(cutoff):
                document = entry.outcome
                if document is None:
                    expired = await self._applier.matching(expired_at(cutoff))
                    document = _deleted_document(expired[:MAX_EXPIRED_PER_PURGE])
                    await self._journal.record_outcome(seq, document)
                return await self._delete_recorded(document, ChangeType.EXPIRED, at, seq)
            case _:
                assert_never(operation)

    async def _create_in_chunks(
        self, items: Sequence[NewMemory], embed: Embed, seq: int, at: datetime
    ) -> tuple[CreateResult, ...]:
        """Applies a create a chunk at a time, embedding the next chunk meanwhile:
        the model (on its own thread, outside the GIL) and the index calls (on
        this one) overlap, so a large batch costs about the larger of the two,
        not their sum."""
        chunks = [items[i : i + CREATE_CHUNK] for i in range(0, len(items), CREATE_CHUNK)]
        results: list[CreateResult] = []
        upcoming = asyncio.ensure_future(embed([item.content for item in chunks[0]]))
        try:
            for k, chunk in enumerate(chunks):
                vectors = await upcoming
                if k + 1 < len(chunks):
                    upcoming = asyncio.ensure_future(embed([i.content for i in chunks[k + 1]]))
                first = k * CREATE_CHUNK
                results.extend(await self._applier.create(chunk, vectors, seq, at, first=first))
        finally:
            if not upcoming.done():  # a chunk failed: its retry embeds again
                upcoming.cancel()
            elif not upcoming.cancelled():
                upcoming.exception()  # seen here, whatever it was; the retry embeds again
        return tuple(results)

    async def _delete_recorded(
        self, document: Mapping[str, Any], kind: ChangeType, at: datetime, seq: int
    ) -> tuple[dict[str, Any], list[Change]]:
        memories = [from_document(d) for d in document["deleted"]]
        await self._applier.delete_memories(memories)
        return dict(document), [Change(kind, memory, at, seq) for memory in memories]


def _deleted_document(memories: Sequence[Memory]) -> dict[str, Any]:
    """The outcome of a forget or purge: the count GetWriteStatus reports, and
    the memories, so a replay deletes and reports exactly these."""
    return {"deleted_count": len(memories), "deleted": [to_document(m) for m in memories]}


def _created(results: Sequence[CreateResult], at: datetime, seq: int) -> list[Change]:
    return [
        Change(_CHANGE_OF_OUTCOME[r.outcome], r.memory, at, seq)
        for r in results
        if r.outcome in _CHANGE_OF_OUTCOME
    ]
