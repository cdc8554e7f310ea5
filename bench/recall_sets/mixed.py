"""The mixed set: paraphrase and identifier questions together, across many users.

Each user holds paraphrase targets and distractors (bench/recall_set.py),
near-miss identifier groups (recall_sets/lexical.py) and unrelated memories
(bench/corpus.py), so both kinds of question compete with both kinds of
memory. About one question in four names an identifier.
"""

from __future__ import annotations

import random

from corpus import memories as filler
from recall_set import recall_set

from recall_sets.lexical import groups_of
from recall_sets.model import Case, Memory, RecallSet


def mixed(
    users: int = 60,
    targets: int = 6,
    distractors: int = 6,
    groups: int = 2,
    fillers: int = 4,
    seed: int = 27,
) -> RecallSet:
    rng = random.Random(seed)
    paraphrases, stored = recall_set(users, targets, distractors, seed=seed)
    noise = filler(users * fillers, seed=seed)
    memories: list[Memory] = []
    cases: list[Case] = []
    for u, (source, texts) in enumerate(stored.items()):
        user = f"mixed-user-{u}"
        mine = [Memory(user, t) for t in texts + noise[u * fillers : (u + 1) * fillers]]
        cases += [
            Case(user, c.query, c.memory, "paraphrase") for c in paraphrases if c.user == source
        ]
        near_misses, asked = groups_of(rng, user, groups)
        mine += near_misses
        cases += asked
        rng.shuffle(mine)
        memories += mine
    return RecallSet("mixed", tuple(memories), tuple(cases))
