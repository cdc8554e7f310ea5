"""Maps core.filters trees one to one onto Qdrant Edge filters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, assert_never

import numpy as np
import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.filters import AllOf, AnyOf, Condition, Filter, Not
from memoryd.store.filter_translation import (
    Clause,
    conjunction,
    make,
    to_clause,
    translate_excluding,
)


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
    if excluding_ids or compares_with_bool(tree):
        result: qe.Filter = translate_excluding(tree, excluding_ids, _EDGE)
        return result
    return _remembered_filter(tree)


@lru_cache(maxsize=4096)
def _remembered_filter(tree: Filter) -> qe.Filter:
    """Each Edge condition costs 1-3 µs to make, so filters are remembered:
    the items of a batch share their dedup filter whole, and reads share their
    scope's part (the not-expired part holds the clock's time), so the parts
    of an all-of are remembered one by one too."""
    parts = tree.filters if isinstance(tree, AllOf) else (tree,)
    edge_filter: qe.Filter = make(conjunction([_remembered(part) for part in parts], _EDGE), _EDGE)
    return edge_filter


@lru_cache(maxsize=4096)
def _remembered(tree: Filter) -> Clause:
    return to_clause(tree, _EDGE)


def compares_with_bool(tree: Filter) -> bool:
    """Whether a condition compares with a bool, which equals (and hashes as)
    the number 1 or 0 but translates differently: such trees are not remembered."""
    match tree:
        case Condition(values=values):
            return any(isinstance(value, bool) for value in values)
        case AllOf(filters) | AnyOf(filters):
            return any(compares_with_bool(part) for part in filters)
        case Not(child):
            return compares_with_bool(child)
        case _:
            assert_never(tree)
