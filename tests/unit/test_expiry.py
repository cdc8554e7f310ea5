"""Expiry: which memories a read still sees, and how long a Preload etag holds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memoryd.core.expiry import etag_holds, etag_until_expiry, is_expired
from memoryd.core.model import Memory, MemoryType, Scope

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ETAG = '"0123456789abcdef0123456789abcdef"'


def _memory(expire_time: datetime | None) -> Memory:
    return Memory(
        "m", "text", Scope(user_id="u"), MemoryType.EPISODIC, "general", {}, "", NOW, NOW, 1,
        expire_time,
    )  # fmt: skip


def test_a_memory_is_expired_from_its_expire_time_on():
    assert not is_expired(_memory(None), NOW)
    assert not is_expired(_memory(NOW + timedelta(microseconds=1)), NOW)
    assert is_expired(_memory(NOW), NOW)


def test_an_etag_without_expiring_hits_is_unchanged_and_holds():
    assert etag_until_expiry(ETAG, [_memory(None)]) == ETAG
    assert etag_holds(ETAG, ETAG, NOW + timedelta(days=3650))


def test_an_etag_holds_until_the_first_hit_expires():
    first, later = NOW + timedelta(seconds=5), NOW + timedelta(hours=1)
    bounded = etag_until_expiry(ETAG, [_memory(later), _memory(None), _memory(first)])
    assert bounded.startswith(ETAG[:-1]) and bounded.endswith('"')
    assert etag_holds(bounded, ETAG, first - timedelta(microseconds=1))
    assert not etag_holds(bounded, ETAG, first)


def test_other_and_malformed_etags_never_hold():
    assert not etag_holds("", ETAG, NOW)
    assert not etag_holds('"ffff"', ETAG, NOW)
    assert not etag_holds(ETAG[:-1] + '@soon"', ETAG, NOW)
    assert not etag_holds(ETAG[:-1] + '@-5"', ETAG, NOW)


def test_an_etag_holds_until_the_earlier_of_the_first_expiry_and_its_until():
    expiry, until = NOW + timedelta(minutes=5), NOW + timedelta(minutes=1)
    bounded = etag_until_expiry(ETAG, [_memory(expiry)], until)
    assert etag_holds(bounded, ETAG, until - timedelta(microseconds=1))
    assert not etag_holds(bounded, ETAG, until)
    alone = etag_until_expiry(ETAG, [_memory(None)], until)
    assert etag_holds(alone, ETAG, until - timedelta(microseconds=1))
    assert not etag_holds(alone, ETAG, until)
