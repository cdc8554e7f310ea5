"""Preload's etags: what names the context a request yields, and until when it holds.

An etag holds while no write reaches the searched scopes, and until the first
expiry among its hits (core/expiry.py). With recency on, scores move with the
clock, by less than 1e-4 per step of the recency clock (core/retrieval.py's
recency_clock): the etag holds one step from the time it is made, so a repeat
within that step is not_modified wherever the step's boundaries fall.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memoryd.core.consistency import ReadBarrier
from memoryd.core.model import RetrievalMode, SearchQuery
from memoryd.core.rendering import PreloadFormat
from memoryd.core.retrieval import Retrieval

#: Changes whenever rendering changes, so that old etags stop matching.
RENDER_VERSION = 1


@dataclass(frozen=True, slots=True)
class ContextTag:
    """A quoted etag, and the end of its recency step (None: recency off)."""

    etag: str
    recency_ends: datetime | None


def context_tag(
    queries: Sequence[SearchQuery],
    mode: RetrievalMode,
    render: tuple[PreloadFormat, int, str],
    barrier: ReadBarrier,
    retrieval: Retrieval,
    now: datetime,
) -> ContextTag:
    """The tag of the context ``queries`` yield at ``now`` in the scopes' current
    state (their versions move with every write acknowledged in them), rendered
    as ``render`` says: format, token budget and tokenizer."""
    clock = retrieval.recency_clock(queries[0], now)
    key = [
        RENDER_VERSION,
        barrier.journal_id,
        [barrier.scope_version(q.selection.scope) for q in queries],
        [repr(q) for q in queries],
        mode.value,
        render[0].value,
        render[1],
        render[2],
    ]
    digest = hashlib.sha256(json.dumps(key, default=str).encode()).hexdigest()
    return ContextTag(f'"{digest[:32]}"', None if clock is None else now + (clock[1] - clock[0]))
