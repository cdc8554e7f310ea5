"""Spans around vector index calls, as a wrapper composed in server.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from opentelemetry import trace

from memoryd.core.filters import AllOf, Condition, Filter
from memoryd.core.instruments import Telemetry
from memoryd.core.ports import (
    Hit,
    Point,
    Record,
    ScanPage,
    ScrollCursor,
    ScrollPage,
    Search,
    VectorIndex,
)


class TracedIndex:
    """One span per engine call, named ``qdrant.<operation>``, with the
    collection, the number of points and the kind of scope filter (never the
    filter's values: they hold user ids)."""

    def __init__(self, inner: VectorIndex, telemetry: Telemetry, collection: str) -> None:
        self._inner = inner
        self._tracer = telemetry.tracer
        self._collection = collection
        self.supports_hybrid = getattr(inner, "supports_hybrid", False)

    @contextmanager
    def _span(self, operation: str, **attributes: Any) -> Iterator[trace.Span]:
        with self._tracer.start_as_current_span(f"qdrant.{operation}") as span:
            span.set_attributes(
                {
                    "db.system.name": "qdrant",
                    "db.operation.name": operation,
                    "db.collection.name": self._collection,
                    **attributes,
                }
            )
            yield span

    async def upsert(self, points: Sequence[Point]) -> None:
        with self._span("upsert", **{"db.operation.batch.size": len(points)}):
            await self._inner.upsert(points)

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        kind = filter_kind(searches[0].where) if searches else "none"
        with self._span(
            "query", **{"db.operation.batch.size": len(searches), "memoryd.filter.kind": kind}
        ) as span:
            results = await self._inner.search(searches)
            span.set_attribute("db.response.returned_rows", sum(len(r) for r in results))
            return results

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        with self._span("retrieve", **{"db.operation.batch.size": len(ids)}):
            return await self._inner.retrieve(ids, with_vectors=with_vectors)

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        with self._span("scroll", **{"memoryd.filter.kind": filter_kind(where)}) as span:
            page = await self._inner.scroll_newest_first(where, limit, after)
            span.set_attribute("db.response.returned_rows", len(page.records))
            return page

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        kind = "all" if where is None else filter_kind(where)
        with self._span("scan", **{"memoryd.filter.kind": kind}) as span:
            page = await self._inner.scan(where, limit, offset, with_vectors=with_vectors)
            span.set_attribute("db.response.returned_rows", len(page.records))
            return page

    async def count(self, where: Filter) -> int:
        with self._span("count", **{"memoryd.filter.kind": filter_kind(where)}):
            return await self._inner.count(where)

    async def delete(self, ids: Sequence[str]) -> None:
        with self._span("delete", **{"db.operation.batch.size": len(ids)}):
            await self._inner.delete(ids)

    async def delete_where(self, where: Filter) -> None:
        with self._span("delete", **{"memoryd.filter.kind": filter_kind(where)}):
            await self._inner.delete_where(where)

    async def flush(self) -> None:
        with self._span("flush"):
            await self._inner.flush()

    async def close(self) -> None:
        await self._inner.close()


def filter_kind(where: Filter) -> str:
    """ "user", "shared" or "other": which scope a filter reads, for span attributes."""
    first = where.filters[0] if isinstance(where, AllOf) and where.filters else where
    if isinstance(first, Condition) and first.field == "user_id":
        return "shared" if first.values == ("",) else "user"
    return "other"
