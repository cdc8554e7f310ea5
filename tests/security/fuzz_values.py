"""Hypothesis strategies for single field values: random, edge and valid ones.

Random values are strings and unicode, huge values and undefined enum values;
edge values are where servers break (NaN and infinities, Timestamps past their
range, extreme integers, deep filters); valid values get past validation.
"""

from __future__ import annotations

import math
from typing import Any

from google.protobuf import descriptor, struct_pb2, timestamp_pb2
from hypothesis import strategies as st

from memoryd.v1 import memory_pb2 as pb

FD = descriptor.FieldDescriptor
#: google.protobuf.Timestamp's documented range, in seconds.
MIN_SECONDS, MAX_SECONDS = -62_135_596_800, 253_402_300_799

texts = st.one_of(
    st.sampled_from(["", " ", "\x00", "*", "%", ".*", "metadata.", "../../etc/passwd"]),
    st.sampled_from(["\u202e\u0301\U0001f600", "²"]),
    # Past the id and content limits; built on draw, so reprs stay short.
    st.sampled_from([129, 33_000, 40_000]).map(lambda n: "x" * n),
    st.from_regex(r"[a-z0-9_-]{1,20}", fullmatch=True),
    st.text(max_size=24),
    st.text(st.characters(codec="utf-8"), min_size=100, max_size=400),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers(-(2**60), 2**60) | texts,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=12,
)
timestamps = st.builds(
    timestamp_pb2.Timestamp,
    seconds=st.integers(MIN_SECONDS - 2, MAX_SECONDS + 2)
    | st.sampled_from([MIN_SECONDS, MAX_SECONDS, -(2**63), 2**63 - 1]),
    nanos=st.integers(-2, 10**9 + 1) | st.sampled_from([-(2**31), 2**31 - 1, 999_999_999]),
)
#: Floats where number handling breaks: not JSON, signed zero, the extremes,
#: and the first integer a double cannot hold.
edge_floats = st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e308, 5e-324, 2.0**53 + 1])
edge_int32s = st.sampled_from([-1, 0, 101, 1001, 2**31 - 1, -(2**31)])
edge_int64s = edge_int32s | st.sampled_from([2**53 + 1, 2**63 - 1, -(2**63)])
edge_numbers = edge_floats | st.floats()
edge_metadata = st.dictionaries(
    st.sampled_from(["a", "n", "tags"]),
    edge_numbers | st.lists(edge_numbers, max_size=2) | st.dictionaries(st.just("x"), edge_numbers),
    min_size=1,
    max_size=2,
)
valid_metadata = st.dictionaries(
    st.sampled_from(["a", "n", "plan", "tags"]),
    st.integers(-5, 5) | st.sampled_from(["x", "pro"]) | st.booleans(),
    max_size=3,
)
valid_filters = st.one_of(
    st.builds(
        lambda n: pb.Filter(
            condition=pb.Condition(
                field="metadata.a",
                operator=pb.COMPARISON_OPERATOR_GTE,
                values=[pb.FilterValue(number_value=n)],
            )
        ),
        st.integers(-1, 4),
    ),
    st.just(
        pb.Filter(
            condition=pb.Condition(
                field="metadata.n",
                operator=pb.COMPARISON_OPERATOR_EQ,
                values=[pb.FilterValue(string_value="x")],
            )
        )
    ),
    st.builds(
        lambda t: pb.Filter(
            condition=pb.Condition(
                field="create_time",
                operator=pb.COMPARISON_OPERATOR_GT,
                values=[pb.FilterValue(time_value=t)],
            )
        ),
        st.builds(
            timestamp_pb2.Timestamp,
            seconds=st.integers(MIN_SECONDS, MAX_SECONDS),
            nanos=st.integers(0, 999_999_999),
        ),
    ),
)


def _condition(field: str, operator: int, value: pb.FilterValue) -> pb.Filter:
    return pb.Filter(condition=pb.Condition(field=field, operator=operator, values=[value]))


edge_filters = st.one_of(
    st.builds(
        lambda n: _condition(
            "metadata.a", pb.COMPARISON_OPERATOR_GTE, pb.FilterValue(number_value=n)
        ),
        edge_numbers,
    ),
    st.builds(
        lambda field, operator, t: _condition(field, operator, pb.FilterValue(time_value=t)),
        st.sampled_from(["create_time", "update_time"]),
        st.sampled_from([pb.COMPARISON_OPERATOR_GT, pb.COMPARISON_OPERATOR_EQ]),
        timestamps,
    ),
)


def struct(values: dict[str, Any]) -> struct_pb2.Struct:
    holder = struct_pb2.Struct()
    holder.update(values)
    return holder


def scalar(field: descriptor.FieldDescriptor) -> st.SearchStrategy[Any]:
    match field.type:
        case FD.TYPE_STRING:
            return texts
        case FD.TYPE_BYTES:
            return st.binary(max_size=32)
        case FD.TYPE_BOOL:
            return st.booleans()
        case FD.TYPE_ENUM:
            defined = [v.number for v in field.enum_type.values]
            return st.sampled_from(defined) | st.integers(-3, 40)
        case FD.TYPE_FLOAT:
            return st.floats(width=32)
        case FD.TYPE_DOUBLE:
            return st.floats()
        case FD.TYPE_INT32 | FD.TYPE_SINT32 | FD.TYPE_SFIXED32:
            return st.integers(-4, 12) | st.sampled_from([-(2**31), 2**31 - 1, 1001, 100_000])
        case FD.TYPE_INT64 | FD.TYPE_SINT64 | FD.TYPE_SFIXED64:
            return st.integers(-4, 12) | st.sampled_from([-(2**63), 2**63 - 1, 10**12])
        case _:
            return st.integers(0, 2**32 - 1)


def deep_filters() -> st.SearchStrategy[pb.Filter]:
    """A filter nested far deeper than any real one (wire parsers stop at 100)."""

    def nest(levels: int) -> pb.Filter:
        # Built in place: copying a message this deep would parse it again.
        root = node = pb.Filter()
        for i in range(levels):
            node = getattr(node, "not") if i % 2 else node.all.filters.add()
        node.condition.field = "metadata.a"
        node.condition.operator = pb.COMPARISON_OPERATOR_EQ
        node.condition.values.add(string_value="v")
        return root

    return st.integers(1, 150).map(nest)
