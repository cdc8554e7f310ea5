"""core.filters: client filter validation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memoryd.core.errors import InvalidArgument
from memoryd.core.filters import (
    MAX_CONDITIONS,
    MAX_DEPTH,
    AllOf,
    AnyOf,
    Condition,
    Not,
    Operator,
    validate_client_filter,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "tree",
    [
        Condition("metadata.plan", Operator.EQ, ("pro",)),
        Condition("metadata.a.b-c_d", Operator.IN, (1.0, 2.0)),
        Condition("metadata.flag", Operator.EXISTS),
        Condition("create_time", Operator.GTE, (NOW,)),
        AllOf(
            (
                Condition("metadata.x", Operator.LT, (3.0,)),
                Not(Condition("metadata.y", Operator.EQ, (True,))),
            )
        ),
    ],
)
def test_valid_filters_pass(tree):
    validate_client_filter(tree, "filter")


@pytest.mark.parametrize(
    ("tree", "field", "words"),
    [
        (Condition("user_id", Operator.EQ, ("u",)), "filter.condition.field", "not filterable"),
        (Condition("metadata.", Operator.EQ, ("u",)), "filter.condition.field", "not filterable"),
        (
            Condition("metadata.a b", Operator.EQ, ("u",)),
            "filter.condition.field",
            "not filterable",
        ),
        (Condition("metadata.x", Operator.EQ, ()), "filter.condition.values", "exactly one"),
        (Condition("metadata.x", Operator.IN, ()), "filter.condition.values", "at least one"),
        (Condition("metadata.x", Operator.EXISTS, ("a",)), "filter.condition.values", "no values"),
        (
            Condition("metadata.x", Operator.GT, (True,)),
            "filter.condition.values",
            "number or a time",
        ),
        (Condition("metadata.x", Operator.IN, ("a", 1.0)), "filter.condition.values", "one kind"),
        (Condition("metadata.x", Operator.EQ, (NOW,)), "filter.condition.values", "create_time"),
        (Condition("update_time", Operator.EQ, ("2026",)), "filter.condition.values", "time_value"),
        (
            Condition("metadata.x", Operator.EQ, (float("inf"),)),
            "filter.condition.values",
            "finite",
        ),
        (AnyOf(()), "filter.any", "at least one"),
        (
            AllOf((Condition("metadata.x", Operator.EQ, ()),)),
            "filter.all.filters[0].condition.values",
            "exactly one",
        ),
    ],
)
def test_invalid_filters_name_the_node(tree, field, words):
    with pytest.raises(InvalidArgument) as info:
        validate_client_filter(tree, "filter")
    assert info.value.field == field
    assert words in info.value.reason


def test_depth_and_size_limits():
    deep = Condition("metadata.x", Operator.EQ, ("a",))
    for _ in range(MAX_DEPTH):
        deep = Not(deep)
    with pytest.raises(InvalidArgument, match="deeper"):
        validate_client_filter(deep, "filter")
    wide = AnyOf(
        tuple(Condition("metadata.x", Operator.EQ, (str(i),)) for i in range(MAX_CONDITIONS + 1))
    )
    with pytest.raises(InvalidArgument, match="conditions"):
        validate_client_filter(wide, "filter")
