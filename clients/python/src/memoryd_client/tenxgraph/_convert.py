"""10xgraph arguments to memoryd requests, and memoryd memories to 10xgraph results."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from tenxgraph.core.state import Message
from tenxgraph.storage.store.store_schema import (
    MemoryRecord,
    MemorySearchResult,
    MemoryType,
    RetrievalStrategy,
)

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import filters
from memoryd_client.messages import dict_from_struct, struct_from_dict

#: 10xgraph memory types and memoryd's, one to one.
TYPE_TO_PROTO: dict[MemoryType, pb.MemoryType] = {
    MemoryType.EPISODIC: pb.MEMORY_TYPE_EPISODIC,
    MemoryType.SEMANTIC: pb.MEMORY_TYPE_SEMANTIC,
    MemoryType.PROCEDURAL: pb.MEMORY_TYPE_PROCEDURAL,
    MemoryType.ENTITY: pb.MEMORY_TYPE_ENTITY,
    MemoryType.RELATIONSHIP: pb.MEMORY_TYPE_RELATIONSHIP,
    MemoryType.CUSTOM: pb.MEMORY_TYPE_CUSTOM,
    MemoryType.DECLARATIVE: pb.MEMORY_TYPE_DECLARATIVE,
}
TYPE_FROM_PROTO = {value: key for key, value in TYPE_TO_PROTO.items()}

#: The 10xgraph retrieval strategies memoryd runs, and the mode each is; the others
#: (TEMPORAL, GRAPH_TRAVERSAL) have no memoryd ranking and are refused.
#: - SIMILARITY, 10xgraph's default: cosine similarity, as QdrantStore scores it
#:   (DENSE, recency off). 10xgraph's own duplicate check asks for a score of at
#:   least 0.95 and means that cosine; a hybrid score, raised by shared words,
#:   could call a different memory a duplicate and lose it ("prefers dark mode in
#:   VS Code" against "prefers light mode in VS Code": cosine 0.87, hybrid 0.945).
#: - HYBRID: dense and BM25 fused (HYBRID), with the server's recency.
#: - RELEVANCE: whatever memoryd ranks best, the server's default mode and recency.
STRATEGY_TO_MODE: dict[RetrievalStrategy, svc.RetrievalMode] = {
    RetrievalStrategy.SIMILARITY: svc.RETRIEVAL_MODE_DENSE,
    RetrievalStrategy.HYBRID: svc.RETRIEVAL_MODE_HYBRID,
    RetrievalStrategy.RELEVANCE: svc.RETRIEVAL_MODE_UNSPECIFIED,
}

#: Keys a result's metadata carries besides the stored metadata (as QdrantStore's
#: payload does); they are stripped again when a result's metadata is written back.
RESULT_KEYS = frozenset(
    {"content", "user_id", "thread_id", "agent_id", "app_id", "memory_type", "category",
     "timestamp", "version"}
)  # fmt: skip


def memory_type(value: MemoryType | str | None) -> pb.MemoryType:
    """The proto type of a 10xgraph MemoryType (or its string value)."""
    if value is None:
        return pb.MEMORY_TYPE_UNSPECIFIED
    try:
        return TYPE_TO_PROTO[MemoryType(value)]
    except ValueError:
        raise ValueError(f"unknown memory_type {value!r}") from None


def retrieval_mode(strategy: RetrievalStrategy | str) -> svc.RetrievalMode:
    """memoryd's retrieval mode for a 10xgraph RetrievalStrategy (or its string value).

    See STRATEGY_TO_MODE. Raises ValueError for the strategies memoryd does not
    run, rather than silently run another.
    """
    supported = ", ".join(repr(s.value) for s in STRATEGY_TO_MODE)
    try:
        known = RetrievalStrategy(strategy)
    except ValueError:
        raise ValueError(
            f"unknown retrieval_strategy {strategy!r}; memoryd supports {supported}"
        ) from None
    if known not in STRATEGY_TO_MODE:
        raise ValueError(
            f"retrieval_strategy {known.value!r} is not supported by memoryd; use {supported} "
            "(RetrievalStrategy.SIMILARITY: dense, RetrievalStrategy.HYBRID: dense + BM25, "
            "RetrievalStrategy.RELEVANCE: the server's default)"
        )
    return STRATEGY_TO_MODE[known]


def rank_by(
    request: svc.SearchMemoriesRequest | svc.PreloadRequest, strategy: RetrievalStrategy | str
) -> None:
    """Sets ``request``'s ranking for a 10xgraph strategy (see STRATEGY_TO_MODE)."""
    request.retrieval_mode = retrieval_mode(strategy)
    if request.retrieval_mode == svc.RETRIEVAL_MODE_DENSE:
        request.recency_half_life.SetInParent()  # zero: recency off, the plain cosine


