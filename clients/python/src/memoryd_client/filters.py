"""Constructors for memoryd's filter trees, from plain Python values.

where = all_of(eq("metadata.lang", "en"), gte("create_time", since))
client.search_memories(svc.SearchMemoriesRequest(query=..., scope=..., filter=where))
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from google.protobuf import timestamp_pb2

from memoryd.v1 import memory_pb2 as pb

#: A Python value a condition compares against.
Value = str | bool | int | float | datetime

_Op = pb.ComparisonOperator


def filter_value(value: Value) -> pb.FilterValue:
    """A FilterValue for a str, bool, int, float or timezone-aware datetime."""
    if isinstance(value, bool):  # before int: bool is an int
        return pb.FilterValue(bool_value=value)
    if isinstance(value, str):
        return pb.FilterValue(string_value=value)
    if isinstance(value, int | float):
        return pb.FilterValue(number_value=float(value))
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("datetime filter values must be timezone-aware (e.g. tz=UTC)")
        stamp = timestamp_pb2.Timestamp()
        stamp.FromDatetime(value)
        return pb.FilterValue(time_value=stamp)
    raise TypeError(f"cannot filter on a {type(value).__name__}; use str, bool, number or datetime")


def condition(field: str, operator: pb.ComparisonOperator, *values: Value) -> pb.Filter:
    """A one-condition filter: ``field`` is ``metadata.<key>``, ``create_time`` or
    ``update_time``."""
    return pb.Filter(
        condition=pb.Condition(
            field=field, operator=operator, values=[filter_value(v) for v in values]
        )
    )


def eq(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_EQ, value)


def ne(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_NE, value)


def in_(field: str, values: Iterable[Value]) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_IN, *values)


def not_in(field: str, values: Iterable[Value]) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_NOT_IN, *values)


def gt(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_GT, value)


def gte(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_GTE, value)


def lt(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_LT, value)


def lte(field: str, value: Value) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_LTE, value)


def exists(field: str) -> pb.Filter:
    return condition(field, _Op.COMPARISON_OPERATOR_EXISTS)


def all_of(*filters: pb.Filter) -> pb.Filter:
    """Matches when every filter matches."""
    return pb.Filter(all=pb.FilterList(filters=filters))


def any_of(*filters: pb.Filter) -> pb.Filter:
    """Matches when at least one filter matches."""
    return pb.Filter(any=pb.FilterList(filters=filters))


def not_(inner: pb.Filter) -> pb.Filter:
    """Matches when ``inner`` does not."""
    negation = pb.Filter()
    getattr(negation, "not").CopyFrom(inner)  # `not` is a Python keyword
    return negation
