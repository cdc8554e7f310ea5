"""Recall@1 and @5 on the paraphrase set (bench/recall_set.py), for any peer's search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from recall_set import Case, recall_set

#: The set bench/recall.py measures, at its defaults.
USERS, TARGETS, DISTRACTORS = 20, 15, 15


def recall_corpus() -> tuple[list[Case], dict[str, list[str]]]:
    """The cases and every recall user's memories (targets and distractors)."""
    return recall_set(USERS, TARGETS, DISTRACTORS)


def recall_at(cases: list[Case], top5: Callable[[Case], list[str]]) -> dict[str, Any]:
    """Recall@1 and @5, given ``top5``: the contents a search for the case's
    query in its user's scope returns, best first."""
    ranks = []
    for case in cases:
        found = top5(case)
        ranks.append(found.index(case.memory) + 1 if case.memory in found else 0)
    return {
        "cases": len(ranks),
        "recall_at_1": sum(r == 1 for r in ranks) / len(ranks),
        "recall_at_5": sum(1 <= r <= 5 for r in ranks) / len(ranks),
    }
