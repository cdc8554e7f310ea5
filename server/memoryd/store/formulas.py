"""The score formulas a search ranks by, as backend-neutral expression trees.

Qdrant's universal query API rescores prefetched candidates by a formula over
their prefetch scores (``$score[i]``) and payload; both Qdrant Edge and
qdrant-client take one, each in its own constructors (store/edge_queries.py,
store/client_queries.py). The trees here say what the formula is once.

- ``noisy_or``: hybrid relevance, the chance that either signal is right.
  The cosine and BM25 squashed into [0, 1) by b / (b + k) combine as
  1 - (1 - cos) (1 - lex). A memory sharing no word with the query scores
  exactly its cosine; each matching word only raises it; for a cosine in
  [0, 1] the score stays in [0, 1]. A negative cosine is kept, not clamped,
  so that irrelevant memories still rank by meaning instead of tying at 0
  (core/retrieval.py clamps the score it returns). Chosen by
  bench/fusion_study.py on the recall sets against RRF and DBSF (see the
  README's retrieval section).
- ``recency_weight``: 1 for a memory written at ``now``, falling towards
  RECENCY_FLOOR with age: FLOOR + (1 - FLOOR) * 0.5 ** (age / half_life).
  A relevance times this weight never exceeds the relevance, so a score
  threshold keeps meaning "at least this relevant", and an old memory loses at
  most half its score to a new one.
"""

from __future__ import annotations

from dataclasses import dataclass

#: BM25 score at which the lexical signal counts one half: b / (b + k).
LEXICAL_HALF_SCORE = 20.0
#: The weight an infinitely old memory keeps.
RECENCY_FLOOR = 0.5
#: The payload field a memory's age is measured from (core/documents.py).
RECENCY_FIELD = "update_time"


@dataclass(frozen=True, slots=True)
class Constant:
    value: float


@dataclass(frozen=True, slots=True)
class PrefetchScore:
    """The score of prefetch ``index``; 0 for a point that prefetch did not return."""

    index: int


@dataclass(frozen=True, slots=True)
class Sum:
    terms: tuple[Expression, ...]


@dataclass(frozen=True, slots=True)
class Product:
    factors: tuple[Expression, ...]


@dataclass(frozen=True, slots=True)
class Negative:
    value: Expression


@dataclass(frozen=True, slots=True)
class Quotient:
    """left / right, and 0 where right is 0."""

    left: Expression
    right: Expression


@dataclass(frozen=True, slots=True)
class HalvingWithAge:
    """0.5 ** (|field - now| / half_life_seconds), ``field`` a payload datetime
    and ``now`` RFC 3339 text: the engine's exponential decay at midpoint 0.5."""

    field: str
    now: str
    half_life_seconds: float


Expression = Constant | PrefetchScore | Sum | Product | Negative | Quotient | HalvingWithAge


def one_minus(value: Expression) -> Expression:
    return Sum((Constant(1.0), Negative(value)))


def noisy_or(dense: int, lexical: int) -> Expression:
    """Hybrid relevance from a dense and a BM25 prefetch (see the module docstring)."""
    bm25 = PrefetchScore(lexical)
    squashed = Quotient(bm25, Sum((bm25, Constant(LEXICAL_HALF_SCORE))))
    return one_minus(Product((one_minus(PrefetchScore(dense)), one_minus(squashed))))


def recency_weight(now: str, half_life_seconds: float) -> Expression:
    """The weight of a memory's age at ``now`` (see the module docstring)."""
    halving = HalvingWithAge(RECENCY_FIELD, now, half_life_seconds)
    return Sum((Constant(RECENCY_FLOOR), Product((Constant(1.0 - RECENCY_FLOOR), halving))))
