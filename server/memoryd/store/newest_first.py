"""Newest-first paging, once for every backend: where a page resumes, and what it holds.

Pages are ordered by base.ORDER_FIELD, descending. Qdrant's start_from is
inclusive, so a page resumes at the cursor's time itself, and the points
sharing that time which earlier pages returned are excluded by id instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memoryd.core.filters import Filter
from memoryd.core.ports import Record, ScrollCursor, ScrollPage
from memoryd.store.base import OrderedPoint

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class ScrollPlan:
    """One page: up to ``limit`` points matching ``where`` except ``seen_ids``,
    newest first, from ``start_from`` (inclusive) or from the newest."""

    where: Filter
    limit: int
    start_from: datetime | None = None
    seen_ids: tuple[str, ...] = ()


def plan_scroll(where: Filter, limit: int, after: ScrollCursor | None) -> ScrollPlan:
    """The page of ``where`` that follows the cursor ``after`` (None: the first)."""
    if after is None:
        return ScrollPlan(where, limit)
    # The cursor's order value is a create_time in microseconds since the epoch.
    start_from = _EPOCH + timedelta(microseconds=after.order_value)
    return ScrollPlan(where, limit, start_from, after.seen_ids)


def scroll_page(points: Iterable[OrderedPoint]) -> ScrollPage:
    """The ScrollPage of an ordered scroll's points, with their order values."""
    ordered = list(points)
    return ScrollPage(
        tuple(Record(str(p.id), p.payload or {}) for p in ordered),
        tuple(int(p.order_value or 0) for p in ordered),
    )
