"""Protobuf <-> domain for reads: selections, Search and List queries, and their results."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

from memoryd.api.convert import duration_from_proto, fill_memory, scope_from_proto
from memoryd.api.enums import MEMORY_TYPES, RETRIEVAL_MODES
from memoryd.api.filter_convert import filter_from_proto
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import (
    ListQuery,
    MemoryPage,
    RetrievalMode,
    ScoredMemory,
    SearchQuery,
    Selection,
)
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

DEFAULT_SEARCH_LIMIT = 5
DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 1000

type _Selecting = svc.SearchMemoriesRequest | svc.ListMemoriesRequest | svc.ForgetMemoriesRequest


def selection_from_proto(
    scope: pb.Scope,
    memory_types: Iterable[int],
    categories: Iterable[str],
    where: pb.Filter | None,
) -> Selection:
    types = []
    for i, value in enumerate(memory_types):
        if value == pb.MEMORY_TYPE_UNSPECIFIED:
            raise InvalidArgument(
                f"memory_types[{i}]", "MEMORY_TYPE_UNSPECIFIED is not a type; omit the list for all"
            )
        types.append(MEMORY_TYPES.from_proto(value, f"memory_types[{i}]"))
    return Selection(
        scope=scope_from_proto(scope),
        memory_types=tuple(dict.fromkeys(types)),
        categories=tuple(dict.fromkeys(categories)),
        where=filter_from_proto(where, "filter") if where is not None else None,
    )


def query_selection_from_proto(request: _Selecting) -> Selection:
    """The selection of a Search, List or Forget request (all of what Forget asks for)."""
    return selection_from_proto(
        request.scope,
        request.memory_types,
        request.categories,
        request.filter if request.HasField("filter") else None,
    )


def recency_half_life_from_proto(
    request: svc.SearchMemoriesRequest | svc.PreloadRequest,
) -> timedelta | None:
    """None when unset: the server's default."""
    if not request.HasField("recency_half_life"):
        return None
    seconds = duration_from_proto(request.recency_half_life, "recency_half_life")
    return timedelta(seconds=seconds)


def search_query_from_proto(request: svc.SearchMemoriesRequest) -> SearchQuery:
    return SearchQuery(
        text=request.query,
        selection=query_selection_from_proto(request),
        limit=request.limit or DEFAULT_SEARCH_LIMIT,
        score_threshold=request.score_threshold if request.HasField("score_threshold") else None,
        mode=retrieval_mode_from_proto(request.retrieval_mode),
        diversity=request.diversity if request.HasField("diversity") else None,
        max_tokens=request.max_tokens,
        recency_half_life=recency_half_life_from_proto(request),
    )


def retrieval_mode_from_proto(value: int) -> RetrievalMode | None:
    """None for RETRIEVAL_MODE_UNSPECIFIED: the server's default."""
    if value == svc.RETRIEVAL_MODE_UNSPECIFIED:
        return None
    return RETRIEVAL_MODES.from_proto(value, "retrieval_mode")


def list_query_from_proto(request: svc.ListMemoriesRequest) -> ListQuery:
    page_size = request.page_size
    if page_size == 0:
        page_size = DEFAULT_PAGE_SIZE
    elif page_size > 0:
        page_size = min(page_size, MAX_PAGE_SIZE)
    return ListQuery(
        selection=query_selection_from_proto(request),
        page_size=page_size,
        page_token=request.page_token,
    )


def search_results_to_proto(hits: Iterable[ScoredMemory]) -> svc.SearchMemoriesResponse:
    response = svc.SearchMemoriesResponse()
    add_search_results(response.results, hits)
    return response


def add_search_results(
    results: RepeatedCompositeFieldContainer[svc.SearchResult], hits: Iterable[ScoredMemory]
) -> None:
    """Appends ``hits`` to a reply's ``results``, filled in place (see fill_memory)."""
    for hit in hits:
        fill_memory(results.add(score=hit.score).memory, hit.memory)


def memory_page_to_proto(page: MemoryPage) -> svc.ListMemoriesResponse:
    response = svc.ListMemoriesResponse(next_page_token=page.next_page_token)
    for memory in page.memories:
        fill_memory(response.memories.add(), memory)
    return response
