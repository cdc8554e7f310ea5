"""Maps core.filters trees one to one onto Qdrant Edge filters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.filters import Filter
from memoryd.store.filter_translation import translate_excluding


class EdgeDialect:
    """qdrant-edge-py's filter constructors."""

    def clause(
        self,
        *,
        must: list[Any] | None = None,
        should: list[Any] | None = None,
        must_not: list[Any] | None = None,
    ) -> qe.Filter:
        return qe.Filter(must=must, should=should, must_not=must_not)

    def match_value(self, key: str, value: str | bool) -> Any:
        if isinstance(value, bool):
            # qdrant-edge-py 0.9 converts a Python bool to the integer 1 or 0, which
            # never matches a stored boolean; a numpy bool converts as a boolean.
            return qe.FieldCondition(key, match=qe.MatchValue(np.bool_(value)))  # type: ignore[arg-type]
        return qe.FieldCondition(key, match=qe.MatchValue(value))

    def match_any(self, key: str, values: list[str]) -> Any:
        return qe.FieldCondition(key, match=qe.MatchAny(values))

    def number_range(self, key: str, bounds: dict[str, float]) -> Any:
        return qe.FieldCondition(key, range=qe.RangeFloat(**bounds))

    def time_range(self, key: str, bounds: dict[str, datetime]) -> Any:
        # The same text iso_time stores, so stored and filtered times agree.
        times = {name: iso_time(value) for name, value in bounds.items()}
        return qe.FieldCondition(key, range=qe.RangeDateTime(**times))

    def is_empty(self, key: str) -> Any:
        return qe.IsEmptyCondition(key)

    def is_null(self, key: str) -> Any:
        return qe.IsNullCondition(key)

    def has_id(self, ids: list[str]) -> Any:
        return qe.HasIdCondition(set(ids))


_EDGE = EdgeDialect()


def to_edge_filter(tree: Filter, *, excluding_ids: Sequence[str] = ()) -> qe.Filter:
    """The Qdrant Edge filter matching exactly the points ``tree`` matches, but
    for those with ``excluding_ids``."""
    result: qe.Filter = translate_excluding(tree, excluding_ids, _EDGE)
    return result
