"""Replay stamps: which journaled write last changed a point.

Every point carries the journal, seq and item of the write that last wrote it
(``write_journal``, ``write_seq``, ``write_item``). When the indexer replays a
write after a crash, a point stamped at or after that write by the same
journal shows the write is already in, so it is not applied twice.

Seqs of different journals cannot be compared: several replicas may share one
Qdrant collection (docs/deploy.md), each with its own journal. A point last
written through another journal is therefore never taken for a replay: the
write is applied. Points written before stamps named their journal count as
this journal's (a single server's own data).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Stamp = tuple[int, int]
NO_STAMP: Stamp = (0, 0)


def stamp_fields(journal_id: str, seq: int, item: int) -> dict[str, Any]:
    """The payload fields that stamp a point as written by item ``item`` of write ``seq``."""
    return {"write_journal": journal_id, "write_seq": seq, "write_item": item}


def stamp_of(payload: Mapping[str, Any], journal_id: str) -> Stamp:
    """The point's stamp as this journal sees it: NO_STAMP if another journal wrote it."""
    if payload.get("write_journal", journal_id) != journal_id:
        return NO_STAMP
    return int(payload.get("write_seq", 0)), int(payload.get("write_item", 0))
