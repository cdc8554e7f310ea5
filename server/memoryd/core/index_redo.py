"""At start, puts back into the index the applied writes a power loss took from it.

An applied write is in the engine's memory at once, but on its disk only once
the index is flushed (core/index_flush.py). After each flush the journal
records the last change the index then held (its checkpoint); a power loss
can take from the index whatever came after. The journal's change history
holds each of those writes' effects as after-images (core/changes.py), so the
last one of each memory changed since the checkpoint is what the index must
hold: a memory whose stored document differs is stored again (its text
embedded again), one that should be gone is deleted. After kill -9 the index
kept everything and nothing is written.

Only after-images, never the writes themselves: replaying a forget or a dedup
decision over memories written after it could undo them. Not for a Qdrant
server, which keeps applied writes itself and may share its collection with
other servers' journals (IndexerSettings.redo_lost_writes).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from memoryd.core.applier import Applier
from memoryd.core.changes import Change, ChangeType, last_per_point
from memoryd.core.documents import from_document
from memoryd.core.ports import Embedder, Record
from memoryd.core.stamps import stamp_of
from memoryd.core.write_log import WriteLog

logger = logging.getLogger(__name__)

_PAGE = 1_000
_GONE = (ChangeType.DELETED, ChangeType.EXPIRED)


async def redo_lost_writes(journal: WriteLog, applier: Applier, embedder: Embedder) -> int:
    """Makes every memory changed after the index's checkpoint what its last
    change left; returns how many had to be written. Moves the checkpoint on."""
    started = time.perf_counter()
    after = await journal.index_checkpoint()
    last: dict[str, Change] = {}
    while page := await journal.changes_after(after, _PAGE):
        last.update(last_per_point(page))
        after = page[-1].seq
    if not last:
        return 0
    lost = await _not_in_index(applier, last)
    if lost:  # the start waits for this (the model embeds them again): say so first
        logger.warning(
            "the index lost the last changes of %d memories (the machine went down before "
            "it flushed them); putting them back from the journal before serving",
            len(lost),
        )
    if gone := [c.memory for c in lost if c.type in _GONE]:
        await applier.delete_memories(gone)
    await _store_again(applier, embedder, [c for c in lost if c.type not in _GONE])
    await applier.index.flush()
    await journal.set_index_checkpoint(after)
    log = logger.warning if lost else logger.info
    log(
        "%d of %d memories changed since the index was last flushed were missing from it "
        "or out of date; put back from the journal in %.2f s",
        len(lost),
        len(last),
        time.perf_counter() - started,
    )
    return len(lost)


async def _not_in_index(applier: Applier, last: dict[str, Change]) -> list[Change]:
    """The changes whose effect the index does not hold."""
    ids = list(last)
    lost: list[Change] = []
    for start in range(0, len(ids), _PAGE):
        chunk = ids[start : start + _PAGE]
        stored = {record.id: record for record in await applier.index.retrieve(chunk)}
        lost.extend(
            last[point_id]
            for point_id in chunk
            if not _holds(stored.get(point_id), last[point_id], applier.journal_id)
        )
    return lost


def _holds(record: Record | None, change: Change, journal_id: str) -> bool:
    if record is None:
        return change.type in _GONE
    if stamp_of(record.payload, journal_id)[0] > change.write_seq:
        # A later write, pending at the crash, got in; replaying it settles the point.
        return True
    return change.type not in _GONE and from_document(record.payload) == change.memory


async def _store_again(applier: Applier, embedder: Embedder, changes: Sequence[Change]) -> None:
    # A page per call: the embedder splits it into model batches of like lengths.
    for start in range(0, len(changes), _PAGE):
        chunk = changes[start : start + _PAGE]
        vectors = await embedder.embed([c.memory.content for c in chunk])
        for change, vector in zip(chunk, vectors, strict=True):
            await applier.put(change.memory, vector, (change.write_seq, 0))
