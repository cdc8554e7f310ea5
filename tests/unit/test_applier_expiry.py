"""The applier's dedup and updates at a write's journal time: memories expired then do
not count, and a replayed write stays a replay. Real Edge index, explicit times."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memoryd.core.applier import Applier
from memoryd.core.errors import MemoryNotFound
from memoryd.core.model import MemoryChange, NewMemory, Scope, WriteOutcome
from memoryd.core.ports import IndexSpec
from memoryd.core.validation import Limits
from memoryd.store.edge import EdgeIndex

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
SCOPE = Scope(user_id="u1")
VECTOR = [1.0, 0.0, 0.0, 0.0]


def run[T](coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@pytest.fixture
def applier(tmp_path: Path) -> Applier:
    index = EdgeIndex.open(tmp_path, IndexSpec("test-embedder", len(VECTOR)))
    return Applier(index, limits=Limits(), dedup_threshold=0.95)


def _create(applier: Applier, new: NewMemory, seq: int, at: datetime) -> Any:
    (result,) = run(applier.create([new], [VECTOR], seq, at))
    return result


def test_an_id_expired_at_the_write_time_is_created_afresh_and_replays_as_created(applier):
    first = NewMemory("Parked on level 3", SCOPE, memory_id="car", ttl_seconds=1)
    assert _create(applier, first, 1, T0).memory.expire_time == T0 + timedelta(seconds=1)
    later = T0 + timedelta(seconds=1)  # the instant it expires
    again = NewMemory("Parked on level 5", SCOPE, memory_id="car")
    result = _create(applier, again, 2, later)
    assert (result.outcome, result.memory.version) == (WriteOutcome.CREATED, 1)
    assert result.memory.create_time == later and result.memory.expire_time is None
    replayed = _create(applier, again, 2, later)
    assert (replayed.outcome, replayed.memory) == (WriteOutcome.CREATED, result.memory)


def test_a_live_id_is_updated_and_takes_the_new_expiry(applier):
    _create(applier, NewMemory("Parked on level 3", SCOPE, memory_id="car", ttl_seconds=60), 1, T0)
    again = NewMemory("Parked on level 4", SCOPE, memory_id="car", ttl_seconds=30)
    result = _create(applier, again, 2, T0 + timedelta(seconds=59))
    assert (result.outcome, result.memory.version) == (WriteOutcome.UPDATED_EXISTING, 2)
    assert result.memory.expire_time == T0 + timedelta(seconds=89)


def test_a_key_expired_at_the_write_time_is_free(applier):
    keyed = NewMemory("Flight at 9", SCOPE, memory_key="flight", generated_id="a", ttl_seconds=5)
    _create(applier, keyed, 1, T0)
    before = NewMemory("Flight at 10", SCOPE, memory_key="flight", generated_id="b")
    assert _create(applier, before, 2, T0 + timedelta(seconds=4)).outcome is (
        WriteOutcome.UPDATED_EXISTING
    )
    # That update took the new create's expiry: none.
    after = NewMemory("Flight at 11", SCOPE, memory_key="flight", generated_id="c")
    assert _create(applier, after, 3, T0 + timedelta(days=1)).outcome is (
        WriteOutcome.UPDATED_EXISTING
    )
    short = NewMemory("Flight at 12", SCOPE, memory_key="flight", generated_id="d", ttl_seconds=5)
    _create(applier, short, 4, T0 + timedelta(days=2))
    fresh = NewMemory("Flight at 13", SCOPE, memory_key="flight", generated_id="e")
    result = _create(applier, fresh, 5, T0 + timedelta(days=3))
    assert (result.outcome, result.memory.id, result.memory.version) == (
        WriteOutcome.CREATED,
        "e",
        1,
    )


def test_an_expired_memory_is_no_near_duplicate(applier):
    _create(applier, NewMemory("Likes jazz", SCOPE, generated_id="a", ttl_seconds=10), 1, T0)
    live = _create(applier, NewMemory("Likes jazz", SCOPE, generated_id="b"), 2, T0)
    assert (live.outcome, live.memory.id) == (WriteOutcome.SKIPPED_DUPLICATE, "a")
    expired = _create(
        applier, NewMemory("Likes jazz", SCOPE, generated_id="c"), 3, T0 + timedelta(seconds=10)
    )
    assert (expired.outcome, expired.memory.id) == (WriteOutcome.CREATED, "c")


def test_an_update_that_expires_its_memory_replays_and_later_ones_miss_it(applier):
    _create(applier, NewMemory("Has a cold", SCOPE, memory_id="m"), 1, T0)
    at = T0 + timedelta(hours=1)
    change = MemoryChange("m", SCOPE, changes_expiry=True, expire_time=T0)
    updated = run(applier.update(change, None, 2, at))
    assert (updated.version, updated.expire_time) == (2, T0)
    assert run(applier.update(change, None, 2, at)) == updated  # replayed
    with pytest.raises(MemoryNotFound):
        run(applier.update(MemoryChange("m", SCOPE, content="Better"), None, 3, at))
    with pytest.raises(MemoryNotFound):
        run(applier.owned("m", SCOPE, at))


def test_an_update_ttl_counts_from_the_update_and_other_fields_keep_the_expiry(applier):
    _create(applier, NewMemory("Waits for a parcel", SCOPE, memory_id="m"), 1, T0)
    at = T0 + timedelta(minutes=5)
    ttl = run(applier.update(MemoryChange("m", SCOPE, ttl_seconds=90), None, 2, at))
    assert ttl.expire_time == at + timedelta(seconds=90)
    renamed = run(applier.update(MemoryChange("m", SCOPE, category="errands"), None, 3, at))
    assert renamed.expire_time == ttl.expire_time
    cleared = run(applier.update(MemoryChange("m", SCOPE, changes_expiry=True), None, 4, at))
    assert cleared.expire_time is None
