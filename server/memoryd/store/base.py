"""What both Qdrant backends share: the schema of the stored points and their mapping back.

The port they implement is core/ports.py's VectorIndex; how they search is
store/query_plan.py, how they page is store/newest_first.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from memoryd.core.ports import Record

#: The name of the dense vector in both backends (lexical.SPARSE names the BM25 one).
DENSE = "dense"
#: Payload fields with an index: scope fields select tenants, the rest are
#: frequent filters, and update_time is what the recency weight reads for every
#: candidate (from the index, a hybrid search with recency at 10k memories took
#: 0.16 ms in Edge against 0.33 ms reading each candidate's payload).
#: user_id is the tenant key (Qdrant's is_tenant).
TENANT_FIELD = "user_id"
KEYWORD_FIELDS = ("agent_id", "app_id", "memory_type", "category", "memory_key")
DATETIME_FIELDS = ("create_time", "expire_time", "update_time")
#: The field ListMemories orders by, newest first.
ORDER_FIELD = "create_time"


class StoredPoint(Protocol):
    """A point as either client library returns it."""

    @property
    def id(self) -> object: ...

    @property
    def payload(self) -> Mapping[str, Any] | None: ...

    @property
    def vector(self) -> Any: ...


class ScoredPoint(StoredPoint, Protocol):
    """A point of a search's answer."""

    @property
    def score(self) -> float: ...


class OrderedPoint(StoredPoint, Protocol):
    """A point of an ordered scroll, with the value it is ordered by."""

    @property
    def order_value(self) -> int | float | None: ...


def payload_indexes[Schema](tenant: Schema, keyword: Schema, datetime: Schema) -> dict[str, Schema]:
    """Every indexed payload field, in creation order, with its index in the
    library's terms: ``tenant`` for the tenant key, ``keyword`` and
    ``datetime`` for the other fields of those types."""
    return {
        TENANT_FIELD: tenant,
        **dict.fromkeys(KEYWORD_FIELDS, keyword),
        **dict.fromkeys(DATETIME_FIELDS, datetime),
    }


def floats(vector: Sequence[float]) -> list[float]:
    """A dense vector as a list of floats."""
    # qdrant-client validates vectors as strict floats and rejects ints like 1.
    return [float(x) for x in vector]


def to_record(point: StoredPoint, *, with_vector: bool = False) -> Record:
    """The Record of a retrieved point, with its dense vector if it was asked for."""
    return Record(str(point.id), point.payload or {}, _dense(point.vector) if with_vector else None)


def _dense(vector: Any) -> list[float]:
    # A point with named vectors returns them by name; the dense one is ours.
    return list(vector[DENSE]) if isinstance(vector, Mapping) else list(vector or [])
