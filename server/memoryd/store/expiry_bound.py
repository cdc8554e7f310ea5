"""The earliest expire_time a shard holds, and the "not expired" filters it makes moot.

Every read adds "not expired at now" to its filter (core/expiry.py), and most
memories never expire. That part cost 40-55 µs of a 110-145 µs EdgeIndex.search
at 10k-100k points (100 per user, in process): a few µs are the engine's check
(bench/hot_path_stages.py), the rest is making and reading a time condition
that is new on every read, so no translation cache can keep it. Before the
earliest stored expire_time nothing is expired: the part matches every point,
and a conjunction can leave it out.

The bound is only known where this process is the shard's one writer: the
embedded engine, whose data directory is locked. It is the minimum at open,
lowered before each upsert that stores an earlier time and never raised by a
delete, so it can only be too low (the part is then kept, as before).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from memoryd.core.expiry import EXPIRE_FIELD, live_cutoff
from memoryd.core.filters import AllOf, Filter
from memoryd.core.ports import Payload

#: Times compared here and in the engine may round differently: a part is left
#: out only when the bound is this far past its cutoff.
MARGIN = timedelta(seconds=1)
#: The bound for a stored time this module cannot read: nothing is left out.
_UNREADABLE = datetime.min.replace(tzinfo=UTC)


class ExpiryBound:
    """At most the earliest expire_time among the stored points (None: none has one)."""

    def __init__(self) -> None:
        self._earliest: datetime | None = None

    @property
    def earliest(self) -> datetime | None:
        return self._earliest

    def note(self, payloads: Iterable[Payload]) -> None:
        """Lowers the bound to the expire_times of points stored, or about to be."""
        for payload in payloads:
            stored = payload.get(EXPIRE_FIELD)
            if stored is None:
                continue
            expire_time = _parse(stored)
            if self._earliest is None or expire_time < self._earliest:
                self._earliest = expire_time

    def without_moot_parts(self, where: Filter) -> Filter:
        """``where``, less the parts of its conjunction that say "not expired"
        at a time before the bound: they match every stored point."""
        if not isinstance(where, AllOf):
            return where
        kept = tuple(part for part in where.filters if not self._is_moot(part))
        if len(kept) == len(where.filters) or not kept:
            return where
        return kept[0] if len(kept) == 1 else AllOf(kept)

    def _is_moot(self, part: Filter) -> bool:
        cutoff = live_cutoff(part)
        if cutoff is None or cutoff.tzinfo is None:
            return False
        return self._earliest is None or cutoff + MARGIN < self._earliest


def _parse(stored: object) -> datetime:
    """A stored expire_time (core/documents.py's RFC 3339 text); anything else
    stands for the earliest time, so no part is ever left out on its account."""
    if isinstance(stored, str):
        try:
            parsed = datetime.fromisoformat(stored)
        except ValueError:
            return _UNREADABLE
        if parsed.tzinfo is not None:
            return parsed
    return _UNREADABLE
