"""What a search's Edge filter costs, flat against nested one to one, side by side in one run.

qdrant-edge-py reads a Filter nested in a Filter's list far more slowly than a
condition, so store/filter_translation.py keeps a translation flat. This
prints, in microseconds per call (median of --rounds rounds of --calls each):

- the binding alone: a Filter holding one field condition, against one
  holding a Filter that holds the condition;
- a search's filter (a user's scope, and the not-expired part, which holds
  the clock's time) and a batch item's dedup filter (scope and type, not
  expired at the write's time, the same for every item), each made
  and read into a QueryRequest: as memoryd makes them
  (qdrant_filters.to_edge_filter), against a one-to-one translation that
  gives every node its own Filter and remembers what it made, as memoryd did
  before (as_before).

    python bench/filter_objects.py
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import qdrant_edge as qe

from memoryd.core.dedup import same_scope_and_type
from memoryd.core.expiry import live_at
from memoryd.core.filters import AllOf, AnyOf, Condition, Filter, Not
from memoryd.core.model import MemoryType, Scope, Selection
from memoryd.core.scoping import read_selection_filter
from memoryd.store.filter_translation import make, to_clause
from memoryd.store.qdrant_filters import EdgeDialect, compares_with_bool, to_edge_filter

DIALECT = EdgeDialect()


def as_before(tree: Filter) -> Any:
    """As memoryd made a filter before: afresh if it compares with a bool, else
    remembered, and an all-of made of its remembered parts."""
    return one_to_one(tree) if compares_with_bool(tree) else _remembered(tree)


@lru_cache(maxsize=4096)
def _remembered(tree: Filter) -> Any:
    if isinstance(tree, AllOf):
        return DIALECT.clause(must=[_remembered(part) for part in tree.filters])
    return one_to_one(tree)


def one_to_one(tree: Filter) -> Any:
    """Every node its own Filter, the shape before flattening."""
    match tree:
        case Condition():
            return make(to_clause(tree, DIALECT), DIALECT)
        case AllOf(parts):
            return DIALECT.clause(must=[one_to_one(p) for p in parts])
        case AnyOf(parts):
            return DIALECT.clause(should=[one_to_one(p) for p in parts])
        case Not(child):
            return DIALECT.clause(must_not=[one_to_one(child)])


def per_call(make_one: Callable[[], object], calls: int, rounds: int) -> float:
    """Median microseconds per call over ``rounds`` rounds."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            make_one()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    condition = qe.FieldCondition("user_id", match=qe.MatchValue("user-1"))
    nested = qe.Filter(must=[condition])
    query = qe.Query.Nearest([0.1] * 384, using="dense")
    scope = Scope(user_id="user-1", agent_id="agent-1")
    user_scope = read_selection_filter(Selection(scope=scope))
    # A batch's items share one: the not-expired part holds the write's time.
    dedup = AllOf((same_scope_and_type(scope, MemoryType.SEMANTIC), live_at(datetime.now(UTC))))

    def searched(made: Callable[[], Any]) -> Callable[[], Any]:
        return lambda: qe.QueryRequest(limit=5, query=query, filter=made())

    def read(translate: Callable[[Filter], Any]) -> Callable[[], Any]:
        return lambda: translate(AllOf((user_scope, live_at(datetime.now(UTC)))))

    rows: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "binding: Filter of a condition / of a Filter",
            lambda: qe.Filter(must=[condition]),
            lambda: qe.Filter(must=[nested]),
        ),
        (
            "a search's filter, in its request",
            searched(read(to_edge_filter)),
            searched(read(as_before)),
        ),
        (
            "a batch item's dedup filter, in its request",
            searched(lambda: to_edge_filter(dedup)),
            searched(lambda: as_before(dedup)),
        ),
    ]
    print(f"{'µs per call':46} {'flat':>8} {'nested':>8} {'ratio':>7}")
    for name, flat, one_to_one_made in rows:
        flat_us = per_call(flat, args.calls, args.rounds)
        nested_us = per_call(one_to_one_made, args.calls, args.rounds)
        print(f"{name:46} {flat_us:8.2f} {nested_us:8.2f} {flat_us / nested_us:6.2f}x")


if __name__ == "__main__":
    main()
