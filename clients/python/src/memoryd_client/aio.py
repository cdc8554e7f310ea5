"""The asyncio client: one channel per event loop, opened on first use in that loop.

A grpc.aio channel belongs to the loop it was created in. 10xgraph's sync wrappers
run each call in a fresh loop (``asyncio.run``), and servers may run several loops,
so this client never shares a channel between loops: it keeps one per running
loop and lets go of the channels of loops that have closed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Self, TypeVar

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client import _channels
from memoryd_client.client import _POLL_MAX, _POLL_START, _pending, _WriteResponse
from memoryd_client.consistency import (
    ScopeWrites,
    read_keys_of,
    time_left,
    token_refused,
    with_token,
    without_token,
    write_keys,
)
from memoryd_client.errors import (
    MemorydError,
    Unavailable,
    WriteFailed,
    error_from_rpc,
    error_from_status,
)
from memoryd_client.messages import with_request_id
from memoryd_client.options import ClientOptions, resolve_options
from memoryd_client.preload import PreloadEvent, preload_event

_Response = TypeVar("_Response")


@dataclass(slots=True)
class _LoopChannel:
    channel: grpc.aio.Channel
    stub: memory_service_pb2_grpc.MemoryServiceAsyncStub
    write_status: Callable[..., Awaitable[svc.GetWriteStatusResponse]]


class AsyncMemorydClient:
    """Asyncio client for memoryd.v1.MemoryService; the async twin of MemorydClient.

    Same methods, deadlines, retry policy, request ids, typed errors and
    read-your-writes (``writes``; a write in flight from any loop or thread
    holds back a read of its scope here). Safe to use from any number of event
    loops, one after another or at once.
    """

    def __init__(
        self,
        target: str | None = None,
        *,
        options: ClientOptions | None = None,
        writes: ScopeWrites | None = None,
        **fields: Any,
    ) -> None:
        """``AsyncMemorydClient("host:port", ...)``, as MemorydClient."""
        self.options = resolve_options(target, options, fields)
        self.writes = writes if writes is not None else ScopeWrites()
        self._by_loop: dict[asyncio.AbstractEventLoop, _LoopChannel] = {}

    def _current(self) -> _LoopChannel:
        loop = asyncio.get_running_loop()
        current = self._by_loop.get(loop)
        if current is None:
            # Channels of closed loops cannot be awaited closed any more; dropping
            # them lets grpc close them synchronously when they are collected.
            for stale in [other for other in self._by_loop if other.is_closed()]:
                del self._by_loop[stale]
            channel = _channels.aio_channel(self.options)
            current = _LoopChannel(
                channel,
                memory_service_pb2_grpc.MemoryServiceStub(channel),
                channel.unary_unary(
                    _channels.GET_WRITE_STATUS,
                    request_serializer=_channels.serialize,
                    response_deserializer=_channels.deserialize,
                ),
            )
            self._by_loop[loop] = current
        return current

    async def _call(
        self, method: Callable[..., Awaitable[_Response]], request: Any, timeout: float
    ) -> _Response:
        try:
            return await method(request, timeout=timeout)
        except grpc.aio.AioRpcError as error:
            raise error_from_rpc(error) from None

    async def _send_write(
        self,
        method: Callable[..., Awaitable[_WriteResponse]],
        request: Any,
        timeout: float | None,
    ) -> _WriteResponse:
        write = self.writes.begin(write_keys(request))
        token = ""
        try:
            response = await self._call(method, with_request_id(request), self._write(timeout))
            token = response.write_token
            return response
        finally:
            self.writes.finish(write, token)

    async def _send_read(
        self, method: Callable[..., Awaitable[_Response]], request: Any, timeout: float | None
    ) -> _Response:
        budget = self._read(timeout)
        deadline = time.monotonic() + budget
        keys = read_keys_of(request)
        await self.writes.wait_async(keys, budget)
        sent, token = with_token(request, self.writes, keys)
        try:
            return await self._call(method, sent, time_left(deadline))
        except MemorydError as error:
            if not (token and token_refused(error)):
                raise
        # As in MemorydClient._send_read: a token the server does not know never fails a read.
        self.writes.forget_token(token)
        remaining = time_left(deadline)
        return await self._call(method, without_token(sent), remaining)

    def _read(self, timeout: float | None) -> float:
        return self.options.read_timeout if timeout is None else timeout

    def _write(self, timeout: float | None) -> float:
        return self.options.write_timeout if timeout is None else timeout

    async def create_memory(
        self, request: svc.CreateMemoryRequest, *, timeout: float | None = None
    ) -> svc.CreateMemoryResponse:
        return await self._send_write(self._current().stub.CreateMemory, request, timeout)

    async def batch_create_memories(
        self, request: svc.BatchCreateMemoriesRequest, *, timeout: float | None = None
    ) -> svc.BatchCreateMemoriesResponse:
        stub = self._current().stub
        return await self._send_write(stub.BatchCreateMemories, request, timeout)

    async def get_memory(
        self, request: svc.GetMemoryRequest, *, timeout: float | None = None
    ) -> svc.GetMemoryResponse:
        return await self._send_read(self._current().stub.GetMemory, request, timeout)

    async def list_memories(
        self, request: svc.ListMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ListMemoriesResponse:
        return await self._send_read(self._current().stub.ListMemories, request, timeout)

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
        return await self._send_write(self._current().stub.UpdateMemory, request, timeout)

    async def delete_memory(
        self, request: svc.DeleteMemoryRequest, *, timeout: float | None = None
    ) -> svc.DeleteMemoryResponse:
        return await self._send_write(self._current().stub.DeleteMemory, request, timeout)

    async def search_memories(
        self, request: svc.SearchMemoriesRequest, *, timeout: float | None = None
    ) -> svc.SearchMemoriesResponse:
        return await self._send_read(self._current().stub.SearchMemories, request, timeout)

    async def forget_memories(
        self, request: svc.ForgetMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ForgetMemoriesResponse:
        return await self._send_write(self._current().stub.ForgetMemories, request, timeout)

    async def preload(
        self, request: svc.PreloadRequest, *, timeout: float | None = None
    ) -> AsyncIterator[PreloadEvent]:
        """The Preload stream's events, typed; as MemorydClient.preload.

        Use it with ``async for`` in the loop that started it. Leaving the loop
        early cancels the call once the generator is closed (``aclose()``, or
        when it is collected).
        """
        budget = self._read(timeout)
        deadline = time.monotonic() + budget
        keys = read_keys_of(request)
        await self.writes.wait_async(keys, budget)
        sent, token = with_token(request, self.writes, keys)
        stub, started = self._current().stub, False
        while True:
            call = stub.Preload(sent, timeout=time_left(deadline))
            try:
                async for response in call:
                    event = preload_event(response)
                    if event is None:
                        continue
                    started = True
                    yield event
                return
            except grpc.aio.AioRpcError as rpc_error:
                error = error_from_rpc(rpc_error)
                if started or not (token and token_refused(error)):
                    raise error from None
            finally:
                call.cancel()
            self.writes.forget_token(token)  # as in MemorydClient.preload
            sent, token = without_token(sent), ""

    async def get_write_status(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Where an ASYNC write stands. Raises Unimplemented on servers without it."""
        request = svc.GetWriteStatusRequest(write_token=write_token)
        return await self._call(self._current().write_status, request, self._read(timeout))

    async def wait_for_write(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Polls GetWriteStatus until the write is applied; as MemorydClient.wait_for_write."""
        deadline = time.monotonic() + self._write(timeout)
        pause = _POLL_START
        while True:
            remaining = deadline - time.monotonic()
            status = await self.get_write_status(write_token, timeout=max(remaining, 0.001))
            if status.state == svc.WRITE_STATE_APPLIED:
                return status
            if status.state == svc.WRITE_STATE_FAILED:
                raise WriteFailed(write_token, error_from_status(status.error))
            if time.monotonic() + pause >= deadline:
                raise error_from_status(_pending(write_token))
            await asyncio.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Connects now; raises Unavailable if the server is not reachable in time."""
        channel = self._current().channel
        try:
            await asyncio.wait_for(channel.channel_ready(), self._read(timeout))
        except TimeoutError:
            raise Unavailable(
                "UNAVAILABLE", f"no connection to {self.options.target} in time"
            ) from None

    async def close(self) -> None:
        """Closes this loop's channel and lets go of those of closed loops. Idempotent;
        a later call opens a new channel. Channels of other running loops stay open
        until closed from their own loop."""
        loop = asyncio.get_running_loop()
        current = self._by_loop.pop(loop, None)
        for stale in [other for other in self._by_loop if other.is_closed()]:
            del self._by_loop[stale]
        if current is not None:
            await current.channel.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
