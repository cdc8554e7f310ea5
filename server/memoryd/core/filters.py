"""The typed filter tree shared by requests, scoping and the vector index.

Field names in the tree are document paths ("metadata.plan", "create_time",
"user_id"). Clients may only name metadata keys and the two timestamps;
scoping adds conditions on the scope fields. store/qdrant_filters.py maps the
tree one to one onto Qdrant filters.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, assert_never

from memoryd.core.errors import InvalidArgument

MAX_DEPTH = 8
MAX_CONDITIONS = 64
TIME_FIELDS = frozenset({"create_time", "update_time"})
_METADATA_PATH = re.compile(r"metadata(\.[A-Za-z0-9_-]{1,64}){1,8}")

Value = str | float | bool | datetime


class Operator(enum.Enum):
    EQ = "eq"
    NE = "ne"
    IN = "in"
    NOT_IN = "not_in"
    GT = "gt"
    GTE = "gte"
    LT = "lt"
    LTE = "lte"
    EXISTS = "exists"


RANGE_OPERATORS = frozenset({Operator.GT, Operator.GTE, Operator.LT, Operator.LTE})
_SINGLE_OPERAND = frozenset({Operator.EQ, Operator.NE}) | RANGE_OPERATORS


@dataclass(frozen=True, slots=True)
class Condition:
    field: str
    operator: Operator
    values: tuple[Value, ...] = ()


@dataclass(frozen=True, slots=True)
class AllOf:
    filters: tuple[Filter, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    filters: tuple[Filter, ...]


@dataclass(frozen=True, slots=True)
class Not:
    filter: Filter


Filter = Condition | AllOf | AnyOf | Not


def equals(field: str, value: Value) -> Condition:
    return Condition(field, Operator.EQ, (value,))


def one_of(field: str, values: tuple[Value, ...]) -> Condition:
    return Condition(field, Operator.IN, values)


def all_of(*filters: Filter | None) -> Filter:
    """Conjunction of the filters that are not None."""
    present = tuple(f for f in filters if f is not None)
    return present[0] if len(present) == 1 else AllOf(present)


def validate_client_filter(tree: Filter, field: str) -> None:
    """Checks a filter sent by a client; ``field`` is its name in the request.

    Raises InvalidArgument naming the offending node, so that no part of a
    filter is ever silently ignored.
    """
    count = _validate(tree, field, depth=1)
    if count > MAX_CONDITIONS:
        raise InvalidArgument(field, f"has {count} conditions; at most {MAX_CONDITIONS} allowed")


def _validate(node: Filter, path: str, depth: int) -> int:
    if depth > MAX_DEPTH:
        raise InvalidArgument(path, f"filter is nested deeper than {MAX_DEPTH} levels")
    match node:
        case Condition():
            _validate_condition(node, path)
            return 1
        case AllOf(filters) | AnyOf(filters):
            kind = "all" if isinstance(node, AllOf) else "any"
            if not filters:
                raise InvalidArgument(f"{path}.{kind}", "needs at least one filter")
            return sum(
                _validate(child, f"{path}.{kind}.filters[{i}]", depth + 1)
                for i, child in enumerate(filters)
            )
        case Not(child):
            return _validate(child, f"{path}.not", depth + 1)
        case _:
            assert_never(node)


def _validate_condition(condition: Condition, path: str) -> None:
    field, operator, values = condition.field, condition.operator, condition.values
    is_time = field in TIME_FIELDS
    if not is_time and not _METADATA_PATH.fullmatch(field):
        raise InvalidArgument(
            f"{path}.condition.field",
            f"{field!r} is not filterable; use 'metadata.<key>' (letters, digits, '_' or '-', "
            "nested keys joined by '.'), 'create_time' or 'update_time'",
        )
    values_path = f"{path}.condition.values"
    if operator is Operator.EXISTS:
        if values:
            raise InvalidArgument(values_path, "EXISTS takes no values")
        return
    if operator in _SINGLE_OPERAND and len(values) != 1:
        raise InvalidArgument(
            values_path, f"{operator.name} takes exactly one value, got {len(values)}"
        )
    if not values:
        raise InvalidArgument(values_path, f"{operator.name} needs at least one value")
    kinds = {_kind(v) for v in values}
    if len(kinds) > 1:
        raise InvalidArgument(values_path, "values must all be of one kind")
    (kind,) = kinds
    if is_time and kind != "time":
        raise InvalidArgument(values_path, f"{field} compares with time_value only")
    if not is_time and kind == "time":
        raise InvalidArgument(values_path, "time_value applies to create_time and update_time")
    if operator in RANGE_OPERATORS and kind not in ("number", "time"):
        raise InvalidArgument(values_path, f"{operator.name} needs a number or a time, not {kind}")
    for value in values:
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidArgument(values_path, "numbers must be finite")


def _kind(value: Value) -> str:
    # bool before number: bool is an int subclass in Python.
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "string"
    if isinstance(value, datetime):
        return "time"
    return "number"


def to_json(tree: Filter) -> dict[str, Any]:
    """A JSON document of the tree, for the write journal."""
    match tree:
        case Condition(field, operator, values):
            return {
                "field": field,
                "op": operator.value,
                "values": [_value_json(v) for v in values],
            }
        case AllOf(filters):
            return {"all": [to_json(f) for f in filters]}
        case AnyOf(filters):
            return {"any": [to_json(f) for f in filters]}
        case Not(child):
            return {"not": to_json(child)}
        case _:
            assert_never(tree)


def from_json(document: dict[str, Any]) -> Filter:
    if "all" in document:
        return AllOf(tuple(from_json(f) for f in document["all"]))
    if "any" in document:
        return AnyOf(tuple(from_json(f) for f in document["any"]))
    if "not" in document:
        return Not(from_json(document["not"]))
    values = tuple(_value_from_json(v) for v in document["values"])
    return Condition(document["field"], Operator(document["op"]), values)


def _value_json(value: Value) -> Any:
    return {"time": value.isoformat()} if isinstance(value, datetime) else value


def _value_from_json(value: Any) -> Value:
    if isinstance(value, dict):
        return datetime.fromisoformat(value["time"])
    return value  # type: ignore[no-any-return]  # JSON scalars are the other Value kinds
