"""Recency: how a search weighs memories by age, and the clock it measures age by.

A memory's score is its relevance times 0.5 + 0.5 * 0.5 ** (age / half_life)
(store/formulas.py computes it in the engine): 1 for a memory updated now,
0.75 after one half-life, never below 0.5. Age is measured at the start of
the recency clock's current step, so a repeated search within a step scores
the same, and a Preload etag can hold for a step (core/preload_etags.py).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

#: For searches that set no recency_half_life (server setting recency_half_life_seconds).
DEFAULT_HALF_LIFE = timedelta(days=30)
#: The longest recency_half_life a request may set: a century.
MAX_HALF_LIFE = timedelta(days=36_525)
#: The clock's step: at most a minute, and at most 1/4096 of the half-life, so
#: a weight moves by less than 1e-4 within a step.
MAX_STEP = timedelta(minutes=1)
STEPS_PER_HALF_LIFE = 4096

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def clock_step(half_life: timedelta, now: datetime) -> tuple[datetime, datetime] | None:
    """The step of the recency clock ``now`` falls in, as (start, end); None
    when ``half_life`` is zero (recency off)."""
    if not half_life:
        return None
    step = min(MAX_STEP, half_life / STEPS_PER_HALF_LIFE)
    start = now - (now - _EPOCH) % step
    return start, start + step
