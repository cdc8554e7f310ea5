"""The remote vector index: a Qdrant server or cluster, reached by URL through qdrant-client.

What a search runs (store/query_plan.py), where a page resumes
(store/newest_first.py), the filters and the payload indexes are written once
for both backends; here and in client_queries.py and client_filters.py they
only become qdrant-client's models.

The embedder an index was built for is recorded in the collection's metadata
(Qdrant >= 1.16), written in the same call that creates the collection, so it
can never be absent or show up among the points.

Collections created by this version carry the BM25 sparse vector (IDF
modifier) and support hybrid retrieval. A Qdrant server cannot add a named
vector to an existing collection, so a collection created by an earlier
version keeps working dense-only (supports_hybrid is False) until it is
rebuilt.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

from qdrant_client import AsyncQdrantClient, models

from memoryd.core.errors import IncompatibleIndex
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
from memoryd.store.base import DENSE, ORDER_FIELD, floats, payload_indexes, to_record
from memoryd.store.client_filters import to_client_filter
from memoryd.store.client_queries import to_client_request
from memoryd.store.lexical import SPARSE, document_terms
from memoryd.store.newest_first import plan_scroll, scroll_page
from memoryd.store.query_plan import plan_query

logger = logging.getLogger(__name__)

#: The collection metadata key under which memoryd records what it built the
#: collection for; other tools may keep their own keys beside it.
METADATA_KEY = "memoryd"
#: 2 adds the BM25 sparse vector.
SCHEMA = 2


def connect(
    url: str, api_key: str | None, prefer_grpc: bool = True, timeout: float = 10
) -> AsyncQdrantClient:
    """A client for the Qdrant server or cluster at ``url`` (REST port, e.g.
    ``http://qdrant:6333``); with ``prefer_grpc`` data calls use gRPC on 6334.

    ``timeout`` is per request, in seconds, rounded up to whole seconds because
    qdrant-client takes an int. Nothing is sent until the first call, apart
    from qdrant-client's background version check, which at worst issues a
    UserWarning.

    Raises ValueError if ``url`` is not a URL (urllib3's LocationParseError is
    one). There is no in-memory mode: tests that need a stand-in for a server
    hand build() their own client.
    """
    return AsyncQdrantClient(
        url=url,
        api_key=api_key,
        prefer_grpc=prefer_grpc,
        timeout=max(1, math.ceil(timeout)),
    )


class RemoteIndex:
    """A VectorIndex over one collection of a Qdrant server.

    Every write waits until the server has applied it (``wait=True``), so a
    point is durable and visible to reads when upsert returns.
    """

    def __init__(
        self, client: AsyncQdrantClient, collection: str, *, supports_hybrid: bool = True
    ) -> None:
        self._client = client
        self._collection = collection
        self._closed = False
        self.supports_hybrid = supports_hybrid

    @classmethod
    async def open(cls, client: AsyncQdrantClient, collection: str, spec: IndexSpec) -> RemoteIndex:
        """Opens ``collection``, creating it and its payload indexes if missing.

        On success the index owns ``client`` and close() closes it; if open
        raises, the client stays the caller's. Raises IncompatibleIndex if the
        collection was built for another embedder or dimension, or not by
        memoryd.
        """
        if not await client.collection_exists(collection):
            await _create(client, collection, spec)
        info = await client.get_collection(collection)
        _check_built_for(info, collection, spec)
        await _ensure_payload_indexes(client, collection, info)
        sparse = (info.config.params.sparse_vectors or {}).get(SPARSE)
        has_lexical = sparse is not None and sparse.modifier == models.Modifier.IDF
        if not has_lexical:
            logger.warning(
                "collection %s has no %r sparse vector: hybrid retrieval is off; rebuild the "
                "collection to enable it",
                collection,
                SPARSE,
            )
        return cls(client, collection, supports_hybrid=has_lexical)

    async def upsert(self, points: Sequence[Point]) -> None:
        if not points:
            return
        structs = [
            models.PointStruct(id=p.id, vector=self._vectors(p), payload=dict(p.payload))
            for p in points
        ]
        await self._client.upsert(self._collection, points=structs, wait=True)

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        if not searches:
            return []
        plans = [plan_query(s) for s in searches]
        requests = [to_client_request(plan) for plan in plans]
        responses = await self._client.query_batch_points(self._collection, requests=requests)
        return [plan.hits(r.points) for plan, r in zip(plans, responses, strict=True)]

    def _vectors(self, point: Point) -> dict[str, Any]:
        vectors: dict[str, Any] = {DENSE: floats(point.vector)}
        if self.supports_hybrid:
            indices, values = document_terms(point.text)
            vectors[SPARSE] = models.SparseVector(indices=indices, values=values)
        return vectors

    async def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[Record]:
        if not ids:
            return []
        records = await self._client.retrieve(
            self._collection,
            ids=list(ids),
            with_payload=True,
            with_vectors=[DENSE] if with_vectors else False,
        )
        return [to_record(r, with_vector=with_vectors) for r in records]

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        plan = plan_scroll(where, limit, after)
        records, _ = await self._client.scroll(
            self._collection,
            scroll_filter=to_client_filter(plan.where, excluding_ids=plan.seen_ids),
            limit=plan.limit,
            with_payload=True,
            with_vectors=False,
            order_by=models.OrderBy(
                key=ORDER_FIELD, direction=models.Direction.DESC, start_from=plan.start_from
            ),
        )
        return scroll_page(records)

    async def scan(
        self, where: Filter | None, limit: int, offset: str | None, *, with_vectors: bool = False
    ) -> ScanPage:
        records, next_offset = await self._client.scroll(
            self._collection,
            scroll_filter=None if where is None else to_client_filter(where),
            limit=limit,
            offset=offset,
            with_payload=True,
            with_vectors=[DENSE] if with_vectors else False,
        )
        return ScanPage(
            tuple(to_record(r, with_vector=with_vectors) for r in records),
            None if next_offset is None else str(next_offset),
        )

    async def count(self, where: Filter) -> int:
        result = await self._client.count(
            self._collection, count_filter=to_client_filter(where), exact=True
        )
        return int(result.count)

    async def delete(self, ids: Sequence[str]) -> None:
        if ids:
            await self._client.delete(
                self._collection, points_selector=models.PointIdsList(points=list(ids)), wait=True
            )

    async def delete_where(self, where: Filter) -> None:
        selector = models.FilterSelector(filter=to_client_filter(where))
        await self._client.delete(self._collection, points_selector=selector, wait=True)

    async def flush(self) -> None:
        """Nothing to do: the Qdrant server keeps its own write-ahead log and
        flushes its segments itself."""

    async def close(self) -> None:
        # Writes were acknowledged only once applied, so there is nothing to flush.
        if self._closed:
            return
        self._closed = True
        await self._client.close()


async def _create(client: AsyncQdrantClient, collection: str, spec: IndexSpec) -> None:
    built_for = {"embedder_id": spec.embedder_id, "dimension": spec.dimension, "schema": SCHEMA}
    try:
        await client.create_collection(
            collection,
            vectors_config={
                DENSE: models.VectorParams(size=spec.dimension, distance=models.Distance.COSINE)
            },
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata={METADATA_KEY: built_for},
        )
    except Exception:  # REST, gRPC and local mode raise different types for "exists"
        if not await client.collection_exists(collection):
            raise
        logger.info("collection %s was created concurrently; using it", collection)
        return
    logger.info("created Qdrant collection %s (dimension %d)", collection, spec.dimension)


def _check_built_for(info: models.CollectionInfo, collection: str, spec: IndexSpec) -> None:
    metadata = info.config.metadata or {}
    built_for = metadata.get(METADATA_KEY)
    if not isinstance(built_for, Mapping):
        raise IncompatibleIndex(
            f"Qdrant collection {collection!r} has no memoryd metadata, so it was not created "
            "by memoryd (or the server is older than Qdrant 1.16); configure another "
            "collection name"
        )
    stored = (built_for.get("embedder_id"), built_for.get("dimension"))
    if stored != (spec.embedder_id, spec.dimension):
        raise IncompatibleIndex(
            f"Qdrant collection {collection!r} was built with embedder {stored[0]!r} "
            f"(dimension {stored[1]}), but this server is configured with "
            f"{spec.embedder_id!r} (dimension {spec.dimension}); configure the original "
            "embedder or another collection name (`memoryd reembed --to <embedder>`, run "
            "against a server started with the original embedder, moves an index to a new one "
            "on the edge backend)"
        )
    vectors = info.config.params.vectors
    dense = vectors.get(DENSE) if isinstance(vectors, Mapping) else None
    if dense is None or dense.size != spec.dimension or dense.distance != models.Distance.COSINE:
        raise IncompatibleIndex(
            f"Qdrant collection {collection!r} has no {DENSE!r} cosine vector of dimension "
            f"{spec.dimension}, although its metadata says so; configure another collection name"
        )


async def _ensure_payload_indexes(
    client: AsyncQdrantClient, collection: str, info: models.CollectionInfo
) -> None:
    wanted: dict[str, models.PayloadSchemaType | models.KeywordIndexParams] = payload_indexes(
        models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
        models.PayloadSchemaType.KEYWORD,
        models.PayloadSchemaType.DATETIME,
    )
    existing = info.payload_schema or {}
    for name, schema in wanted.items():
        if name not in existing:
            await client.create_payload_index(collection, name, field_schema=schema, wait=True)
            logger.info("created payload index %s on collection %s", name, collection)
