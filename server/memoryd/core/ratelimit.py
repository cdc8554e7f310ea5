"""Per-principal rate limits: one token bucket per principal name."""

from __future__ import annotations

import time
from collections.abc import Callable

from memoryd.core.errors import RateLimited

#: Buckets kept at most; the idlest are dropped first (a full bucket is the
#: same as no bucket, so dropping one never lets a caller burst beyond limits
#: by more than one refill).
_MAX_BUCKETS = 100_000


class RateLimiter:
    """Allows each principal ``burst`` requests at once and ``per_second``
    sustained. ``per_second`` 0 turns the limit off."""

    def __init__(
        self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = per_second
        self._burst = max(1, burst)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    @property
    def is_enabled(self) -> bool:
        return self._rate > 0

    def acquire(self, principal: str) -> None:
        """Takes one token of ``principal``'s bucket; raises RateLimited, with
        the wait until the next token, when it is empty."""
        if not self.is_enabled:
            return
        now = self._clock()
        tokens, last = self._buckets.pop(principal, (float(self._burst), now))
        tokens = min(float(self._burst), tokens + (now - last) * self._rate)
        if tokens < 1.0:
            self._buckets[principal] = (tokens, now)
            raise RateLimited(retry_after=(1.0 - tokens) / self._rate)
        self._buckets[principal] = (tokens - 1.0, now)
        if len(self._buckets) > _MAX_BUCKETS:
            del self._buckets[next(iter(self._buckets))]
