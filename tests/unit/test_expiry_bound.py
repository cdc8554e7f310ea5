"""Which "not expired" parts the embedded index leaves out of a read's filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memoryd.core.documents import iso_time
from memoryd.core.expiry import expired_at, live_at
from memoryd.core.filters import AllOf, Condition, Not, Operator, all_of, equals
from memoryd.store.expiry_bound import MARGIN, ExpiryBound

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
OWNER = equals("user_id", "u")


def bound_of(*expire_times: datetime | str | None) -> ExpiryBound:
    bound = ExpiryBound()
    bound.note(
        {} if t is None else {"expire_time": t if isinstance(t, str) else iso_time(t)}
        for t in expire_times
    )
    return bound


def test_with_no_expiring_memory_a_read_keeps_only_its_other_parts():
    bound = bound_of(None, None)
    assert bound.earliest is None
    assert bound.without_moot_parts(all_of(OWNER, live_at(NOW))) == OWNER
    category = equals("category", "work")
    assert bound.without_moot_parts(AllOf((OWNER, live_at(NOW), category))) == AllOf(
        (OWNER, category)
    )


def test_the_part_stays_from_a_margin_before_the_earliest_expire_time_on():
    first = NOW + timedelta(hours=1)
    bound = bound_of(NOW + timedelta(hours=5), first, None)
    assert bound.earliest == first
    before = first - MARGIN - timedelta(microseconds=1)
    assert bound.without_moot_parts(all_of(OWNER, live_at(before))) == OWNER
    for now in (first - MARGIN, first, first + timedelta(days=1)):
        where = all_of(OWNER, live_at(now))
        assert bound.without_moot_parts(where) == where


def test_a_later_note_only_lowers_the_bound():
    bound = bound_of(NOW)
    bound.note([{"expire_time": iso_time(NOW + timedelta(days=1))}, {}])
    assert bound.earliest == NOW


def test_only_not_expired_parts_of_a_conjunction_are_left_out():
    bound = bound_of(None)
    alone = live_at(NOW)
    assert bound.without_moot_parts(alone) == alone
    unchanged = [
        all_of(OWNER, expired_at(NOW)),  # the purge's "expired": not moot
        all_of(OWNER, Not(Condition("update_time", Operator.LTE, (NOW,)))),
        all_of(OWNER, Not(Condition("expire_time", Operator.LT, (NOW,)))),
        all_of(OWNER, Not(Condition("expire_time", Operator.LTE, (NOW.replace(tzinfo=None),)))),
    ]
    for where in unchanged:
        assert bound.without_moot_parts(where) == where


def test_an_unreadable_stored_time_keeps_every_part():
    for stored in ("not a time", "2026-05-01T12:00:00", 17):
        bound = ExpiryBound()
        bound.note([{"expire_time": stored}])
        where = all_of(OWNER, live_at(NOW - timedelta(days=3650)))
        assert bound.without_moot_parts(where) == where
