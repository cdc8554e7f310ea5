"""Protobuf filter trees -> core's filter tree, with each node named as the client sees it.

Checks wire shape only (a case set, an operator defined, a Timestamp in its
documented range); which fields and operand kinds a filter may use is checked
in core/filters.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from google.protobuf import timestamp_pb2

from memoryd.api.enums import OPERATORS
from memoryd.core import filters
from memoryd.core.errors import InvalidArgument
from memoryd.v1 import memory_pb2 as pb

#: google.protobuf.Timestamp's documented range, 0001-01-01T00:00:00Z to
#: 9999-12-31T23:59:59.999999999Z: datetime, the journal and Qdrant hold no other.
MIN_TIMESTAMP_SECONDS = -62_135_596_800
MAX_TIMESTAMP_SECONDS = 253_402_300_799
MAX_NANOS = 999_999_999


def filter_from_proto(node: pb.Filter, field: str, depth: int = 1) -> filters.Filter:
    """The tree of ``node``; ``field`` is its name in the request (``filter``).

    Raises InvalidArgument naming the node: one with no case set, an undefined
    operator, an operand with no kind or a Timestamp outside its range.
    """
    if depth > filters.MAX_DEPTH:
        raise InvalidArgument(field, f"filter is nested deeper than {filters.MAX_DEPTH} levels")
    match node.WhichOneof("kind"):
        case "condition":
            return _condition_from_proto(node.condition, f"{field}.condition")
        case "all":
            return filters.AllOf(_children(node.all.filters, f"{field}.all", depth))
        case "any":
            return filters.AnyOf(_children(node.any.filters, f"{field}.any", depth))
        case "not":
            return filters.Not(filter_from_proto(getattr(node, "not"), f"{field}.not", depth + 1))
        case _:
            raise InvalidArgument(field, "set one of condition, all, any or not")


def _children(nodes: Iterable[pb.Filter], field: str, depth: int) -> tuple[filters.Filter, ...]:
    return tuple(
        filter_from_proto(child, f"{field}.filters[{i}]", depth + 1)
        for i, child in enumerate(nodes)
    )


def _condition_from_proto(condition: pb.Condition, field: str) -> filters.Condition:
    operator = OPERATORS.from_proto(condition.operator, f"{field}.operator")
    values = tuple(
        _value_from_proto(value, f"{field}.values[{i}]") for i, value in enumerate(condition.values)
    )
    return filters.Condition(condition.field, operator, values)


def _value_from_proto(value: pb.FilterValue, field: str) -> filters.Value:
    match value.WhichOneof("kind"):
        case "string_value":
            return value.string_value
        case "number_value":
            return value.number_value
        case "bool_value":
            return value.bool_value
        case "time_value":
            return time_from_proto(value.time_value, f"{field}.time_value")
        case _:
            raise InvalidArgument(
                field, "set one of string_value, number_value, bool_value or time_value"
            )


def time_from_proto(value: timestamp_pb2.Timestamp, field: str) -> datetime:
    """A Timestamp as an aware datetime; InvalidArgument outside Timestamp's range."""
    if not MIN_TIMESTAMP_SECONDS <= value.seconds <= MAX_TIMESTAMP_SECONDS:
        raise InvalidArgument(
            field,
            f"seconds {value.seconds} is outside 0001-01-01T00:00:00Z to "
            "9999-12-31T23:59:59Z, the range of a google.protobuf.Timestamp",
        )
    if not 0 <= value.nanos <= MAX_NANOS:
        raise InvalidArgument(field, f"nanos must be 0 to {MAX_NANOS}, got {value.nanos}")
    return value.ToDatetime(tzinfo=UTC)
