"""The remote vector index: a Qdrant server or cluster, reached by URL through qdrant-client.

Points, payload indexes, filters and ordering mirror store/edge.py exactly, so
both backends pass the same conformance suite. The embedder an index was built
for is recorded in the collection's metadata (Qdrant >= 1.16), written in the
same call that creates the collection, so it can never be absent or show up
among the points.

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
from datetime import UTC, datetime, timedelta
from typing import Any

from qdrant_client import AsyncQdrantClient, models

from memoryd.core.errors import IncompatibleIndex
from memoryd.core.filters import Filter
from memoryd.core.ports import Hit, IndexSpec, Point, Record, ScrollCursor, ScrollPage, Search
from memoryd.store.base import (
    DATETIME_FIELDS,
    KEYWORD_FIELDS,
    ORDER_FIELD,
    RRF_K,
    TENANT_FIELD,
    candidate_count,
    fused_score,
    raw_fused_score,
)
from memoryd.store.client_filters import to_client_filter
from memoryd.store.lexical import SPARSE, document_terms, query_terms

logger = logging.getLogger(__name__)

DENSE = "dense"
#: The collection metadata key under which memoryd records what it built the
#: collection for; other tools may keep their own keys beside it.
METADATA_KEY = "memoryd"
#: 2 adds the BM25 sparse vector.
SCHEMA = 2
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


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
        requests = [_query(s) for s in searches]
        responses = await self._client.query_batch_points(self._collection, requests=requests)
        return [
            [Hit(str(p.id), p.payload or {}, _score(s, float(p.score))) for p in response.points]
            for s, response in zip(searches, responses, strict=True)
        ]

    def _vectors(self, point: Point) -> dict[str, Any]:
        vectors: dict[str, Any] = {DENSE: _floats(point.vector)}
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
        return [
            Record(str(r.id), r.payload or {}, _dense(r.vector) if with_vectors else None)
            for r in records
        ]

    async def scroll_newest_first(
        self, where: Filter, limit: int, after: ScrollCursor | None
    ) -> ScrollPage:
        scroll_filter = to_client_filter(where)
        start_from = None
        if after is not None:
            # start_from is inclusive: points sharing the cursor's time that
            # were already returned are excluded by id instead.
            start_from = _EPOCH + timedelta(microseconds=after.order_value)
            if after.seen_ids:
                scroll_filter = models.Filter(
                    must=[scroll_filter],
                    must_not=[models.HasIdCondition(has_id=list(after.seen_ids))],
                )
        records, _ = await self._client.scroll(
            self._collection,
            scroll_filter=scroll_filter,
            limit=limit,
            with_payload=True,
            with_vectors=False,
            order_by=models.OrderBy(
                key=ORDER_FIELD, direction=models.Direction.DESC, start_from=start_from
            ),
        )
        return ScrollPage(
            tuple(Record(str(r.id), r.payload or {}) for r in records),
            tuple(int(r.order_value or 0) for r in records),
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

    async def close(self) -> None:
        # Writes were acknowledged only once applied, so there is nothing to flush.
        if self._closed:
            return
        self._closed = True
        await self._client.close()


def _floats(vector: Sequence[float]) -> list[float]:
    # qdrant-client validates vectors as strict floats and rejects ints like 1.
    return [float(x) for x in vector]


def _query(search: Search) -> models.QueryRequest:
    """One engine query, shaped exactly as store/edge.py's."""
    dense = _floats(search.vector)
    candidates = candidate_count(search.limit)
    prefetch: list[models.Prefetch] | None = None
    threshold = search.min_similarity
    query: models.Query | list[float] = dense
    using: str | None = DENSE
    if search.is_hybrid:
        indices, values = query_terms(search.text)
        rankings = [
            models.Prefetch(query=dense, using=DENSE, limit=candidates),
            models.Prefetch(
                query=models.SparseVector(indices=indices, values=values),
                using=SPARSE,
                limit=candidates,
            ),
        ]
        fusion = models.RrfQuery(rrf=models.Rrf(k=RRF_K))
        if search.diversity is None:
            prefetch, query, using = rankings, fusion, None
            threshold = None if threshold is None else raw_fused_score(threshold)
        else:
            prefetch = [models.Prefetch(prefetch=rankings, query=fusion, limit=candidates)]
    if search.diversity is not None:
        mmr = models.Mmr(diversity=search.diversity, candidates_limit=candidates)
        query, using = models.NearestQuery(nearest=dense, mmr=mmr), DENSE
    return models.QueryRequest(
        prefetch=prefetch,
        query=query,
        using=using,
        filter=to_client_filter(search.where),
        limit=search.limit,
        score_threshold=threshold,
        with_payload=True,
    )


def _score(search: Search, raw: float) -> float:
    return fused_score(raw) if search.is_hybrid and search.diversity is None else raw


def _dense(vector: Any) -> list[float]:
    return list(vector[DENSE]) if isinstance(vector, Mapping) else list(vector or [])


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
            "embedder or another collection name"
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
    wanted: dict[str, models.PayloadSchemaType | models.KeywordIndexParams] = {
        TENANT_FIELD: models.KeywordIndexParams(
            type=models.KeywordIndexType.KEYWORD, is_tenant=True
        ),
        **{name: models.PayloadSchemaType.KEYWORD for name in KEYWORD_FIELDS},
        **{name: models.PayloadSchemaType.DATETIME for name in DATETIME_FIELDS},
    }
    existing = info.payload_schema or {}
    for name, schema in wanted.items():
        if name not in existing:
            await client.create_payload_index(collection, name, field_schema=schema, wait=True)
            logger.info("created payload index %s on collection %s", name, collection)
