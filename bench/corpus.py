"""Synthetic but distinct memories and queries, reproducible from a seed."""

from __future__ import annotations

import random

_PEOPLE = [
    "The user",
    "The user's sister",
    "The user's manager",
    "The user's son",
    "The user's partner",
]
_FACTS = [
    "prefers {a} over {b} for {c}",
    "is allergic to {a} and avoids {b}",
    "moved to {c} last {d} to work on {a}",
    "wants reminders about {a} every {d}",
    "keeps a {b} collection and trades {a} online",
    "fixed the {a} issue by restarting {b} in {c}",
    "learns {a} on {d} evenings with a tutor from {c}",
    "booked a trip to {c} to see {a} and {b}",
]
_WORDS_A = [
    "jazz",
    "rust",
    "peanuts",
    "kayaks",
    "chess",
    "sourdough",
    "postgres",
    "cello",
    "tennis",
    "ramen",
    "bonsai",
    "solar panels",
    "vinyl",
    "espresso",
    "kubernetes",
    "watercolour",
    "haiku",
    "sushi",
]
_WORDS_B = [
    "coffee",
    "trains",
    "stamps",
    "docker",
    "yoga",
    "fountain pens",
    "cats",
    "origami",
    "tea",
    "mechanical keyboards",
    "birdwatching",
    "climbing",
    "podcasts",
    "fermentation",
]
_PLACES = [
    "Lisbon",
    "Osaka",
    "Denver",
    "Nairobi",
    "Oslo",
    "Porto",
    "Lima",
    "Hanoi",
    "Krakow",
    "Austin",
]
_WHEN = ["Monday", "winter", "weekend", "month", "spring", "Friday", "quarter", "morning"]


def memories(count: int, seed: int = 7) -> list[str]:
    """``count`` distinct memory texts."""
    rng = random.Random(seed)
    seen: set[str] = set()
    texts: list[str] = []
    while len(texts) < count:
        text = (
            f"{rng.choice(_PEOPLE)} "
            + rng.choice(_FACTS).format(
                a=rng.choice(_WORDS_A),
                b=rng.choice(_WORDS_B),
                c=rng.choice(_PLACES),
                d=rng.choice(_WHEN),
            )
            + f" (note {len(texts)})"
        )
        if text not in seen:
            seen.add(text)
            texts.append(text)
    return texts


def mixed_lengths(count: int, seed: int = 3) -> list[str]:
    """``count`` distinct memory texts of mixed lengths, as agents write them: each
    one to four of ``memories`` joined (about 17 to 100 tokens)."""
    parts = iter(memories(4 * count, seed=seed))
    rng = random.Random(seed)
    joined = (1, 1, 1, 2, 3, 4)
    return [" ".join(next(parts) for _ in range(rng.choice(joined))) for _ in range(count)]


def queries(count: int, seed: int = 11) -> list[str]:
    """``count`` questions drawn from about 250 distinct ones: they repeat."""
    rng = random.Random(seed)
    return [
        f"What does the user think about {rng.choice(_WORDS_A)} and {rng.choice(_WORDS_B)}?"
        for _ in range(count)
    ]


def fresh_queries(count: int, seed: int = 11) -> list[str]:
    """``count`` distinct questions, each numbered: a server's embedding cache
    has seen none of them, so each search pays for its embedding."""
    return [f"{question[:-1]} (question {i})?" for i, question in enumerate(queries(count, seed))]
