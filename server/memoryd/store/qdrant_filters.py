"""Maps core.filters trees one to one onto Qdrant Edge filters."""

from __future__ import annotations

from datetime import datetime
from typing import Any, assert_never

import numpy as np
import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.filters import (
    RANGE_OPERATORS,
    AllOf,
    AnyOf,
    Condition,
    Filter,
    Not,
    Operator,
    Value,
)


def to_edge_filter(tree: Filter) -> qe.Filter:
    """The Qdrant Edge filter matching exactly the points ``tree`` matches."""
    match tree:
        case Condition():
            return _condition(tree)
        case AllOf(filters):
            return qe.Filter(must=[to_edge_filter(f) for f in filters])
        case AnyOf(filters):
            return qe.Filter(should=[to_edge_filter(f) for f in filters])
        case Not(child):
            return qe.Filter(must_not=[to_edge_filter(child)])
        case _:
            assert_never(tree)


def _condition(condition: Condition) -> qe.Filter:
    key, operator, values = condition.field, condition.operator, condition.values
    match operator:
        case Operator.EQ:
            return qe.Filter(must=[_equals(key, values[0])])
        case Operator.NE:
            return qe.Filter(must_not=[_equals(key, values[0])])
        case Operator.IN:
            return qe.Filter(must=[_one_of(key, values)])
        case Operator.NOT_IN:
            return qe.Filter(must_not=[_one_of(key, values)])
        case Operator.GT | Operator.GTE | Operator.LT | Operator.LTE:
            return qe.Filter(must=[_range(key, operator, values[0])])
        case Operator.EXISTS:
            return qe.Filter(must_not=[qe.IsEmptyCondition(key), qe.IsNullCondition(key)])
        case _:
            assert_never(operator)


def _equals(key: str, value: Value) -> Any:
    # Numbers compare as numbers whether stored as 3 or 3.0, so equality on a
    # number is a closed range rather than an exact (integer-only) match.
    if isinstance(value, bool):
        # qdrant-edge-py 0.9 converts a Python bool to the integer 1 or 0, which
        # never matches a stored boolean; a numpy bool converts as a boolean.
        return qe.FieldCondition(key, match=qe.MatchValue(np.bool_(value)))  # type: ignore[arg-type]
    if isinstance(value, str):
        return qe.FieldCondition(key, match=qe.MatchValue(value))
    return _range(key, Operator.GTE, value, upper=value)


def _one_of(key: str, values: tuple[Value, ...]) -> Any:
    if all(isinstance(v, str) for v in values):
        return qe.FieldCondition(key, match=qe.MatchAny([str(v) for v in values]))
    return qe.Filter(should=[_equals(key, v) for v in values])


def _range(key: str, operator: Operator, value: Value, upper: Value | None = None) -> Any:
    assert operator in RANGE_OPERATORS
    bound = {operator.name.lower(): _range_operand(value)}
    if upper is not None:
        bound["lte"] = _range_operand(upper)
    if isinstance(value, datetime):
        return qe.FieldCondition(key, range=qe.RangeDateTime(**bound))
    return qe.FieldCondition(key, range=qe.RangeFloat(**bound))


def _range_operand(value: Value) -> Any:
    if isinstance(value, datetime):
        return iso_time(value)
    if isinstance(value, bool | str):
        raise TypeError(f"range operand must be a number or a time, not {type(value).__name__}")
    return float(value)
