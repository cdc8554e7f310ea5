"""The recency clock: steps of at most a minute, aligned, and off at a zero half-life."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memoryd.core.recency import DEFAULT_HALF_LIFE, clock_step

NOW = datetime(2026, 12, 3, 17, 4, 31, 250_000, tzinfo=UTC)


def test_the_default_half_life_steps_by_the_minute():
    assert clock_step(DEFAULT_HALF_LIFE, NOW) == (
        datetime(2026, 12, 3, 17, 4, tzinfo=UTC),
        datetime(2026, 12, 3, 17, 5, tzinfo=UTC),
    )


def test_a_short_half_life_steps_by_a_4096th_of_it():
    start, end = clock_step(timedelta(seconds=4096), NOW) or (NOW, NOW)
    assert end - start == timedelta(seconds=1)
    assert start == datetime(2026, 12, 3, 17, 4, 31, tzinfo=UTC)


def test_every_instant_of_a_step_has_that_step():
    start, end = clock_step(DEFAULT_HALF_LIFE, NOW) or (NOW, NOW)
    assert clock_step(DEFAULT_HALF_LIFE, start) == (start, end)
    assert clock_step(DEFAULT_HALF_LIFE, end - timedelta(microseconds=1)) == (start, end)
    assert clock_step(DEFAULT_HALF_LIFE, end) == (end, end + timedelta(minutes=1))


def test_a_zero_half_life_turns_recency_off():
    assert clock_step(timedelta(0), NOW) is None
