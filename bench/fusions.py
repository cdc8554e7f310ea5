"""Candidate fusions of a dense and a BM25 ranking, offline, for bench/fusion_study.py.

A ranking is a dict from point id to its engine score, best first. Every
fusion returns (id, score) pairs best first, its scores in [0, 1]; the study
documents what a score means for each (the ``MEANING`` of each family).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping

Ranking = Mapping[int, float]
Fused = list[tuple[int, float]]
Fusion = Callable[[Ranking, Ranking], Fused]

#: What a score in [0, 1] means, per fusion family.
MEANING = {
    "dense": "cosine similarity, clamped at 0: absolute, comparable across queries",
    "bm25": "BM25 with the engine's IDF: unbounded, grows with the collection",
    "rrf": "rank agreement only: 1 = first in both rankings, 0.5 = first in one, absent"
    " in the other; blind to how similar anything is",
    "dbsf": "mean over both rankings of (score - (mean - 3 sd)) / (6 sd) within this query's"
    " candidates: relative; 0.5 = an average candidate of this query",
    "minmax": "weighted min-max within this query's candidates: relative; the best"
    " candidate is near 1 whatever its similarity, so a threshold cuts a rank, not a level",
    "noisy-or": "1 - (1 - cosine) * (1 - w * bm25 / (bm25 + k)): absolute; exactly the"
    " cosine when no query term matches (DENSE's meaning), lifted towards 1 by matching"
    " rare terms",
    "saturated": "w * cosine + (1 - w) * bm25 / (bm25 + k): absolute; 0 = orthogonal and no"
    " shared term, 1 = identical; one meaning across queries, like DENSE's",
}


def _ordered(scores: Mapping[int, float]) -> Fused:
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def ordered(scores: Mapping[int, float]) -> Fused:
    """One ranking's (id, score) pairs, best first."""
    return _ordered(scores)


def rrf(dense: Ranking, lexical: Ranking, k: int = 60, w_lexical: float = 0.5) -> Fused:
    """Reciprocal rank fusion weighted as Qdrant Edge's Fusion.Rrf(k, weights) weighs
    (dense 1 - w, BM25 w; 0.5 is today's unweighted RRF), scaled into [0, 1]."""
    fused: dict[int, float] = {}
    for weight, ranking in ((1 - w_lexical, dense), (w_lexical, lexical)):
        for rank, point in enumerate(ranking):
            fused[point] = fused.get(point, 0.0) + weight * k / (k + rank)
    return _ordered(fused)


def dbsf(dense: Ranking, lexical: Ranking) -> Fused:
    """Distribution-based score fusion as Qdrant defines it, halved into [0, 1]."""
    fused: dict[int, float] = {}
    for ranking in (dense, lexical):
        for point, score in _dbsf_normalised(ranking).items():
            fused[point] = fused.get(point, 0.0) + score / 2
    return _ordered(fused)


def _dbsf_normalised(ranking: Ranking) -> dict[int, float]:
    scores = list(ranking.values())
    if len(scores) < 2:
        return {p: 1.0 for p in ranking}
    mean, sd = statistics.fmean(scores), statistics.pstdev(scores)
    if sd == 0:
        return {p: 0.5 for p in ranking}
    low, high = mean - 3 * sd, mean + 3 * sd
    return {p: min(1.0, max(0.0, (s - low) / (high - low))) for p, s in ranking.items()}


def minmax(ranking: Ranking) -> dict[int, float]:
    """Scores scaled to [0, 1] within the ranking (all 1 if they are equal)."""
    if not ranking:
        return {}
    low, high = min(ranking.values()), max(ranking.values())
    return {p: 1.0 if high == low else (s - low) / (high - low) for p, s in ranking.items()}


def convex(dense: Ranking, lexical: Ranking, w_lexical: float) -> Fused:
    """(1 - w) * min-max(dense) + w * min-max(bm25); a point absent from a ranking gets 0 there."""
    d, lex = minmax(dense), minmax(lexical)
    points = set(d) | set(lex)
    return _ordered(
        {p: (1 - w_lexical) * d.get(p, 0.0) + w_lexical * lex.get(p, 0.0) for p in points}
    )


def peak(lexical: Ranking) -> float:
    """How much BM25's best candidate stands out: (top - second) / top, 0 if no term matched.

    An exact identifier matches one memory and its near misses not at all, so
    its top score stands alone; a paraphrase shares only common words with many.
    """
    scores = sorted(lexical.values(), reverse=True)
    if not scores or scores[0] <= 0:
        return 0.0
    second = scores[1] if len(scores) > 1 else 0.0
    return (scores[0] - second) / scores[0]


def adaptive(dense: Ranking, lexical: Ranking, low: float, high: float) -> Fused:
    """convex with BM25's weight between ``low`` and ``high`` by its peak."""
    return convex(dense, lexical, low + (high - low) * peak(lexical))


def saturated(dense: Ranking, lexical: Ranking, w_lexical: float, k: float) -> Fused:
    """(1 - w) * max(0, cosine) + w * bm25 / (bm25 + k): no per-query statistics, so one
    Qdrant Edge Formula query over the two prefetches computes it in the engine."""
    points = set(dense) | set(lexical)
    return _ordered(
        {
            p: (1 - w_lexical) * max(0.0, dense.get(p, 0.0))
            + w_lexical * lexical.get(p, 0.0) / (lexical.get(p, 0.0) + k)
            for p in points
        }
    )


def noisy_or(dense: Ranking, lexical: Ranking, w_lexical: float, k: float) -> Fused:
    """1 - (1 - max(0, cosine)) * (1 - w * bm25 / (bm25 + k)): lexical evidence lifts the
    cosine towards 1. Without a BM25 match the score IS the cosine, so such a query
    ranks and thresholds exactly as in DENSE; one Formula query computes it in the engine."""
    points = set(dense) | set(lexical)
    return _ordered(
        {
            p: 1
            - (1 - max(0.0, dense.get(p, 0.0)))
            * (1 - w_lexical * lexical.get(p, 0.0) / (lexical.get(p, 0.0) + k))
            for p in points
        }
    )


def decayed(fused: Fused, rounds: Mapping[int, int], factor: float) -> Fused:
    """Each score times ``factor`` per round the memory is older than the newest
    candidate: a decay with one half-life per ``log(0.5) / log(factor)`` rounds."""
    if not fused:
        return fused
    newest = max(rounds[p] for p, _ in fused)
    return _ordered({p: s * factor ** (newest - rounds[p]) for p, s in fused})


def newest_within(fused: Fused, created: Mapping[int, int], epsilon: float) -> Fused:
    """Recency tie-break: of the candidates within ``epsilon`` of the best score, the
    newest (highest creation order) goes first; the rest keep their order."""
    if not fused:
        return fused
    close = [item for item in fused if item[1] >= fused[0][1] - epsilon]
    first = max(close, key=lambda item: created[item[0]])
    return [first] + [item for item in fused if item[0] != first[0]]
