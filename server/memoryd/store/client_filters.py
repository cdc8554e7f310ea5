"""Maps core.filters trees one to one onto qdrant-client filters (qdrant_filters.py for Edge)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import assert_never

from qdrant_client import models

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


def to_client_filter(tree: Filter) -> models.Filter:
    """The qdrant-client filter matching exactly the points ``tree`` matches."""
    match tree:
        case Condition():
            return _condition(tree)
        case AllOf(filters):
            return models.Filter(must=[to_client_filter(f) for f in filters])
        case AnyOf(filters):
            return models.Filter(should=[to_client_filter(f) for f in filters])
        case Not(child):
            return models.Filter(must_not=[to_client_filter(child)])
        case _:
            assert_never(tree)


def _condition(condition: Condition) -> models.Filter:
    key, operator, values = condition.field, condition.operator, condition.values
    match operator:
        case Operator.EQ:
            return models.Filter(must=[_equals(key, values[0])])
        case Operator.NE:
            return models.Filter(must_not=[_equals(key, values[0])])
        case Operator.IN:
            return models.Filter(must=[_one_of(key, values)])
        case Operator.NOT_IN:
            return models.Filter(must_not=[_one_of(key, values)])
        case Operator.GT | Operator.GTE | Operator.LT | Operator.LTE:
            return models.Filter(must=[_range(key, operator, values[0])])
        case Operator.EXISTS:
            field = models.PayloadField(key=key)
            return models.Filter(
                must_not=[
                    models.IsEmptyCondition(is_empty=field),
                    models.IsNullCondition(is_null=field),
                ]
            )
        case _:
            assert_never(operator)


def _equals(key: str, value: Value) -> models.Condition:
    # Numbers compare as numbers whether stored as 3 or 3.0, so equality on a
    # number is a closed range rather than an exact (integer-only) match.
    if isinstance(value, bool | str):
        return models.FieldCondition(key=key, match=models.MatchValue(value=value))
    return _range(key, Operator.GTE, value, upper=value)


def _one_of(key: str, values: tuple[Value, ...]) -> models.Condition:
    if all(isinstance(v, str) for v in values):
        return models.FieldCondition(key=key, match=models.MatchAny(any=[str(v) for v in values]))
    return models.Filter(should=[_equals(key, v) for v in values])


def _range(
    key: str, operator: Operator, value: Value, upper: Value | None = None
) -> models.FieldCondition:
    assert operator in RANGE_OPERATORS
    if isinstance(value, datetime):
        times = {operator.name.lower(): _time_operand(value)}
        if upper is not None:
            times["lte"] = _time_operand(upper)
        return models.FieldCondition(key=key, range=models.DatetimeRange(**times))
    numbers = {operator.name.lower(): _number_operand(value)}
    if upper is not None:
        numbers["lte"] = _number_operand(upper)
    return models.FieldCondition(key=key, range=models.Range(**numbers))


def _time_operand(value: Value) -> datetime:
    if not isinstance(value, datetime):
        raise TypeError(f"a time range needs times at both ends, not {type(value).__name__}")
    # The same instant iso_time writes, so stored and filtered times agree.
    return value.astimezone(UTC)


def _number_operand(value: Value) -> float:
    if isinstance(value, bool | str | datetime):
        raise TypeError(f"range operand must be a number or a time, not {type(value).__name__}")
    return float(value)
