"""The default vector index: Qdrant Edge, the real Qdrant engine in-process, on disk.

The shard is never optimized here: optimize() builds HNSW while holding the
GIL (47 s at 100k points), which would freeze the server. Filtered searches
over the tenant index stay in the millisecond range without HNSW.

Index schema 2 adds the BM25 sparse vector for hybrid retrieval. A data
directory of schema 1 (dense only) is migrated when opened: the sparse vector
is created and filled from each point's stored content.

What a search runs (store/query_plan.py), where a page resumes
(store/newest_first.py), the filters and the payload indexes are written once
for both backends; here and in edge_queries.py and qdrant_filters.py they
only become qdrant-edge-py's objects.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.errors import IncompatibleIndex
from memoryd.core.filters import Filter
from memoryd.core.ports import Hit, IndexSpec, Point, Record, ScrollCursor, ScrollPage, Search
from memoryd.store.base import DENSE, ORDER_FIELD, floats, payload_indexes, to_record
from memoryd.store.edge_queries import to_edge_request
from memoryd.store.lexical import SPARSE, document_terms
from memoryd.store.newest_first import plan_scroll, scroll_page
from memoryd.store.qdrant_filters import to_edge_filter
from memoryd.store.query_plan import plan_query

logger = logging.getLogger(__name__)

MANIFEST = "index.json"
SCHEMA = 2
_MIGRATION_PAGE = 1_000
_T = TypeVar("_T")


class DataDirInUse(IncompatibleIndex):
    """Another process owns the shard directory."""


class EdgeIndex:
    """A VectorIndex over one Qdrant Edge shard under ``data_dir``.

    Engine calls run on a small thread pool so the event loop never blocks;
    the shard object is safe to share between threads.
    """

    supports_hybrid = True

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
            schema = _check_manifest(manifest, spec)
            shard = _load(shard_dir)
            if schema < SCHEMA:
                _add_sparse_vectors(shard)
                _write_manifest(manifest, spec)
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
        edge_points = [
            qe.Point(p.id, {DENSE: floats(p.vector), SPARSE: _sparse(p.text)}, dict(p.payload))
            for p in points
        ]
        await self._call(self._shard.update, qe.UpdateOperation.upsert_points(edge_points))

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        if not searches:
            return []
        plans = [plan_query(s) for s in searches]
        requests = [to_edge_request(plan) for plan in plans]
        batches = await self._call(self._shard.query_batch, qe.QueryBatchRequest(requests))
        return [plan.hits(points) for plan, points in zip(plans, batches, strict=True)]

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        if not ids:
            return []
        records = await self._call(self._shard.retrieve, list(ids), True, with_vectors)
        return [to_record(r, with_vector=with_vectors) for r in records]

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        plan = plan_scroll(where, limit, after)
        # Edge takes a time as the text iso_time stores.
        start_from = None if plan.start_from is None else iso_time(plan.start_from)
        request = qe.ScrollRequest(
            limit=plan.limit,
            filter=to_edge_filter(plan.where, excluding_ids=plan.seen_ids),
            with_payload=True,
            order_by=qe.OrderBy(ORDER_FIELD, qe.Direction.Desc, start_from=start_from),
        )
        records, _ = await self._call(self._shard.scroll, request)
        return scroll_page(records)

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


def _sparse(text: str) -> Any:
    return qe.SparseVector(*document_terms(text))


def _create(shard_dir: Path, spec: IndexSpec) -> Any:
    config = qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=spec.dimension, distance=qe.Distance.Cosine)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
    )
    shard = qe.EdgeShard.create(str(shard_dir), config)
    indexes: dict[str, qe.PayloadSchemaType | qe.KeywordIndexParams] = payload_indexes(
        qe.KeywordIndexParams(is_tenant=True),
        qe.PayloadSchemaType.Keyword,
        qe.PayloadSchemaType.Datetime,
    )
    for name, schema in indexes.items():
        shard.update(qe.UpdateOperation.create_field_index(name, schema))
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


def _add_sparse_vectors(shard: Any) -> None:
    """Migrates a schema 1 shard: creates the BM25 vector and fills it from
    each point's content, a page at a time. Safe to run again if interrupted,
    since the manifest moves to schema 2 only afterwards."""
    info = shard.info()
    logger.info("migrating the index to schema %d: adding BM25 vectors", SCHEMA)
    try:
        shard.update(qe.UpdateOperation.create_sparse_vector(SPARSE, qe.Modifier.Idf))
    except Exception as exc:  # the binding raises plain exceptions; a rerun finds it created
        if "exist" not in str(exc).lower():
            raise
    offset = None
    migrated = 0
    while True:
        request = qe.ScrollRequest(
            offset=offset, limit=_MIGRATION_PAGE, with_payload=True, with_vector=False
        )
        records, offset = shard.scroll(request)
        if records:
            vectors = [
                qe.PointVectors(r.id, {SPARSE: _sparse(str((r.payload or {}).get("content", "")))})
                for r in records
            ]
            shard.update(qe.UpdateOperation.update_vectors(vectors))
            migrated += len(records)
        if offset is None:
            break
    shard.flush()
    logger.info("migrated %d of %d points to schema %d", migrated, info.points_count, SCHEMA)


def _check_manifest(manifest: Path, spec: IndexSpec) -> int:
    """Returns the stored schema; raises IncompatibleIndex on another embedder."""
    stored = json.loads(manifest.read_text())
    if (stored.get("embedder_id"), stored.get("dimension")) != (spec.embedder_id, spec.dimension):
        raise IncompatibleIndex(
            f"the index in {manifest.parent} was built with embedder "
            f"{stored.get('embedder_id')!r} (dimension {stored.get('dimension')}), but this "
            f"server is configured with {spec.embedder_id!r} (dimension {spec.dimension}); "
            "configure the original embedder or use a new data directory"
        )
    schema = int(stored.get("schema", 1))
    if schema > SCHEMA:
        raise IncompatibleIndex(
            f"the index in {manifest.parent} has schema {schema}, newer than this server's "
            f"{SCHEMA}; upgrade memoryd"
        )
    return schema


def _write_manifest(manifest: Path, spec: IndexSpec) -> None:
    body = {"embedder_id": spec.embedder_id, "dimension": spec.dimension, "schema": SCHEMA}
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(body, indent=2) + "\n")
    tmp.replace(manifest)