def content_and_metadata(
    content: str | Message, metadata: Mapping[str, Any] | None
) -> tuple[str, dict[str, Any]]:
    """The text to store and its metadata; a Message adds its role, id and usage,
    as QdrantStore's MemoryRecord.from_message does."""
    if isinstance(content, Message):
        record = MemoryRecord.from_message(content, additional_metadata=dict(metadata or {}))
        return record.content, record.metadata
    if not isinstance(content, str):
        raise ValueError(f"content must be a str or Message, not {type(content).__name__}")
    return content, dict(metadata or {})


def writable_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Metadata without the keys a result adds (content, scope ids, type, ...)."""
    return {key: value for key, value in metadata.items() if key not in RESULT_KEYS}


def metadata_struct(metadata: Mapping[str, Any]) -> Any:
    return struct_from_dict(metadata)


def filter_from_dict(filters_dict: Mapping[str, Any] | None) -> pb.Filter | None:
    """memoryd's filter for 10xgraph's ``filters`` dict, one AND-ed condition per key.

    A scalar means equality and a list/tuple/set means "one of"; keys are metadata
    keys. Raises ValueError for any other value rather than ignoring it.
    """
    if not filters_dict:
        return None
    conditions = []
    for key, value in filters_dict.items():
        field = f"metadata.{key}"
        if isinstance(value, str | bool | int | float | datetime):
            conditions.append(filters.eq(field, value))
        elif isinstance(value, list | tuple | set | frozenset) and value:
            conditions.append(filters.in_(field, list(value)))
        else:
            raise ValueError(
                f"filters[{key!r}] is a {type(value).__name__}; use a str, number, bool "
                "or a non-empty list of them"
            )
    return conditions[0] if len(conditions) == 1 else filters.all_of(*conditions)


def search_limit(limit: int) -> int:
    """10xgraph's ``limit`` as a request's: at least 1 (0 would mean memoryd's default
    of 5). The server refuses one over its max_search_limit (100 by default)."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    return int(limit)


def score_threshold(value: float | None) -> float | None:
    """A threshold within memoryd's score range [0, 1]; None when it filters nothing."""
    if value is None or value <= 0:
        return None
    return min(float(value), 1.0)


def result(memory: pb.Memory, score: float = 1.0) -> MemorySearchResult:
    """The 10xgraph result for a memory. Exact lookups (get, list) score 1.0."""
    metadata = _whole_numbers(dict_from_struct(memory.metadata))
    metadata["category"] = memory.category
    if memory.memory_key:
        metadata.setdefault("memory_key", memory.memory_key)
    for key in ("agent_id", "app_id"):
        if getattr(memory.scope, key):
            metadata[key] = getattr(memory.scope, key)
    stamp = memory.update_time if memory.HasField("update_time") else memory.create_time
    return MemorySearchResult(
        id=memory.id,
        content=memory.content,
        score=min(max(float(score), 0.0), 1.0),
        memory_type=TYPE_FROM_PROTO.get(memory.memory_type, MemoryType.EPISODIC),
        metadata=metadata,
        user_id=memory.scope.user_id or None,
        thread_id=memory.scope.thread_id or memory.scope.agent_id or None,
        timestamp=stamp.ToDatetime(tzinfo=UTC) if stamp.seconds or stamp.nanos else None,
    )


def search_results(response: svc.SearchMemoriesResponse) -> list[MemorySearchResult]:
    """The 10xgraph results of a search, best first."""
    return [result(hit.memory, hit.score) for hit in response.results]


def _whole_numbers(value: Any) -> Any:
    """Struct keeps every number as a double; give whole ones back as ints, as stored."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


def token_budget(max_tokens: int | None) -> int:
    """10xgraph's ``max_tokens`` as SearchMemoriesRequest.max_tokens: 0 for none
    (None or 0); ValueError if negative."""
    if max_tokens is None:
        return 0
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be 0 (no budget) or more, got {max_tokens}")
    return int(max_tokens)


def set_expiry(request: svc.CreateMemoryRequest | svc.UpdateMemoryRequest, **kwargs: Any) -> bool:
    """Applies MemorydStore's own keyword arguments ``ttl`` (seconds, or a
    timedelta) and ``expire_time`` (a datetime; naive means UTC) to a request.
    10xgraph itself passes no expiry to a store. Returns whether expire_time was set."""
    ttl = kwargs.get("ttl")
    if ttl is not None:
        request.ttl.FromTimedelta(ttl if isinstance(ttl, timedelta) else timedelta(seconds=ttl))
    expire_time = kwargs.get("expire_time")
    if expire_time is None:
        return False
    if not isinstance(expire_time, datetime):
        raise ValueError(f"expire_time must be a datetime, not {type(expire_time).__name__}")
    request.memory.expire_time.FromDatetime(expire_time)
    return True
