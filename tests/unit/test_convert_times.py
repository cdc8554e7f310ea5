"""convert.set_time sets a Timestamp as Timestamp.FromDatetime does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from google.protobuf import timestamp_pb2

from memoryd.api.convert import set_time


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 12, 3, 16, 28, 29, 123456, tzinfo=UTC),
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2026, 6, 1, 8, 0, 0, 1, tzinfo=timezone(timedelta(hours=-7, minutes=-30))),
        datetime(2026, 6, 1, 8, 0, 0, 999999),  # naive: read as UTC
    ],
)
def test_set_time_matches_from_datetime(value: datetime) -> None:
    expected, actual = timestamp_pb2.Timestamp(), timestamp_pb2.Timestamp()
    expected.FromDatetime(value)
    set_time(actual, value)
    assert actual == expected
