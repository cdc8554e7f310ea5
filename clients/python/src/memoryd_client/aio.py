"""The asyncio client: one channel per event loop, opened on first use in that loop.

A grpc.aio channel belongs to the loop it was created in. 10xgraph's sync wrappers
run each call in a fresh loop (``asyncio.run``), and servers may run several loops,
so this client never shares a channel between loops: it keeps one per running
loop and lets go of the channels of loops that have closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Self

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client._aio_operator_calls import AsyncOperatorCalls
from memoryd_client._calls import WriteResponse
from memoryd_client._channels import aio_channel
from memoryd_client._status import error_from_rpc
from memoryd_client.errors import MemorydError
from memoryd_client.preload import ContextBlock, PreloadEvent


@dataclass(slots=True)
class _LoopChannel:
    channel: grpc.aio.Channel
    stub: memory_service_pb2_grpc.MemoryServiceAsyncStub


class AsyncMemorydClient(AsyncOperatorCalls):
    """Asyncio client for memoryd.v1.MemoryService; the async twin of MemorydClient.

    Constructed as MemorydClient. Same methods, deadlines, retry policy, request
    ids, typed errors and read-your-writes (``writes``; a write in flight from
    any loop or thread holds back a read of its scope here). Safe to use from
    any number of event loops, one after another or at once.
    """

    def _init_channels(self) -> None:
        self._by_loop: dict[asyncio.AbstractEventLoop, _LoopChannel] = {}

    def _current(self) -> _LoopChannel:
        loop = asyncio.get_running_loop()
        current = self._by_loop.get(loop)
        if current is None:
            # Channels of closed loops cannot be awaited closed any more; dropping
            # them lets grpc close them synchronously when they are collected.
            self._drop_closed_loops()
            channel = aio_channel(self.options)
            current = _LoopChannel(channel, memory_service_pb2_grpc.MemoryServiceStub(channel))
            self._by_loop[loop] = current
        return current

    def _drop_closed_loops(self) -> None:
        for stale in [other for other in self._by_loop if other.is_closed()]:
            del self._by_loop[stale]

    def _stub(self) -> memory_service_pb2_grpc.MemoryServiceAsyncStub:
        return self._current().stub

    async def _call[Response](
        self, method: Callable[..., Awaitable[Response]], request: Any, timeout: float
    ) -> Response:
        try:
            return await method(request, timeout=timeout)
        except grpc.aio.AioRpcError as error:
            raise error_from_rpc(error) from None

    async def _send_write[Response: WriteResponse](
        self, method: Callable[..., Awaitable[Response]], request: Any, timeout: float | None
    ) -> Response:
        with self._sent_write(request) as write:
            response = await self._call(method, write.request, self._write_budget(timeout))
            return write.answered(response)

    async def _send_read[Response](
        self, method: Callable[..., Awaitable[Response]], request: Any, timeout: float | None
    ) -> Response:
        read = self._read(request, timeout)
        await self.writes.wait_async(read.keys, read.budget)
        try:
            return await self._call(method, read.first(), read.time_left())
        except MemorydError as error:
            return await self._call(method, read.retry(error), read.time_left())

    async def create_memory(
        self, request: svc.CreateMemoryRequest, *, timeout: float | None = None
    ) -> svc.CreateMemoryResponse:
        return await self._send_write(self._stub().CreateMemory, request, timeout)

    async def batch_create_memories(
        self, request: svc.BatchCreateMemoriesRequest, *, timeout: float | None = None
    ) -> svc.BatchCreateMemoriesResponse:
        return await self._send_write(self._stub().BatchCreateMemories, request, timeout)

    async def get_memory(
        self, request: svc.GetMemoryRequest, *, timeout: float | None = None
    ) -> svc.GetMemoryResponse:
        return await self._send_read(self._stub().GetMemory, request, timeout)

    async def list_memories(
        self, request: svc.ListMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ListMemoriesResponse:
        return await self._send_read(self._stub().ListMemories, request, timeout)

    async def iter_memories(
        self, request: svc.ListMemoriesRequest, *, timeout: float | None = None
    ) -> AsyncIterator[pb.Memory]:
        """Every memory the list request selects, newest first, page by page."""
        page = svc.ListMemoriesRequest()
        page.CopyFrom(request)
        while True:
            response = await self.list_memories(page, timeout=timeout)
            for memory in response.memories:
                yield memory
            if not response.next_page_token:
                return
            page.page_token = response.next_page_token

    async def update_memory(
        self, request: svc.UpdateMemoryRequest, *, timeout: float | None = None
    ) -> svc.UpdateMemoryResponse:
        return await self._send_write(self._stub().UpdateMemory, request, timeout)

    async def delete_memory(
        self, request: svc.DeleteMemoryRequest, *, timeout: float | None = None
    ) -> svc.DeleteMemoryResponse:
        return await self._send_write(self._stub().DeleteMemory, request, timeout)

    async def search_memories(
        self, request: svc.SearchMemoriesRequest, *, timeout: float | None = None
    ) -> svc.SearchMemoriesResponse:
        return await self._send_read(self._stub().SearchMemories, request, timeout)

    async def forget_memories(
        self, request: svc.ForgetMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ForgetMemoriesResponse:
        return await self._send_write(self._stub().ForgetMemories, request, timeout)

    async def preload(
        self, request: svc.PreloadRequest, *, timeout: float | None = None
    ) -> AsyncIterator[PreloadEvent]:
        """The Preload stream's events, typed; as MemorydClient.preload.

        Use it with ``async for`` in the loop that started it. Leaving the loop
        early cancels the call once the generator is closed (``aclose()``, or
        when it is collected).
        """
        read = self._preload_read(request, timeout)
        await self.writes.wait_async(read.keys, read.budget)
        stub, sent = self._stub(), read.first()
        while True:
            call = stub.Preload(sent, timeout=read.time_left())
            try:
                async for response in call:
                    for event in read.events(response):
                        yield event
                return
            except grpc.aio.AioRpcError as error:
                sent = read.retry(error_from_rpc(error))
            finally:
                call.cancel()

    async def preload_context(
        self, request: svc.PreloadRequest, *, timeout: float | None = None
    ) -> str | None:
        """The rendered context block of a Preload; as MemorydClient.preload_context."""
        block = ContextBlock()
        async for event in self.preload(request, timeout=timeout):
            block.add(event)
        return block.text

    async def get_write_status(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Where an ASYNC write stands; as MemorydClient.get_write_status."""
        request = svc.GetWriteStatusRequest(write_token=write_token)
        method = self._stub().GetWriteStatus
        return await self._call(method, request, self._read_budget(timeout))

    async def wait_for_write(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Polls GetWriteStatus until the write is applied; as MemorydClient.wait_for_write."""
        poll = self._write_poll(write_token, timeout)
        while True:
            status = await self.get_write_status(write_token, timeout=poll.timeout())
            if poll.is_applied(status):
                return status
            await asyncio.sleep(poll.pause())

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Connects now; raises Unavailable if the server is not reachable in time."""
        channel = self._current().channel
        try:
            await asyncio.wait_for(channel.channel_ready(), self._read_budget(timeout))
        except TimeoutError:
            raise self._not_ready() from None

    async def close(self) -> None:
        """Closes this loop's channel and lets go of those of closed loops. Idempotent;
        a later call opens a new channel. Channels of other running loops stay open
        until closed from their own loop."""
        current = self._by_loop.pop(asyncio.get_running_loop(), None)
        self._drop_closed_loops()
        if current is not None:
            await current.channel.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
