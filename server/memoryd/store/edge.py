"""The default vector index: Qdrant Edge, the real Qdrant engine in-process, on disk.

The shard is never optimized here: optimize() builds HNSW while holding the
GIL (47 s at 100k points), which would freeze the server. Filtered searches
over the tenant index stay in the millisecond range without HNSW.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.errors import IncompatibleIndex
from memoryd.core.filters import Filter
from memoryd.store.base import (
    DATETIME_FIELDS,
    KEYWORD_FIELDS,
    ORDER_FIELD,
    TENANT_FIELD,
    Hit,
    IndexSpec,
    Point,
    Record,
    ScrollCursor,
    ScrollPage,
    Search,
)
from memoryd.store.qdrant_filters import to_edge_filter

logger = logging.getLogger(__name__)

DENSE = "dense"
MANIFEST = "index.json"
_T = TypeVar("_T")


class DataDirInUse(IncompatibleIndex):
    """Another process owns the shard directory."""


class EdgeIndex:
    """A VectorIndex over one Qdrant Edge shard under ``data_dir``.

    Engine calls run on a small thread pool so the event loop never blocks;
    the shard object is safe to share between threads.
    """

    supports_hybrid = False

    def __init__(self, shard: Any, executor: ThreadPoolExecutor) -> None:
        self._shard = shard
        self._executor = executor
        self._closed = False

    @classmethod
    def open(cls, data_dir: Path, spec: IndexSpec, *, threads: int = 4) -> EdgeIndex:
        """Opens the shard in ``data_dir``, creating it on first use.

        Raises IncompatibleIndex if it was built for another embedder or
        dimension, and DataDirInUse if another process holds it.
        """
        data_dir.mkdir(parents=True, exist_ok=True)
        shard_dir = data_dir / "shard"
        manifest = data_dir / MANIFEST
        if manifest.exists():
            _check_manifest(manifest, spec)
            shard = _load(shard_dir)
        else:
            shard = _create(shard_dir, spec)
            _write_manifest(manifest, spec)
        executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qdrant-edge")
        return cls(shard, executor)

    async def _call(self, fn: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def upsert(self, points: Sequence[Point]) -> None:
        if not points:
            return
        edge_points = [qe.Point(p.id, {DENSE: list(p.vector)}, dict(p.payload)) for p in points]
        await self._call(self._shard.update, qe.UpdateOperation.upsert_points(edge_points))

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        if not searches:
            return []
        requests = [
            qe.QueryRequest(
                limit=s.limit,
                query=qe.Query.Nearest(list(s.vector), using=DENSE),
                filter=to_edge_filter(s.where),
                score_threshold=s.min_similarity,
                with_payload=True,
            )
            for s in searches
        ]
        batches = await self._call(self._shard.query_batch, qe.QueryBatchRequest(requests))
        return [
            [Hit(str(p.id), p.payload or {}, float(p.score)) for p in points] for points in batches
        ]

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        if not ids:
            return []
        records = await self._call(self._shard.retrieve, list(ids), True, with_vectors)
        return [
            Record(str(r.id), r.payload or {}, _dense(r.vector) if with_vectors else None)
            for r in records
        ]

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        edge_filter = to_edge_filter(where)
        start_from = None
        if after is not None:
            start_from = iso_time(datetime.fromtimestamp(after.order_value / 1e6, UTC))
            if after.seen_ids:
                edge_filter = qe.Filter(
                    must=[edge_filter],
                    must_not=[qe.HasIdCondition(set(after.seen_ids))],
                )
        request = qe.ScrollRequest(
            limit=limit,
            filter=edge_filter,
            with_payload=True,
            order_by=qe.OrderBy(ORDER_FIELD, qe.Direction.Desc, start_from=start_from),
        )
        records, _ = await self._call(self._shard.scroll, request)
        return ScrollPage(
            tuple(Record(str(r.id), r.payload or {}) for r in records),
            tuple(int(r.order_value or 0) for r in records),
        )

    async def count(self, where: Filter) -> int:
        request = qe.CountRequest(filter=to_edge_filter(where), exact=True)
        return int(await self._call(self._shard.count, request))

    async def delete(self, ids: Sequence[str]) -> None:
        if ids:
            await self._call(self._shard.update, qe.UpdateOperation.delete_points(list(ids)))

    async def delete_where(self, where: Filter) -> None:
        operation = qe.UpdateOperation.delete_points_by_filter(to_edge_filter(where))
        await self._call(self._shard.update, operation)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._call(self._shard.flush)
        self._executor.shutdown(wait=True)
        self._shard.close()


def _dense(vector: Any) -> list[float]:
    return list(vector[DENSE]) if isinstance(vector, dict) else list(vector or [])


def _create(shard_dir: Path, spec: IndexSpec) -> Any:
    config = qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=spec.dimension, distance=qe.Distance.Cosine)}
    )
    shard = qe.EdgeShard.create(str(shard_dir), config)
    shard.update(
        qe.UpdateOperation.create_field_index(TENANT_FIELD, qe.KeywordIndexParams(is_tenant=True))
    )
    for name in KEYWORD_FIELDS:
        shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
    for name in DATETIME_FIELDS:
        shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Datetime))
    shard.flush()
    logger.info("created Qdrant Edge shard at %s (dimension %d)", shard_dir, spec.dimension)
    return shard


def _load(shard_dir: Path) -> Any:
    try:
        return qe.EdgeShard.load(str(shard_dir))
    except Exception as exc:  # the binding raises plain exceptions; WouldBlock means locked
        if "WouldBlock" in str(exc) or "lock" in str(exc).lower():
            raise DataDirInUse(
                f"{shard_dir} is in use by another memoryd process; stop it or use another "
                "data directory (MEMORYD_DATA_DIR)"
            ) from exc
        raise


def _check_manifest(manifest: Path, spec: IndexSpec) -> None:
    stored = json.loads(manifest.read_text())
    if (stored.get("embedder_id"), stored.get("dimension")) != (spec.embedder_id, spec.dimension):
        raise IncompatibleIndex(
            f"the index in {manifest.parent} was built with embedder "
            f"{stored.get('embedder_id')!r} (dimension {stored.get('dimension')}), but this "
            f"server is configured with {spec.embedder_id!r} (dimension {spec.dimension}); "
            "configure the original embedder or use a new data directory"
        )


def _write_manifest(manifest: Path, spec: IndexSpec) -> None:
    body = {"embedder_id": spec.embedder_id, "dimension": spec.dimension, "schema": 1}
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(body, indent=2) + "\n")
    tmp.replace(manifest)
