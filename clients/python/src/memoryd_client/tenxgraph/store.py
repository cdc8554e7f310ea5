"""MemorydStore: memoryd as a 10xgraph BaseStore (tested against 10xgraph 0.10.3)."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from tenxgraph.core.exceptions import StorageError, TransientStorageError
from tenxgraph.core.state import Message
from tenxgraph.storage.store.base_store import BaseStore
from tenxgraph.storage.store.store_schema import (
    DistanceMetric,
    MemorySearchResult,
    MemoryType,
    RetrievalStrategy,
)

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client.aio import AsyncMemorydClient
from memoryd_client.client import MemorydClient
from memoryd_client.consistency import ScopeWrites
from memoryd_client.errors import (
    InvalidArgument,
    MemorydError,
    MemoryNotFound,
    PermissionDenied,
    TransientError,
    Unauthenticated,
    VersionConflict,
)
from memoryd_client.options import ClientOptions, resolve_options
from memoryd_client.tenxgraph import _convert
from memoryd_client.tenxgraph._pending import wait_for_scheduled_writes
from memoryd_client.tenxgraph._scoping import forget_scope, memory_scope

logger = logging.getLogger(__name__)

#: 10xgraph cancels pending memory writes after a 15 s flush; stay well below it.
MAX_WRITE_TIMEOUT = 10.0
_SYNC = svc.WRITE_MODE_SYNC


@contextmanager
def _storage_errors(memory_id: str = "") -> Iterator[None]:
    """memoryd errors as the exceptions 10xgraph and its API expect."""
    try:
        yield
    except TransientError as error:
        # The 10xgraph API answers 503 for this one.
        raise TransientStorageError(error.message, f"MEMORYD_{error.code}") from error
    except MemoryNotFound as error:
        raise ValueError(f"Memory {memory_id or error.memory_id} not found") from error
    except (InvalidArgument, VersionConflict) as error:
        raise ValueError(str(error)) from error
    except (PermissionDenied, Unauthenticated) as error:
        raise PermissionError(str(error)) from error
    except MemorydError as error:
        raise StorageError(error.message, f"MEMORYD_{error.code}") from error


class MemorydStore(BaseStore):
    """A 10xgraph memory store backed by a memoryd server.

    ``MemorydStore("localhost:50051")`` (or ``options=ClientOptions(...)``, or any
    ClientOptions field as a keyword) is all it takes; see the package README for
    the scoping rule and how it differs from QdrantStore. One store may serve
    many graphs, threads and event loops: the sync methods use a sync channel,
    the async ones a channel per event loop, and ``arelease`` only closes
    channels, which reopen on the next call.

    A read sees every write made through this store into its scope: its
    writes in flight, on any channel (``writes``, shared by both clients), and
    on the async methods also the memory writes 10xgraph has scheduled as
    background tasks in the same event loop but not yet sent, whichever graph
    scheduled them. The wait is bounded by the read's deadline.
    """

    def __init__(
        self, target: str | None = None, *, options: ClientOptions | None = None, **fields: Any
    ) -> None:
        self.options = resolve_options(target, options, fields)
        if self.options.write_timeout > MAX_WRITE_TIMEOUT:
            raise ValueError(
                f"write_timeout {self.options.write_timeout}s is too long for 10xgraph, "
                f"which cancels memory writes after 15 s; use at most {MAX_WRITE_TIMEOUT}s"
            )
        self.writes = ScopeWrites()
        self.client = MemorydClient(options=self.options, writes=self.writes)
        self.aclient = AsyncMemorydClient(options=self.options, writes=self.writes)

    def write_token(self, config: dict[str, Any]) -> str:
        """The newest write_token of a write through this store into the config's
        scope ("" if none): hand it to another service, which passes it as
        ``consistency_token`` so that its read waits for this write too."""
        return self.writes.token_for(self._read_scope(config))

    def _read_scope(self, config: dict[str, Any]) -> pb.Scope:
        return memory_scope(config, self._scope_user_id, for_write=False)

    async def _after_scheduled_writes(
        self, scopes: Sequence[pb.Scope], timeout: float | None = None
    ) -> float:
        """Waits for this loop's scheduled 10xgraph writes into ``scopes`` (see
        _pending.py); returns the seconds left of the read's ``timeout``."""
        budget = self.options.read_timeout if timeout is None else timeout
        return await wait_for_scheduled_writes(self, scopes, self._read_scope, budget)

    # --- requests -----------------------------------------------------------

    def _create_request(
        self,
        config: dict[str, Any],
        content: str | Message,
        memory_type: MemoryType,
        category: str,
        metadata: dict[str, Any] | None,
        kwargs: dict[str, Any],
    ) -> svc.CreateMemoryRequest:
        text, values = _convert.content_and_metadata(content, metadata)
        memory_key = kwargs.get("memory_key") or values.get("memory_key") or ""
        request = svc.CreateMemoryRequest(
            memory=pb.Memory(
                content=text,
                scope=memory_scope(config, self._scope_user_id, for_write=True),
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
        return request

    def _search_request(
        self,
        config: dict[str, Any],
        query: str,
        memory_type: MemoryType | None,
        category: str | None,
        limit: int,
        score_threshold: float | None,
        filters: dict[str, Any] | None,
        retrieval_strategy: RetrievalStrategy | str,
        max_tokens: int | None,
    ) -> svc.SearchMemoriesRequest:
        request = svc.SearchMemoriesRequest(
            query=query,
            max_tokens=_convert.token_budget(max_tokens),
            scope=self._read_scope(config),
            limit=_convert.search_limit(limit),
            retrieval_mode=_convert.retrieval_mode(retrieval_strategy),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(filters),
        )
        threshold = _convert.score_threshold(score_threshold)
        if threshold is not None:
            request.score_threshold = threshold
        return request

    def _get_request(self, config: dict[str, Any], memory_id: str) -> svc.GetMemoryRequest:
        return svc.GetMemoryRequest(id=str(memory_id), scope=self._read_scope(config))

    def _list_request(
        self, config: dict[str, Any], limit: int, kwargs: dict[str, Any]
    ) -> svc.ListMemoriesRequest:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        memory_type, category = kwargs.get("memory_type"), kwargs.get("category")
        return svc.ListMemoriesRequest(
            scope=self._read_scope(config),
            page_size=min(limit, 1000),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(kwargs.get("filters")),
        )

    def _update_request(
        self,
        config: dict[str, Any],
        memory_id: str,
        content: str | Message,
        metadata: dict[str, Any] | None,
        kwargs: dict[str, Any],
    ) -> svc.UpdateMemoryRequest:
        text, values = _convert.content_and_metadata(content, metadata)
        memory = pb.Memory(
            id=str(memory_id),
            content=text,
            scope=memory_scope(config, self._scope_user_id, for_write=True),
        )
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
        request.update_mask.paths.extend(paths)
        return request

    def _delete_request(self, config: dict[str, Any], memory_id: str) -> svc.DeleteMemoryRequest:
        scope = memory_scope(config, self._scope_user_id, for_write=True)
        return svc.DeleteMemoryRequest(id=str(memory_id), scope=scope, mode=_SYNC)

    def _forget_request(
        self, config: dict[str, Any], kwargs: dict[str, Any]
    ) -> svc.ForgetMemoriesRequest:
        memory_type, category = kwargs.get("memory_type"), kwargs.get("category")
        return svc.ForgetMemoriesRequest(
            scope=forget_scope(config, self._scope_user_id),
            memory_types=[_convert.memory_type(memory_type)] if memory_type else [],
            categories=[category] if category else [],
            filter=_convert.filter_from_dict(kwargs.get("filters")),
            mode=_SYNC,
        )

    # --- async API ----------------------------------------------------------

    async def asetup(self) -> bool:
        """Connects to memoryd; raises TransientStorageError if it is unreachable."""
        with _storage_errors():
            await self.aclient.wait_ready()
        return True

    async def astore(
        self,
        config: dict[str, Any],
        content: str | Message,
        memory_type: MemoryType = MemoryType.EPISODIC,
        category: str = "general",
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> str:
        """Stores a memory and returns its id: a caller's ``memory_id`` as given, or the
        existing memory's id when the server updated a same-``memory_key`` memory or
        skipped a near-duplicate."""
        request = self._create_request(config, content, memory_type, category, metadata, kwargs)
        with _storage_errors():
            response = await self.aclient.create_memory(request)
            if response.outcome == svc.WRITE_OUTCOME_ACCEPTED:  # a server that ignored SYNC
                response = (await self.aclient.wait_for_write(response.write_token)).create_memory
        return response.memory.id

    async def asearch(
        self,
        config: dict[str, Any],
        query: str,
        memory_type: MemoryType | None = None,
        category: str | None = None,
        limit: int = 10,
        score_threshold: float | None = None,
        filters: dict[str, Any] | None = None,
        retrieval_strategy: RetrievalStrategy = RetrievalStrategy.SIMILARITY,
        distance_metric: DistanceMetric = DistanceMetric.COSINE,
        max_tokens: int = 4000,
        **kwargs: Any,
    ) -> list[MemorySearchResult]:
        """Memories of the config's scope closest to ``query``, best first, scores in
        [0, 1]. ``retrieval_strategy`` SIMILARITY ranks by cosine similarity (DENSE),
        HYBRID by dense and BM25 rankings fused (HYBRID); others raise ValueError.
        ``max_tokens`` (0 or None: no budget) keeps the best results whose contents
        fit, counted by the server as a Preload budget is. ``distance_metric`` is ignored:
        memoryd's vectors are compared by cosine."""
        request = self._search_request(
            config,
            query,
            memory_type,
            category,
            limit,
            score_threshold,
            filters,
            retrieval_strategy,
            max_tokens,
        )
        with _storage_errors():
            remaining = await self._after_scheduled_writes([request.scope])
            response = await self.aclient.search_memories(request, timeout=remaining)
        return [_convert.result(hit.memory, hit.score) for hit in response.results]

    async def aget(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> MemorySearchResult | None:
        """The memory, or None if the config's scope has no memory with that id."""
        try:
            request = self._get_request(config, memory_id)
        except ValueError:
            return None
        with _storage_errors():
            remaining = await self._after_scheduled_writes([request.scope])
            try:
                response = await self.aclient.get_memory(request, timeout=remaining)
            except (MemoryNotFound, InvalidArgument):
                return None
        return _convert.result(response.memory)

    async def aget_all(
        self, config: dict[str, Any], limit: int = 100, **kwargs: Any
    ) -> list[MemorySearchResult]:
        """Up to ``limit`` memories of the config's scope, newest first."""
        request = self._list_request(config, limit, kwargs)
        results: list[MemorySearchResult] = []
        with _storage_errors():
            remaining = await self._after_scheduled_writes([request.scope])
            async for memory in self.aclient.iter_memories(request, timeout=remaining):
                results.append(_convert.result(memory))
                if len(results) >= limit:
                    break
        return results

    async def aupdate(
        self,
        config: dict[str, Any],
        memory_id: str,
        content: str | Message,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Replaces the content (and merges, or with ``replace_metadata=True`` replaces,
        the metadata). Raises ValueError if the scope has no such memory."""
        request = self._update_request(config, memory_id, content, metadata, kwargs)
        with _storage_errors(memory_id):
            await self.aclient.update_memory(request)

    async def adelete(self, config: dict[str, Any], memory_id: str, **kwargs: Any) -> None:
        """Deletes the memory. Raises ValueError if the scope has no such memory."""
        request = self._delete_request(config, memory_id)
        with _storage_errors(memory_id):
            await self.aclient.delete_memory(request)

    async def aforget_memory(self, config: dict[str, Any], **kwargs: Any) -> int:
        """Deletes the scope's memories (a user's thread_id, and the optional
        ``memory_type``, ``category`` and ``filters`` narrow it); returns how many."""
        request = self._forget_request(config, kwargs)
        with _storage_errors():
            response = await self.aclient.forget_memories(request)
        return int(response.deleted_count)

    async def arelease(self) -> None:
        """Closes this loop's and the sync channel. Idempotent; the store keeps working
        (graphs sharing it call this on aclose), reconnecting on the next call."""
        await self.aclient.close()
        self.client.close()

    # --- sync API: served from the sync channel, never from a per-call loop ---

    def setup(self) -> bool:
        with _storage_errors():
            self.client.wait_ready()
        return True

    def store(
        self,
        config: dict[str, Any],
        content: str | Message,
        memory_type: MemoryType = MemoryType.EPISODIC,
        category: str = "general",
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> str:
        request = self._create_request(config, content, memory_type, category, metadata, kwargs)
        with _storage_errors():
            response = self.client.create_memory(request)
            if response.outcome == svc.WRITE_OUTCOME_ACCEPTED:
                response = self.client.wait_for_write(response.write_token).create_memory
        return response.memory.id

    def search(
        self,
        config: dict[str, Any],
        query: str,
        memory_type: MemoryType | None = None,
        category: str | None = None,
        limit: int = 10,
        score_threshold: float | None = None,
        filters: dict[str, Any] | None = None,
        retrieval_strategy: RetrievalStrategy = RetrievalStrategy.SIMILARITY,
        distance_metric: DistanceMetric = DistanceMetric.COSINE,
        max_tokens: int = 4000,
        **kwargs: Any,
    ) -> list[MemorySearchResult]:
        request = self._search_request(
            config,
            query,
            memory_type,
            category,
            limit,
            score_threshold,
            filters,
            retrieval_strategy,
            max_tokens,
        )
        with _storage_errors():
            response = self.client.search_memories(request)
        return [_convert.result(hit.memory, hit.score) for hit in response.results]

    def get(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> MemorySearchResult | None:
        try:
            request = self._get_request(config, memory_id)
        except ValueError:
            return None
        with _storage_errors():
            try:
                response = self.client.get_memory(request)
            except (MemoryNotFound, InvalidArgument):
                return None
        return _convert.result(response.memory)

    def get_all(
        self, config: dict[str, Any], limit: int = 100, **kwargs: Any
    ) -> list[MemorySearchResult]:
        request = self._list_request(config, limit, kwargs)
        results: list[MemorySearchResult] = []
        with _storage_errors():
            for memory in self.client.iter_memories(request):
                results.append(_convert.result(memory))
                if len(results) >= limit:
                    break
        return results

    def update(
        self,
        config: dict[str, Any],
        memory_id: str,
        content: str | Message,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        request = self._update_request(config, memory_id, content, metadata, kwargs)
        with _storage_errors(memory_id):
            self.client.update_memory(request)

    def delete(self, config: dict[str, Any], memory_id: str, **kwargs: Any) -> None:
        request = self._delete_request(config, memory_id)
        with _storage_errors(memory_id):
            self.client.delete_memory(request)

    def forget_memory(self, config: dict[str, Any], **kwargs: Any) -> int:
        request = self._forget_request(config, kwargs)
        with _storage_errors():
            response = self.client.forget_memories(request)
        return int(response.deleted_count)

    def release(self) -> None:
        self.client.close()
