"""The paraphrase set: bench/recall_set.py's memories and queries, in this package's form."""

from __future__ import annotations

from recall_set import recall_set

from recall_sets.model import Case, Memory, RecallSet


def paraphrase(users: int = 20, targets: int = 15, distractors: int = 15) -> RecallSet:
    """bench/recall.py's set (its defaults and seed), every memory in round 0."""
    cases, stored = recall_set(users, targets, distractors)
    memories = [Memory(user, text) for user, texts in stored.items() for text in texts]
    return RecallSet(
        "paraphrase",
        tuple(memories),
        tuple(Case(c.user, c.query, c.memory, "paraphrase") for c in cases),
    )
