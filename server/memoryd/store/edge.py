"""The default vector index: Qdrant Edge, the real Qdrant engine in-process, on disk.

The shard is never optimized here: optimize() builds HNSW while holding the
GIL (47 s at 100k points), which would freeze the server. Filtered searches
over the tenant index stay in the millisecond range without HNSW.

Which shard directory of the data directory is active, and the second
shard a re-embedding builds beside it, are store/edge_shards.py's job.

Index schema 2 adds the BM25 sparse vector for hybrid retrieval. A data
directory of schema 1 (dense only) is migrated when opened: the sparse vector
is created and filled from each point's stored content. Schema 3 adds the
payload index on expire_time, schema 4 the one on update_time; opening an
older shard creates them.

Reads leave out their "not expired" part while no stored memory can have
expired yet (store/expiry_bound.py): this process is the shard's one writer.

What a search runs (store/query_plan.py), where a page resumes
(store/newest_first.py), the filters and the payload indexes are written once
for both backends; here and in edge_queries.py and qdrant_filters.py they
only become qdrant-edge-py's objects.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from memoryd.core.documents import iso_time
from memoryd.core.expiry import EXPIRE_FIELD
from memoryd.core.filters import Filter
from memoryd.core.ports import (
    Hit,
    IndexSpec,
    Point,
    Record,
    ScanPage,
    ScrollCursor,
    ScrollPage,
    Search,
)
from memoryd.store.base import DENSE, ORDER_FIELD, floats, to_record
from memoryd.store.data_dir_lock import DataDirInUse
from memoryd.store.edge_queries import to_edge_request
from memoryd.store.edge_shards import (
    MANIFEST,
    SCHEMA,
    active_shard,
    add_payload_indexes,
    add_sparse_vectors,
    check_manifest,
    create_shard,
    load_shard,
    open_shard,
    sparse,
    write_manifest,
)
from memoryd.store.expiry_bound import ExpiryBound
from memoryd.store.lexical import SPARSE
from memoryd.store.newest_first import plan_scroll, scroll_page
from memoryd.store.qdrant_filters import to_edge_filter
from memoryd.store.query_plan import plan_query

logger = logging.getLogger(__name__)


class EdgeIndex:
    """A VectorIndex over one Qdrant Edge shard under ``data_dir``.

    Engine calls run inline on the event loop's thread. qdrant-edge-py holds
    the GIL for the whole of every call (queries, upserts, scrolls, flush), so
    a thread pool bought no concurrency, only a hand-off to a worker and back:
    0.3 ms on a 0.1 ms query (bench/hot_path_stages.py).
    """

    supports_hybrid = True

    def __init__(self, shard: Any) -> None:
        self._shard = shard
        self._closed = False
        # This process is the shard's one writer (its directory is locked).
        self._expiry = ExpiryBound()
        self._expiry.note(_earliest_expiring(shard))

    @classmethod
    def open(cls, data_dir: Path, spec: IndexSpec) -> EdgeIndex:
        """Opens the shard in ``data_dir``, creating it on first use.

        Raises IncompatibleIndex if it was built for another embedder or
        dimension, and DataDirInUse if another process holds it.
        """
        data_dir.mkdir(parents=True, exist_ok=True)
        shard_dir = data_dir / active_shard(data_dir)
        manifest = data_dir / MANIFEST
        if manifest.exists():
            schema = check_manifest(manifest, spec)
            if schema < 2:  # no BM25 vector yet: the config's vectors would not match
                shard = load_shard(shard_dir)
                add_sparse_vectors(shard)
                shard.close()
            shard = load_shard(shard_dir, spec)
            if schema < SCHEMA:
                add_payload_indexes(shard)
                write_manifest(manifest, spec)
        else:
            shard = create_shard(shard_dir, spec)
            write_manifest(manifest, spec)
        return cls(shard)

    @classmethod
    def open_beside(cls, data_dir: Path, name: str, spec: IndexSpec) -> EdgeIndex:
        """Opens (creating it on first use) the shard ``name`` beside the active
        one, for re-embedding (store/edge_shards.py switches to it)."""
        return cls(open_shard(data_dir, name, spec))

    async def upsert(self, points: Sequence[Point]) -> None:
        if not points:
            return
        edge_points = [
            qe.Point(p.id, {DENSE: floats(p.vector), SPARSE: sparse(p.text)}, dict(p.payload))
            for p in points
        ]
        self._expiry.note(p.payload for p in points)
        self._shard.update(qe.UpdateOperation.upsert_points(edge_points))

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        if not searches:
            return []
        plans = [plan_query(self._without_moot_parts(s)) for s in searches]
        requests = [to_edge_request(plan) for plan in plans]
        batches = self._shard.query_batch(qe.QueryBatchRequest(requests))
        return [plan.hits(points) for plan, points in zip(plans, batches, strict=True)]

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        if not ids:
            return []
        records = self._shard.retrieve(list(ids), True, with_vectors)
        return [to_record(r, with_vector=with_vectors) for r in records]

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        plan = plan_scroll(self._expiry.without_moot_parts(where), limit, after)
        # Edge takes a time as the text iso_time stores.
        start_from = None if plan.start_from is None else iso_time(plan.start_from)
        request = qe.ScrollRequest(
            limit=plan.limit,
            filter=to_edge_filter(plan.where, excluding_ids=plan.seen_ids),
            with_payload=True,
            order_by=qe.OrderBy(ORDER_FIELD, qe.Direction.Desc, start_from=start_from),
        )
        records, _ = self._shard.scroll(request)
        return scroll_page(records)

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        if where is not None:
            where = self._expiry.without_moot_parts(where)
        request = qe.ScrollRequest(
            offset=offset,
            limit=limit,
            filter=None if where is None else to_edge_filter(where),
            with_payload=True,
            with_vector=with_vectors,
        )
        records, next_offset = self._shard.scroll(request)
        return ScanPage(
            tuple(to_record(r, with_vector=with_vectors) for r in records),
            None if next_offset is None else str(next_offset),
        )

    async def count(self, where: Filter) -> int:
        request = qe.CountRequest(
            filter=to_edge_filter(self._expiry.without_moot_parts(where)), exact=True
        )
        return int(self._shard.count(request))

    async def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._shard.update(qe.UpdateOperation.delete_points(list(ids)))

    async def delete_where(self, where: Filter) -> None:
        operation = qe.UpdateOperation.delete_points_by_filter(to_edge_filter(where))
        self._shard.update(operation)

    def _without_moot_parts(self, search: Search) -> Search:
        where = self._expiry.without_moot_parts(search.where)
        return search if where is search.where else replace(search, where=where)

    async def flush(self) -> None:
        # Qdrant Edge writes its log and segments through memory maps and syncs
        # them to disk only here and at close (core/index_flush.py says when).
        if not self._closed:
            self._shard.flush()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._shard.flush()
        self._shard.close()


def _earliest_expiring(shard: Any) -> list[dict[str, Any]]:
    """The payload of the point in ``shard`` that expires first (none if no point expires)."""
    request = qe.ScrollRequest(
        limit=1, with_payload=True, order_by=qe.OrderBy(EXPIRE_FIELD, qe.Direction.Asc)
    )
    records, _ = shard.scroll(request)
    return [record.payload or {} for record in records]


__all__ = ["MANIFEST", "DataDirInUse", "EdgeIndex"]
