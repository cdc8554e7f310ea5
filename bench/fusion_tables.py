"""The tables bench/fusion_study.py prints: recall per set per fusion, and BM25's profile."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import fusions as fu
from recall_sets import Case

TOP = 10


@dataclass(frozen=True, slots=True)
class Observed:
    """One case's engine answer: both rankings and the engine's fusions of them.

    Point ids are creation order; ``rounds`` maps them to the set's round.
    """

    case: Case
    expected: int
    dense: dict[int, float]
    lexical: dict[int, float]
    engine_rrf: fu.Fused
    engine_dbsf: fu.Fused
    engine_noisy_or: fu.Fused
    rounds: Mapping[int, int]


Rule = Callable[[Observed], fu.Fused]


def recall(observed: Sequence[Observed], rule: Rule) -> tuple[float, float]:
    """(recall@1, recall@5) of ``rule`` over ``observed``."""
    ranks = []
    for o in observed:
        order = [p for p, _ in rule(o)[:TOP]]
        ranks.append(order.index(o.expected) + 1 if o.expected in order else 0)
    n = len(ranks)
    return sum(r == 1 for r in ranks) / n, sum(1 <= r <= 5 for r in ranks) / n


def table(by_set: Mapping[str, Sequence[Observed]], rules: Mapping[str, Rule]) -> None:
    """One Markdown row per rule: recall@1 and recall@5 on each set."""
    names = list(by_set)
    print("| fusion | " + " | ".join(f"{n} R@1 | {n} R@5" for n in names) + " |")
    print("|---|" + "---:|---:|" * len(names))
    for label, rule in rules.items():
        cells = [f"{a:.3f} | {b:.3f}" for a, b in (recall(by_set[n], rule) for n in names)]
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()


def agreement(observed: Sequence[Observed], offline: Rule, engine: Rule) -> float:
    """How often the offline fusion's top 10 order is the engine's."""
    same = sum([p for p, _ in offline(o)[:TOP]] == [p for p, _ in engine(o)] for o in observed)
    return same / len(observed)


def bm25_profile(by_set: Mapping[str, Sequence[Observed]], noisy_or: Rule) -> None:
    """BM25's scores per set, the engine DBSF's range, and whether the engine's DBSF
    and noisy-or order the top 10 as the offline ones (``noisy_or``) do."""
    print(
        "| set | median BM25 top score | median BM25 peak | cases with no BM25 match"
        " | max engine DBSF / 2 | offline = engine top 10: DBSF | noisy-or |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, observed in by_set.items():
        tops = [max(o.lexical.values(), default=0.0) for o in observed]
        peaks = [fu.peak(o.lexical) for o in observed]
        empty = sum(not o.lexical for o in observed)
        dbsf_max = max(s for o in observed for _, s in o.engine_dbsf)
        dbsf = agreement(observed, lambda o: fu.dbsf(o.dense, o.lexical), lambda o: o.engine_dbsf)
        ours = agreement(observed, noisy_or, lambda o: o.engine_noisy_or)
        print(
            f"| {name} | {statistics.median(tops):.2f} | {statistics.median(peaks):.2f}"
            f" | {empty} | {dbsf_max:.3f} | {dbsf:.3f} | {ours:.3f} |"
        )
    print()


def meanings() -> None:
    print("| fusion | a score in [0, 1] means |\n|---|---|")
    for family, meaning in fu.MEANING.items():
        print(f"| {family} | {meaning} |")
    print()
