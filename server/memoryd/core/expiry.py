"""Expiry: a memory past its expire_time is gone for every read, at once.

Reads never wait for the purge: every read path adds ``live_at(now)`` to its
filter, so an expired memory disappears at its expire_time exactly, with no
sweeper window. (The embedded index leaves that part out while no memory it
holds can have expired yet: store/expiry_bound.py.) The purge (an EXPIRE
write, journaled and applied in order like any other, see core/indexer.py)
then deletes expired points to reclaim space, and each deletion becomes an
EXPIRED change event.

The stored field is ``expire_time`` (RFC 3339, as core/documents.py writes
it), absent for a memory that never expires.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from memoryd.core.documents import micros
from memoryd.core.filters import Condition, Filter, Not, Operator
from memoryd.core.model import Memory

EXPIRE_FIELD = "expire_time"


def live_at(now: datetime) -> Filter:
    """The memories not expired at ``now``: no expire_time, or one after it.

    Said as "not expired", one negated range over the indexed expire_time: a
    memory without the field fails the range, so the negation keeps it. The
    engine answers that from the payload index; the equivalent "missing or
    later" disjunction read every candidate's payload (0.4 ms more per query
    at 3k memories, bench/hot_path_stages.py).
    """
    return Not(expired_at(now))


def live_cutoff(part: Filter) -> datetime | None:
    """The ``now`` of a ``live_at(now)`` filter; None for any other filter."""
    match part:
        case Not(Condition(field, Operator.LTE, (datetime() as now,))) if field == EXPIRE_FIELD:
            return now
        case _:
            return None


def expired_at(cutoff: datetime) -> Filter:
    """The memories expired at ``cutoff``: an expire_time at or before it."""
    return Condition(EXPIRE_FIELD, Operator.LTE, (cutoff,))


def is_expired(memory: Memory, now: datetime) -> bool:
    """Whether ``memory`` is expired at ``now``: the test ``live_at`` filters by."""
    return memory.expire_time is not None and memory.expire_time <= now


def etag_until_expiry(etag: str, memories: Iterable[Memory], until: datetime | None = None) -> str:
    """A quoted etag, bounded by the first expire_time among ``memories`` (a
    Preload's hits): from that instant the same request yields another context,
    though no write has changed the scope. ``until`` bounds it too."""
    ends = [m.expire_time for m in memories if m.expire_time is not None]
    if until is not None:
        ends.append(until)
    if not ends:
        return etag
    return f'{etag[:-1]}@{micros(min(ends))}"'


def etag_holds(if_none_match: str, etag: str, now: datetime) -> bool:
    """Whether a client's etag (from etag_until_expiry) still names the context
    ``etag`` names, at ``now``."""
    digest, is_bounded, until = if_none_match.strip('"').partition("@")
    if not if_none_match or f'"{digest}"' != etag:
        return False
    return not is_bounded or (until.isdigit() and micros(now) < int(until))
