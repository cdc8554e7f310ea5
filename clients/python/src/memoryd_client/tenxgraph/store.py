"""MemorydStore: memoryd as a 10xgraph BaseStore (tested against 10xgraph 0.10.3)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from tenxgraph.core.exceptions import StorageError, TransientStorageError
from tenxgraph.core.state import Message
from tenxgraph.storage.store.base_store import BaseStore
from tenxgraph.storage.store.store_schema import MemorySearchResult

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
from memoryd_client.tenxgraph._requests import StoreRequests

#: 10xgraph cancels pending memory writes after a 15 s flush; stay well below it.
MAX_WRITE_TIMEOUT = 10.0


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

    The methods take 10xgraph's BaseStore arguments, passed on to the request
    builders of ``_requests.py``, which name them and hold their defaults.

    A read sees every write made through this store into its scope: its writes
    in flight, on any channel (``writes``, shared by both clients), and on the
    async methods also the memory writes 10xgraph has scheduled as
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
        # Looked up per call, as BaseStore's own methods do, so overrides apply.
        self._requests = StoreRequests(lambda config, user_id: self._scope_user_id(config, user_id))

    def write_token(self, config: dict[str, Any]) -> str:
        """The newest write_token of a write through this store into the config's
        scope ("" if none): hand it to another service, which passes it as
        ``consistency_token`` so that its read waits for this write too."""
        return self.writes.token_for(self._read_scope(config))

    def _read_scope(self, config: dict[str, Any]) -> pb.Scope:
        return self._requests.read_scope(config)

    async def await_scheduled_writes(
        self, scopes: Sequence[pb.Scope], timeout: float | None = None
    ) -> float:
        """Waits for the 10xgraph memory writes that graphs in this event loop
        have scheduled into ``scopes`` but not yet sent (see _pending.py), as
        every read of this store does first; returns the seconds left of
        ``timeout`` (default: the read timeout). For code that reads memoryd
        another way, e.g. a preload node."""
        budget = self.options.read_timeout if timeout is None else timeout
        return await wait_for_scheduled_writes(self, scopes, self._read_scope, budget)

    # --- async API ----------------------------------------------------------

    async def asetup(self) -> bool:
        """Connects to memoryd; raises TransientStorageError if it is unreachable."""
        with _storage_errors():
            await self.aclient.wait_ready()
        return True

    async def astore(
        self, config: dict[str, Any], content: str | Message, *args: Any, **kwargs: Any
    ) -> str:
        """Stores a memory and returns its id: a caller's ``memory_id`` as given, or the
        existing memory's id when the server updated a same-``memory_key`` memory or
        skipped a near-duplicate."""
        request = self._requests.create(config, content, *args, **kwargs)
        with _storage_errors():
            response = await self.aclient.create_memory(request)
            if response.outcome == svc.WRITE_OUTCOME_ACCEPTED:  # a server that ignored SYNC
                response = (await self.aclient.wait_for_write(response.write_token)).create_memory
        return response.memory.id

    async def asearch(
        self, config: dict[str, Any], query: str, *args: Any, **kwargs: Any
    ) -> list[MemorySearchResult]:
        """Memories of the config's scope closest to ``query``, best first, scores in
        [0, 1]. ``retrieval_strategy`` SIMILARITY (the default) ranks and scores by
        cosine similarity (DENSE, recency off), HYBRID by dense and BM25 fused
        (HYBRID), RELEVANCE as the server ranks by default; others raise ValueError.
        ``max_tokens`` (0 or None: no budget) keeps the best results whose contents
        fit, counted by the server as a Preload budget is. ``distance_metric`` is ignored:
        memoryd's vectors are compared by cosine. A ``limit`` over the server's
        max_search_limit raises ValueError."""
        request = self._requests.search(config, query, *args, **kwargs)
        with _storage_errors():
            remaining = await self.await_scheduled_writes([request.scope])
            response = await self.aclient.search_memories(request, timeout=remaining)
        return _convert.search_results(response)

    async def aget(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> MemorySearchResult | None:
        """The memory, or None if the config's scope has no memory with that id."""
        request = self._requests.get(config, memory_id)
        with _storage_errors(), suppress(MemoryNotFound, InvalidArgument):
            if request is not None:
                remaining = await self.await_scheduled_writes([request.scope])
                response = await self.aclient.get_memory(request, timeout=remaining)
                return _convert.result(response.memory)
        return None

    async def aget_all(
        self, config: dict[str, Any], *args: Any, **kwargs: Any
    ) -> list[MemorySearchResult]:
        """Up to ``limit`` (default 100) memories of the config's scope, newest first."""
        request = self._requests.get_all(config, *args, **kwargs)
        results: list[MemorySearchResult] = []
        with _storage_errors():
            remaining = await self.await_scheduled_writes([request.scope])
            async for memory in self.aclient.iter_memories(request, timeout=remaining):
                results.append(_convert.result(memory))
                if len(results) >= request.page_size:  # the limit
                    break
        return results

    async def aupdate(
        self, config: dict[str, Any], memory_id: str, *args: Any, **kwargs: Any
    ) -> None:
        """Replaces the content (and merges, or with ``replace_metadata=True`` replaces,
        the metadata). Raises ValueError if the scope has no such memory."""
        request = self._requests.update(config, memory_id, *args, **kwargs)
        with _storage_errors(memory_id):
            await self.aclient.update_memory(request)

    async def adelete(self, config: dict[str, Any], memory_id: str, **kwargs: Any) -> None:
        """Deletes the memory. Raises ValueError if the scope has no such memory."""
        request = self._requests.delete(config, memory_id)
        with _storage_errors(memory_id):
            await self.aclient.delete_memory(request)

    async def aforget_memory(self, config: dict[str, Any], **kwargs: Any) -> int:
        """Deletes the scope's memories (a user's thread_id, and the optional
        ``memory_type``, ``category`` and ``filters`` narrow it); returns how many."""
        request = self._requests.forget(config, **kwargs)
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
        self, config: dict[str, Any], content: str | Message, *args: Any, **kwargs: Any
    ) -> str:
        request = self._requests.create(config, content, *args, **kwargs)
        with _storage_errors():
            response = self.client.create_memory(request)
            if response.outcome == svc.WRITE_OUTCOME_ACCEPTED:
                response = self.client.wait_for_write(response.write_token).create_memory
        return response.memory.id

    def search(
        self, config: dict[str, Any], query: str, *args: Any, **kwargs: Any
    ) -> list[MemorySearchResult]:
        request = self._requests.search(config, query, *args, **kwargs)
        with _storage_errors():
            return _convert.search_results(self.client.search_memories(request))

    def get(
        self, config: dict[str, Any], memory_id: str, **kwargs: Any
    ) -> MemorySearchResult | None:
        request = self._requests.get(config, memory_id)
        with _storage_errors(), suppress(MemoryNotFound, InvalidArgument):
            if request is not None:
                return _convert.result(self.client.get_memory(request).memory)
        return None

    def get_all(
        self, config: dict[str, Any], *args: Any, **kwargs: Any
    ) -> list[MemorySearchResult]:
        request = self._requests.get_all(config, *args, **kwargs)
        with _storage_errors():
            memories = self.client.iter_memories(request)
            wanted = itertools.islice(memories, request.page_size)  # the limit
            return [_convert.result(memory) for memory in wanted]

    def update(self, config: dict[str, Any], memory_id: str, *args: Any, **kwargs: Any) -> None:
        request = self._requests.update(config, memory_id, *args, **kwargs)
        with _storage_errors(memory_id):
            self.client.update_memory(request)

    def delete(self, config: dict[str, Any], memory_id: str, **kwargs: Any) -> None:
        request = self._requests.delete(config, memory_id)
        with _storage_errors(memory_id):
            self.client.delete_memory(request)

    def forget_memory(self, config: dict[str, Any], **kwargs: Any) -> int:
        request = self._requests.forget(config, **kwargs)
        with _storage_errors():
            return int(self.client.forget_memories(request).deleted_count)

    def release(self) -> None:
        self.client.close()
