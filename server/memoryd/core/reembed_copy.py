"""The two steps that fill a new index: copying a page of the old one, and
applying changes made since; both embed with the new embedder and are safe to
repeat (same ids, the old index's current payloads)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memoryd.core.changes import Change, ChangeType, last_per_point
from memoryd.core.ports import Embedder, Point, Record, VectorIndex


@dataclass(frozen=True, slots=True)
class Copied:
    """What one step wrote: ``upserted`` points, ``created`` of them new memories."""

    upserted: int
    created: int = 0


async def copy_page(
    old: VectorIndex, new: VectorIndex, embedder: Embedder, offset: str | None, limit: int
) -> tuple[Copied, str | None]:
    """Copies the page of the old index at ``offset``, embedded again; returns
    what it wrote and the next page's offset (None: the scan is complete)."""
    page = await old.scan(None, limit, offset)
    await new.upsert(await _embedded(page.records, embedder))
    return Copied(len(page.records)), page.next_offset


async def apply_changes(
    old: VectorIndex, new: VectorIndex, embedder: Embedder, changes: Sequence[Change]
) -> Copied:
    """Brings the memories that ``changes`` touched up to date in the new index:
    each is copied as the old index holds it now, or deleted if it holds none."""
    last = last_per_point(changes)
    touched = [i for i, c in last.items() if c.type in (ChangeType.CREATED, ChangeType.UPDATED)]
    records = await old.retrieve(touched)
    await new.upsert(await _embedded(records, embedder))
    present = {r.id for r in records}
    await new.delete([i for i in last if i not in present])
    created = sum(1 for c in changes if c.type is ChangeType.CREATED)
    return Copied(len(records), created)


async def _embedded(records: Sequence[Record], embedder: Embedder) -> list[Point]:
    if not records:
        return []
    texts = [str(r.payload.get("content", "")) for r in records]
    vectors = await embedder.embed(texts)
    return [
        Point(r.id, vector, r.payload, text)
        for r, vector, text in zip(records, vectors, texts, strict=True)
    ]
