"""Any filter tree selects, on every backend, the points its meaning selects.

The translation flattens trees (store/filter_translation.py): conditions join
their parent's lists, negations of one condition become ``must_not`` entries,
"any of" joins its parent's ``should``. Hypothesis builds trees of every shape
over test_vector_index's points (a fixed seed in the test run; ``make fuzz``
style exploration with HYPOTHESIS_PROFILE=fuzz), and each tree's search and
count must equal what a plain Python reading of the tree selects.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_vector_index import ALL_ROUND, POINTS, SPEC, at, of_user

from memoryd.core.filters import AllOf, AnyOf, Condition, Filter, Not, Operator, Value
from memoryd.core.ports import Search

if TYPE_CHECKING:
    from conftest import IndexBackend

#: Each field with values its points hold, and some they do not.
VALUES: dict[str, list[Value]] = {
    "metadata.plan": ["pro", "free", "team", "enterprise"],
    "metadata.tags": ["red", "blue", "green"],
    "agent_id": ["agent-1", "agent-2"],
    "category": ["work", "home"],
    "metadata.seats": [1, 3, 3.0, 10, 2.5],
    "metadata.ratio": [0.5, 1.5, 1.0],
    "metadata.active": [True, False],
    "create_time": [at(1), at(2, 500), at(3), at(2, 499), at(9)],
}
ORDERED = ("metadata.seats", "metadata.ratio", "create_time")
RANGES = (Operator.GT, Operator.GTE, Operator.LT, Operator.LTE)


@st.composite
def conditions(draw: st.DrawFn) -> Condition:
    field = draw(st.sampled_from(sorted(VALUES)))
    operators = [Operator.EQ, Operator.NE, Operator.IN, Operator.NOT_IN, Operator.EXISTS]
    if field in ORDERED:
        operators += RANGES
    operator = draw(st.sampled_from(operators))
    if operator is Operator.EXISTS:
        return Condition(field, operator, ())
    if operator in (Operator.IN, Operator.NOT_IN):
        options = VALUES[field]
        return Condition(
            field, operator, tuple(draw(st.lists(st.sampled_from(options), min_size=1, max_size=3)))
        )
    return Condition(field, operator, (draw(st.sampled_from(VALUES[field])),))


def _tuples(children: st.SearchStrategy[Filter]) -> st.SearchStrategy[tuple[Filter, ...]]:
    return st.lists(children, min_size=0, max_size=3).map(tuple)


trees: st.SearchStrategy[Filter] = st.recursive(
    conditions(),
    lambda children: st.one_of(
        _tuples(children).map(AllOf),
        _tuples(children).map(AnyOf),
        children.map(Not),
    ),
    max_leaves=8,
)


def selects(tree: Filter, payload: dict[str, Any]) -> bool:
    """Whether ``tree`` selects the point with ``payload``, read as core/filters.py says."""
    match tree:
        case AllOf(filters):
            return all(selects(f, payload) for f in filters)
        case AnyOf(filters):
            return any(selects(f, payload) for f in filters)
        case Not(child):
            return not selects(child, payload)
        case Condition(field, operator, values):
            return _holds(_stored(payload, field), operator, values)
    raise AssertionError(tree)


def _stored(payload: dict[str, Any], field: str) -> list[Any]:
    """The field's stored values: an array's elements, nothing if missing or null."""
    value: Any = payload
    for key in field.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    if field in ("create_time", "update_time"):
        return [datetime.fromisoformat(v) for v in values]
    return values


def _holds(stored: list[Any], operator: Operator, values: tuple[Value, ...]) -> bool:
    match operator:
        case Operator.EQ:
            return any(_equal(s, values[0]) for s in stored)
        case Operator.NE:
            return not any(_equal(s, values[0]) for s in stored)
        case Operator.IN:
            return any(_equal(s, v) for s in stored for v in values)
        case Operator.NOT_IN:
            return not any(_equal(s, v) for s in stored for v in values)
        case Operator.EXISTS:
            return bool(stored)
    bound = values[0]
    compare = {
        Operator.GT: lambda s: s > bound,
        Operator.GTE: lambda s: s >= bound,
        Operator.LT: lambda s: s < bound,
        Operator.LTE: lambda s: s <= bound,
    }[operator]
    return any(compare(s) for s in stored if not isinstance(s, bool))


def _equal(stored: Any, value: Value) -> bool:
    # A bool is never a number here, as in the engine: True matches no 1.
    if isinstance(stored, bool) or isinstance(value, bool):
        return isinstance(stored, bool) and isinstance(value, bool) and stored == value
    return bool(stored == value)


def test_every_tree_selects_what_it_means(backend: IndexBackend) -> None:
    loop = asyncio.new_event_loop()
    index = loop.run_until_complete(backend.open(SPEC))
    try:
        loop.run_until_complete(index.upsert(POINTS))

        # Trees are cheap to check and their shapes many: more examples than the default.
        @settings(max_examples=max(500, settings.default.max_examples))
        @given(trees)
        def check(tree: Filter) -> None:
            expected = {p.id for p in POINTS if p.payload["user_id"] == "user-1"}
            expected = {p.id for p in POINTS if p.id in expected and selects(tree, p.payload)}
            scoped = of_user("user-1", tree)
            (hits,) = loop.run_until_complete(index.search([Search(ALL_ROUND, scoped, limit=10)]))
            assert {h.id for h in hits} == expected, "search"
            assert loop.run_until_complete(index.count(scoped)) == len(expected), "count"

        check()
    finally:
        loop.run_until_complete(index.close())
        loop.close()
