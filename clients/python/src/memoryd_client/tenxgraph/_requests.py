"""The memoryd request for each MemorydStore method, from 10xgraph's BaseStore arguments.

Each builder takes its BaseStore method's arguments, with the same names and
defaults, so that the store's sync and async methods pass theirs on as given.
Limits are the server's to enforce: a request over one is answered
INVALID_ARGUMENT, which the store raises as ValueError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tenxgraph.core.state import Message
from tenxgraph.storage.store.store_schema import DistanceMetric, MemoryType, RetrievalStrategy

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client.tenxgraph import _convert
from memoryd_client.tenxgraph._scoping import forget_scope, memory_scope

ScopeUserId = Callable[[dict[str, Any], str | int | None], str | int | None]

_SYNC = svc.WRITE_MODE_SYNC
#: ListMemoriesRequest.page_size is an int32; the server caps pages itself.
_INT32_MAX = 2**31 - 1


class StoreRequests:
    """Builds requests for one store; ``scope_user_id`` is its BaseStore._scope_user_id."""

    def __init__(self, scope_user_id: ScopeUserId) -> None:
        self._scope_user_id = scope_user_id

    def read_scope(self, config: dict[str, Any]) -> pb.Scope:
        return memory_scope(config, self._scope_user_id, for_write=False)

    def _write_scope(self, config: dict[str, Any]) -> pb.Scope:
        return memory_scope(config, self._scope_user_id, for_write=True)

    def create(
        self,
        config: dict[str, Any],
        content: str | Message,
        memory_type: MemoryType = MemoryType.EPISODIC,
        category: str = "general",
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> svc.CreateMemoryRequest:
        text, values = _convert.content_and_metadata(content, metadata)
        memory_key = kwargs.get("memory_key") or values.get("memory_key") or ""
        request = svc.CreateMemoryRequest(
            memory=pb.Memory(
                content=text,
                scope=self._write_scope(config),
                memory_type=_convert.memory_type(memory_type),
                category=category or "",
                metadata=_convert.metadata_struct(values),
                memory_key=str(memory_key),
            ),
            memory_id=str(kwargs.get("memory_id") or ""),
            mode=_SYNC,
        )
        if kwargs.get("dedup_threshold") is not None:
            request.dedup_threshold = float(kwargs["dedup_threshold"])
        _convert.set_expiry(request, **kwargs)
        return request

    def search(
        self,
        config: dict[str, Any],
        query: str,
        memory_type: MemoryType | None = None,
        category: str | None = None,
        limit: int = 10,
        score_threshold: float | None = None,
        filters: dict[str, Any] | None = None,
        retrieval_strategy: RetrievalStrategy | str = RetrievalStrategy.SIMILARITY,
        distance_metric: DistanceMetric = DistanceMetric.COSINE,
        max_tokens: int | None = 4000,
        **kwargs: Any,
    ) -> svc.SearchMemoriesRequest:
        """``distance_metric`` is ignored: memoryd's vectors are compared by cosine."""
        request = svc.SearchMemoriesRequest(
            query=query,
            max_tokens=_convert.token_budget(max_tokens),
            scope=self.read_scope(config),
            limit=_convert.search_limit(limit),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(filters),
        )
        threshold = _convert.score_threshold(score_threshold)
        if threshold is not None:
            request.score_threshold = threshold
        _convert.rank_by(request, retrieval_strategy)
        return request

    def get(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> svc.GetMemoryRequest | None:
        """None when the config names no memory owner: there is nothing to find."""
        try:
            scope = self.read_scope(config)
        except ValueError:
            return None
        return svc.GetMemoryRequest(id=str(memory_id), scope=scope)

    def get_all(
        self, config: dict[str, Any], limit: int = 100, **kwargs: Any
    ) -> svc.ListMemoriesRequest:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        memory_type, category = kwargs.get("memory_type"), kwargs.get("category")
        return svc.ListMemoriesRequest(
            scope=self.read_scope(config),
            page_size=min(limit, _INT32_MAX),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(kwargs.get("filters")),
        )

    def update(
        self,
        config: dict[str, Any],
        memory_id: str,
        content: str | Message,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> svc.UpdateMemoryRequest:
        text, values = _convert.content_and_metadata(content, metadata)
        memory = pb.Memory(id=str(memory_id), content=text, scope=self._write_scope(config))
        paths = ["content"]
        if metadata is not None:
            memory.metadata.CopyFrom(_convert.metadata_struct(_convert.writable_metadata(values)))
            paths.append("metadata")
        category = kwargs.get("category") or (metadata or {}).get("category")
        if category:
            memory.category = str(category)
            paths.append("category")
        if kwargs.get("memory_type"):
            memory.memory_type = _convert.memory_type(kwargs["memory_type"])
            paths.append("memory_type")
        request = svc.UpdateMemoryRequest(
            memory=memory,
            metadata_update_mode=(
                svc.METADATA_UPDATE_MODE_REPLACE
                if kwargs.get("replace_metadata")
                else svc.METADATA_UPDATE_MODE_MERGE
            ),
            mode=_SYNC,
        )
        if _convert.set_expiry(request, **kwargs):
            paths.append("expire_time")
        request.update_mask.paths.extend(paths)
        return request

    def delete(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> svc.DeleteMemoryRequest:
        scope = self._write_scope(config)
        return svc.DeleteMemoryRequest(id=str(memory_id), scope=scope, mode=_SYNC)

    def forget(self, config: dict[str, Any], **kwargs: Any) -> svc.ForgetMemoriesRequest:
        memory_type, category = kwargs.get("memory_type"), kwargs.get("category")
        return svc.ForgetMemoriesRequest(
            scope=forget_scope(config, self._scope_user_id),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(kwargs.get("filters")),
            mode=_SYNC,
        )
