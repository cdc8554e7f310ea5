"""The asyncio client's operator calls: export, import, the change feed, stats and
re-embedding. AsyncMemorydClient inherits them."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import grpc

from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client._calls import ClientBase
from memoryd_client._operator_calls import DEFAULT_BATCH_SIZE
from memoryd_client._status import error_from_rpc
from memoryd_client._transfer_calls import ExportRead, ImportBatches
from memoryd_client.transfers import ExportItem, WatchEvent, watch_event


class AsyncOperatorCalls(ClientBase):
    """The operator calls of AsyncMemorydClient; as OperatorCalls, awaited, with
    ``async for`` over the streams in the loop that started them."""

    def _stub(self) -> memory_service_pb2_grpc.MemoryServiceAsyncStub:
        raise NotImplementedError

    async def _call[Response](
        self, method: Callable[..., Awaitable[Response]], request: Any, timeout: float
    ) -> Response:
        raise NotImplementedError

    async def export_memories(
        self, request: svc.ExportMemoriesRequest | None = None, *, timeout: float | None = None
    ) -> AsyncIterator[ExportItem]:
        """The snapshot's ExportHeader, then each ExportedMemory; as
        MemorydClient.export_memories."""
        request = request if request is not None else svc.ExportMemoriesRequest()
        read = ExportRead(request, self.writes, self._read_budget(timeout), timeout is not None)
        await self.writes.wait_async(read.keys, read.budget)
        stub, sent = self._stub(), read.first()
        while True:
            call = stub.ExportMemories(sent, timeout=read.stream_timeout())
            try:
                async for response in call:
                    for item in read.items(response):
                        yield item
                return
            except grpc.aio.AioRpcError as error:
                sent = read.retry(error_from_rpc(error))
            finally:
                call.cancel()

    async def import_memories(
        self,
        records: Iterable[svc.ExportedMemory] | AsyncIterable[svc.ExportedMemory],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        timeout: float | None = None,
    ) -> svc.ImportMemoriesResponse:
        """Streams ``records`` (an iterable or an async iterable) in batches and
        returns the server's counts; as MemorydClient.import_memories."""
        batches = ImportBatches(self.writes, batch_size)
        requests = _requests(batches, records)
        try:
            response: svc.ImportMemoriesResponse = await self._stub().ImportMemories(
                requests, timeout=timeout
            )
        except grpc.aio.AioRpcError as error:
            batches.finish("")
            raise error_from_rpc(error) from None
        batches.finish(response.write_token)
        if batches.source_error is not None:
            raise batches.source_error
        return response

    async def watch_memories(
        self, request: svc.WatchMemoriesRequest | None = None, *, timeout: float | None = None
    ) -> AsyncIterator[WatchEvent]:
        """The change feed's events; as MemorydClient.watch_memories."""
        call = self._stub().WatchMemories(
            request if request is not None else svc.WatchMemoriesRequest(), timeout=timeout
        )
        try:
            async for response in call:
                event = watch_event(response)
                if event is not None:
                    yield event
        except grpc.aio.AioRpcError as error:
            raise error_from_rpc(error) from None
        finally:
            call.cancel()

    async def get_stats(self, *, timeout: float | None = None) -> svc.GetStatsResponse:
        """What the server holds; as MemorydClient.get_stats."""
        method = self._stub().GetStats
        return await self._call(method, svc.GetStatsRequest(), self._read_budget(timeout))

    async def start_reembed(
        self, embedder: str, *, timeout: float | None = None
    ) -> svc.StartReembedResponse:
        """Starts re-embedding with ``embedder``; as MemorydClient.start_reembed."""
        request = svc.StartReembedRequest(embedder=embedder)
        method = self._stub().StartReembed
        return await self._call(method, request, self._write_budget(timeout))

    async def get_reembed_status(
        self, *, timeout: float | None = None
    ) -> svc.GetReembedStatusResponse:
        """The current or last re-embedding; as MemorydClient.get_reembed_status."""
        method = self._stub().GetReembedStatus
        return await self._call(method, svc.GetReembedStatusRequest(), self._read_budget(timeout))


async def _requests(
    batches: ImportBatches,
    records: Iterable[svc.ExportedMemory] | AsyncIterable[svc.ExportedMemory],
) -> AsyncIterator[svc.ImportMemoriesRequest]:
    if not isinstance(records, AsyncIterable):
        for request in batches.requests(records):
            yield request
        return
    source = aiter(records)
    while True:
        try:
            record = await anext(source)
        except StopAsyncIteration:
            break
        except Exception as exc:  # the source's own failure; see ImportBatches
            batches.source_error = exc
            break
        ready = batches.add(record)
        if ready is not None:
            yield ready
    last = batches.rest()
    if last is not None:
        yield last
