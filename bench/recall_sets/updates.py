"""The updates set: a fact, then its later correction; the newer must rank first.

Each user states a few attributes (where they live, work, ...) in round 0;
some are corrected in round 1 with a new value, worded one of several ways,
some stay as they are. A case asks for a corrected attribute: the correction
is expected, and the fact it replaces is recorded as ``stale``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from corpus import memories as filler

from recall_sets.model import Case, Memory, RecallSet


@dataclass(frozen=True, slots=True)
class Attribute:
    name: str
    fact: str
    corrections: tuple[str, ...]
    query: str
    values: tuple[str, ...]


ATTRIBUTES = [
    Attribute(
        "residence",
        "The user lives in {v}",
        ("The user moved to {v}", "The user now lives in {v}", "The user relocated to {v}"),
        "where does the user live?",
        ("Rotterdam", "Tokyo", "Lisbon", "Nairobi", "Montreal", "Krakow", "Hanoi", "Denver"),
    ),
    Attribute(
        "employer",
        "The user works at {v}",
        ("The user started a new job at {v}", "The user now works at {v}", "The user joined {v}"),
        "where does the user work?",
        ("Acme Logistics", "Borealis Bank", "Northwind", "Globex", "Initech", "Vandelay"),
    ),
    Attribute(
        "manager",
        "The user's manager is {v}",
        (
            "The user now reports to {v}",
            "{v} became the user's manager",
            "The user's manager is {v}",
        ),
        "who is the user's manager?",
        ("Priya Raman", "Tom Becker", "Ana Souza", "Kenji Mori", "Lena Fischer", "Omar Haddad"),
    ),
    Attribute(
        "car",
        "The user drives a {v}",
        ("The user sold the old car and bought a {v}", "The user now drives a {v}"),
        "what car does the user drive?",
        ("red Volvo", "grey Toyota", "blue Tesla", "white Fiat", "green Skoda", "black Audi"),
    ),
    Attribute(
        "meeting",
        "The user's weekly team meeting is on {v}",
        ("The weekly team meeting moved to {v}", "The team now meets every {v}"),
        "when is the user's team meeting?",
        ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    ),
    Attribute(
        "food",
        "The user's favourite food is {v}",
        ("These days the user likes {v} best", "The user's favourite food is now {v}"),
        "what is the user's favourite food?",
        ("ramen", "lasagne", "tacos", "dal", "paella", "pho", "sushi"),
    ),
    Attribute(
        "phone",
        "The user's phone number is {v}",
        ("The user changed their phone number to {v}", "The user's new number is {v}"),
        "what is the user's phone number?",
        ("+31 6 1234 5678", "+81 90 5555 0199", "+1 415 555 0142", "+44 7700 900123"),
    ),
    Attribute(
        "gym",
        "The user goes to the gym at {v}",
        ("The user switched gyms and now trains at {v}", "The user trains at {v} now"),
        "which gym does the user go to?",
        ("FitHub", "Iron Temple", "PulseGym", "Urban Climb", "the YMCA"),
    ),
]


def updates(
    users: int = 50, stated: int = 6, corrected: int = 4, fillers: int = 4, seed: int = 21
) -> RecallSet:
    """Per user: ``stated`` attributes, ``corrected`` of them corrected in round 1,
    and ``fillers`` unrelated memories from bench/corpus.py in round 0."""
    rng = random.Random(seed)
    noise = filler(users * fillers, seed=seed)
    originals: list[Memory] = []
    corrections: list[Memory] = []
    cases: list[Case] = []
    for u in range(users):
        user = f"updates-user-{u}"
        mine = [Memory(user, t) for t in noise[u * fillers : (u + 1) * fillers]]
        for i, attribute in enumerate(rng.sample(ATTRIBUTES, stated)):
            old, new = rng.sample(attribute.values, 2)
            fact = attribute.fact.format(v=old)
            mine.append(Memory(user, fact))
            if i < corrected:
                correction = rng.choice(attribute.corrections).format(v=new)
                corrections.append(Memory(user, correction, round=1))
                cases.append(Case(user, attribute.query, correction, attribute.name, stale=fact))
        rng.shuffle(mine)
        originals += mine
    return RecallSet("updates", tuple(originals + corrections), tuple(cases))
