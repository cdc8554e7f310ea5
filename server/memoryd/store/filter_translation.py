"""The meaning of a core.filters tree in Qdrant terms, once for every backend.

Each backend supplies a Dialect, the constructors of its client library; the
operator semantics live here:
- numbers compare as numbers whether stored as 3 or 3.0, so equality on a
  number is a closed range rather than an exact (integer-only) match;
- NE and NOT_IN also match points where the key is missing (must_not);
- IN on strings is one keyword match, on other values a disjunction;
- EXISTS means present, not empty and not null.
translate_excluding also leaves out points by id, as newest-first paging does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, assert_never

from memoryd.core.filters import AllOf, AnyOf, Condition, Filter, Not, Operator, Value


class Dialect(Protocol):
    """The filter constructors of one Qdrant client library."""

    def clause(
        self, *, must: list[Any] = ..., should: list[Any] = ..., must_not: list[Any] = ...
    ) -> Any: ...

    def match_value(self, key: str, value: str | bool) -> Any: ...

    def match_any(self, key: str, values: list[str]) -> Any: ...

    def number_range(self, key: str, bounds: dict[str, float]) -> Any: ...

    def time_range(self, key: str, bounds: dict[str, datetime]) -> Any: ...

    def is_empty(self, key: str) -> Any: ...

    def is_null(self, key: str) -> Any: ...

    def has_id(self, ids: list[str]) -> Any: ...


def translate(tree: Filter, dialect: Dialect) -> Any:
    """The dialect's filter matching exactly the points ``tree`` matches."""
    match tree:
        case Condition():
            return _condition(tree, dialect)
        case AllOf(filters):
            return dialect.clause(must=[translate(f, dialect) for f in filters])
        case AnyOf(filters):
            return dialect.clause(should=[translate(f, dialect) for f in filters])
        case Not(child):
            return dialect.clause(must_not=[translate(child, dialect)])
        case _:
            assert_never(tree)


def translate_excluding(tree: Filter, ids: Sequence[str], dialect: Dialect) -> Any:
    """The dialect's filter matching the points ``tree`` matches, except those with ``ids``."""
    translated = translate(tree, dialect)
    if not ids:
        return translated
    return dialect.clause(must=[translated], must_not=[dialect.has_id(list(ids))])


def _condition(condition: Condition, dialect: Dialect) -> Any:
    key, operator, values = condition.field, condition.operator, condition.values
    match operator:
        case Operator.EQ:
            return dialect.clause(must=[_equals(key, values[0], dialect)])
        case Operator.NE:
            return dialect.clause(must_not=[_equals(key, values[0], dialect)])
        case Operator.IN:
            return dialect.clause(must=[_one_of(key, values, dialect)])
        case Operator.NOT_IN:
            return dialect.clause(must_not=[_one_of(key, values, dialect)])
        case Operator.GT | Operator.GTE | Operator.LT | Operator.LTE:
            return dialect.clause(must=[_range(key, {operator.name.lower(): values[0]}, dialect)])
        case Operator.EXISTS:
            return dialect.clause(must_not=[dialect.is_empty(key), dialect.is_null(key)])
        case _:
            assert_never(operator)


def _equals(key: str, value: Value, dialect: Dialect) -> Any:
    if isinstance(value, bool | str):
        return dialect.match_value(key, value)
    return _range(key, {"gte": value, "lte": value}, dialect)


def _one_of(key: str, values: tuple[Value, ...], dialect: Dialect) -> Any:
    if all(isinstance(v, str) for v in values):
        return dialect.match_any(key, [str(v) for v in values])
    return dialect.clause(should=[_equals(key, v, dialect) for v in values])


def _range(key: str, bounds: dict[str, Value], dialect: Dialect) -> Any:
    operands = list(bounds.values())
    if all(isinstance(v, datetime) for v in operands):
        return dialect.time_range(key, {k: v for k, v in bounds.items() if isinstance(v, datetime)})
    if any(isinstance(v, bool | str | datetime) for v in operands):
        raise TypeError(f"range operands must all be numbers or all be times: {operands!r}")
    return dialect.number_range(key, {k: float(v) for k, v in bounds.items()})  # type: ignore[arg-type]
