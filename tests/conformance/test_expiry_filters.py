"""Reads that say "not expired at t", on every backend: the points they see, whatever
the index remembers of its earliest expire_time (store/expiry_bound.py).

Each check runs the filter through search, newest-first scroll, scan and count,
and compares with a plain reading of the stored expire_times.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from test_vector_index import E1, E2, E3, SPEC, T0, A, B, C, D, document, of_user

from memoryd.core.documents import iso_time
from memoryd.core.expiry import live_at
from memoryd.core.ports import Point, Search, VectorIndex

if TYPE_CHECKING:
    from conftest import IndexBackend

SOON, LATER = T0 + timedelta(hours=1), T0 + timedelta(hours=2)


def expiring(point_id: str, vector: Sequence[float], expire_time: datetime | None) -> Point:
    payload: dict[str, Any] = document("user-1", T0, {})
    payload["memory_id"] = point_id
    if expire_time is not None:
        payload["expire_time"] = iso_time(expire_time)
    return Point(point_id, vector, payload)


async def live_ids(index: VectorIndex, now: datetime) -> dict[str, set[str]]:
    """The ids each read returns for user-1's memories not expired at ``now``."""
    where = of_user("user-1", live_at(now))
    (hits,) = await index.search([Search(E1, where, limit=10)])
    page = await index.scroll_newest_first(where, 10, None)
    scanned = await index.scan(where, 10, None)
    return {
        "search": {h.id for h in hits},
        "scroll": {r.id for r in page.records},
        "scan": {r.id for r in scanned.records},
        "count": {str(await index.count(where))},
    }


def expected(ids: set[str]) -> dict[str, set[str]]:
    return {"search": ids, "scroll": ids, "scan": ids, "count": {str(len(ids))}}


async def check_reads(index: VectorIndex, points: Sequence[Point]) -> None:
    """Every read at times around each stored expire_time sees exactly the live points."""
    expiries = [iso for p in points if (iso := p.payload.get("expire_time"))]
    times = [T0 - timedelta(days=365), T0, LATER + timedelta(days=365)]
    for iso in expiries:
        moment = datetime.fromisoformat(iso)
        times += [moment - timedelta(seconds=2), moment - timedelta(microseconds=1), moment]
        times += [moment + timedelta(microseconds=1), moment + timedelta(seconds=2)]
    for now in times:
        live = {
            p.id
            for p in points
            if "expire_time" not in p.payload
            or datetime.fromisoformat(p.payload["expire_time"]) > now
        }
        assert await live_ids(index, now) == expected(live), now


def test_a_memory_stored_with_the_first_expire_time_expires_on_time(
    backend: IndexBackend,
) -> None:
    async def main() -> None:
        index = await backend.open(SPEC)
        try:
            never = [expiring(A, E1, None), expiring(B, E2, None)]
            await index.upsert(never)
            await check_reads(index, never)
            later = [*never, expiring(C, E3, LATER)]
            await index.upsert(later[2:])
            await check_reads(index, later)
            sooner = [*later, expiring(D, E1, SOON)]
            await index.upsert(sooner[3:])
            await check_reads(index, sooner)
        finally:
            await index.close()

    asyncio.run(main())


def test_a_reopened_index_still_hides_memories_past_their_expire_time(
    backend: IndexBackend,
) -> None:
    points = [expiring(A, E1, None), expiring(B, E2, LATER), expiring(C, E3, SOON)]

    async def main() -> None:
        index = await backend.open(SPEC)
        await index.upsert(points)
        index = await backend.reopen(index, SPEC)
        try:
            await check_reads(index, points)
        finally:
            await index.close()

    asyncio.run(main())


def test_a_memory_whose_expiry_was_lifted_stays_live(backend: IndexBackend) -> None:
    """The earliest expire_time an index remembers may be one no point has any longer."""
    points = [expiring(A, E1, None), expiring(B, E2, SOON)]
    lifted = [points[0], expiring(B, E2, None)]

    async def main() -> None:
        index = await backend.open(SPEC)
        try:
            await index.upsert(points)
            await index.upsert(lifted[1:])
            await check_reads(index, lifted)
            index = await backend.reopen(index, SPEC)
            await check_reads(index, lifted)
        finally:
            await index.close()

    asyncio.run(main())
