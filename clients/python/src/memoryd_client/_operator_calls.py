"""The blocking client's operator calls: export, import, the change feed, stats and
re-embedding. MemorydClient inherits them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import grpc

from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client._calls import ClientBase
from memoryd_client._status import error_from_rpc
from memoryd_client._transfer_calls import ExportRead, ImportBatches
from memoryd_client.transfers import ExportItem, WatchEvent, watch_event

#: Records per ImportMemoriesRequest unless the caller says otherwise.
DEFAULT_BATCH_SIZE = 200


class OperatorCalls(ClientBase):
    """ExportMemories, ImportMemories, WatchMemories, GetStats, StartReembed and
    GetReembedStatus for MemorydClient (see ``memoryd_client.transfers``).

    The streams have no deadline unless ``timeout`` is given: an export, an
    import or a watch runs as long as it takes. GetStats, StartReembed and
    GetReembedStatus need an admin principal.
    """

    def _connect(self) -> memory_service_pb2_grpc.MemoryServiceStub:
        raise NotImplementedError

    def _call[Response](
        self, method: Callable[..., Response], request: Any, timeout: float
    ) -> Response:
        raise NotImplementedError

    def export_memories(
        self, request: svc.ExportMemoriesRequest | None = None, *, timeout: float | None = None
    ) -> Iterator[ExportItem]:
        """The snapshot's ExportHeader, then each ExportedMemory (vector included).

        ``request`` None exports every memory of every owner (admin principals
        only). Like a read, it first waits for this client's writes into the
        scope. Raises a MemorydError subclass, when iterated, if the call fails;
        stopping early cancels it.
        """
        request = request if request is not None else svc.ExportMemoriesRequest()
        read = ExportRead(request, self.writes, self._read_budget(timeout), timeout is not None)
        self.writes.wait(read.keys, read.budget)
        stub, sent = self._connect(), read.first()
        while True:
            call = stub.ExportMemories(sent, timeout=read.stream_timeout())
            try:
                for response in call:
                    yield from read.items(response)
                return
            except grpc.RpcError as error:
                sent = read.retry(error_from_rpc(error))
            finally:
                call.cancel()

    def import_memories(
        self,
        records: Iterable[svc.ExportedMemory],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        timeout: float | None = None,
    ) -> svc.ImportMemoriesResponse:
        """Streams ``records`` (as export_memories yields them) in messages of up to
        ``batch_size`` (1-500; ValueError otherwise) and returns the server's counts.

        Idempotent per record: running an interrupted import again writes nothing
        twice. Reads of the imported scopes then carry the import's write_token.
        An exception from ``records`` itself ends the stream after the records
        before it, and is raised once the server has answered (so those records
        are imported); a failed call raises its MemorydError instead.
        """
        batches = ImportBatches(self.writes, batch_size)
        stub = self._connect()
        try:
            response: svc.ImportMemoriesResponse = stub.ImportMemories(
                batches.requests(records), timeout=timeout
            )
        except grpc.RpcError as error:
            batches.finish("")
            raise error_from_rpc(error) from None
        batches.finish(response.write_token)
        if batches.source_error is not None:
            raise batches.source_error
        return response

    def watch_memories(
        self, request: svc.WatchMemoriesRequest | None = None, *, timeout: float | None = None
    ) -> Iterator[WatchEvent]:
        """The change feed: WatchStarted, then each MemoryChange as it is applied,
        and a last WatchFellBehind if this consumer read too slowly.

        ``request`` None watches every owner from now on (admin principals only).
        Raises a MemorydError subclass, when iterated, if the call fails
        (ChangeHistoryExpired for a start_after_sequence the server no longer
        keeps); stopping early cancels it.
        """
        call = self._connect().WatchMemories(
            request if request is not None else svc.WatchMemoriesRequest(), timeout=timeout
        )
        try:
            for response in call:
                event = watch_event(response)
                if event is not None:
                    yield event
        except grpc.RpcError as error:
            raise error_from_rpc(error) from None
        finally:
            call.cancel()

    def get_stats(self, *, timeout: float | None = None) -> svc.GetStatsResponse:
        """What the server holds: counts per kind of owner, the journal backlog, the
        embedder, the engine's sizes and any re-embedding."""
        stub = self._connect()
        return self._call(stub.GetStats, svc.GetStatsRequest(), self._read_budget(timeout))

    def start_reembed(
        self, embedder: str, *, timeout: float | None = None
    ) -> svc.StartReembedResponse:
        """Starts re-embedding every memory with ``embedder`` ("local", "gemini",
        optionally ":model"), or returns the job already running to it. Raises
        InvalidArgument for an unknown or the current embedder, ReembedInProgress
        while a job to another one runs."""
        request = svc.StartReembedRequest(embedder=embedder)
        stub = self._connect()
        return self._call(stub.StartReembed, request, self._write_budget(timeout))

    def get_reembed_status(self, *, timeout: float | None = None) -> svc.GetReembedStatusResponse:
        """The current or last re-embedding (state UNSPECIFIED if none ran)."""
        request = svc.GetReembedStatusRequest()
        stub = self._connect()
        return self._call(stub.GetReembedStatus, request, self._read_budget(timeout))
