"""The synchronous client: one thread-safe channel, usable from any thread or event loop."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Self

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client._calls import WriteResponse
from memoryd_client._channels import sync_channel
from memoryd_client._operator_calls import OperatorCalls
from memoryd_client._status import error_from_rpc
from memoryd_client.errors import MemorydError
from memoryd_client.preload import ContextBlock, PreloadEvent


class MemorydClient(OperatorCalls):
    """Blocking client for memoryd.v1.MemoryService.

    ``MemorydClient("host:port", token=..., tls=...)``, or
    ``options=ClientOptions(...)``; keyword arguments are ClientOptions fields
    (ValueError for bad ones).

    Each method takes the generated request message and returns the generated
    response. Every call has a deadline (``timeout`` or the options' read/write
    timeout), is retried on UNAVAILABLE by gRPC's retry policy, and raises a
    ``memoryd_client.errors.MemorydError`` subclass on failure. Writes without a
    request_id get one, so retries are idempotent.

    Reads see this client's own writes (``memoryd_client.consistency``): a read
    of a scope first waits for the writes into it still in flight, within its
    deadline, and carries the newest write_token of that scope as
    ``consistency_token``. ``writes`` shares that bookkeeping between clients.

    The channel opens on first use; ``close()`` releases it, and a later call
    opens a new one. A sync channel has no event loop, so this client is also
    the safe choice for code that runs each call in a fresh loop.

    The operator calls (``export_memories``, ``import_memories``,
    ``watch_memories``, ``get_stats``, ``start_reembed``, ``get_reembed_status``)
    are documented on OperatorCalls and in ``memoryd_client.transfers``.
    """

    def _init_channels(self) -> None:
        self._lock = threading.Lock()
        self._raw: grpc.Channel | None = None
        self._stub: memory_service_pb2_grpc.MemoryServiceStub | None = None

    def _connect(self) -> memory_service_pb2_grpc.MemoryServiceStub:
        with self._lock:
            if self._stub is None:
                self._raw, channel = sync_channel(self.options)
                self._stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            return self._stub

    def _call[Response](
        self, method: Callable[..., Response], request: Any, timeout: float
    ) -> Response:
        try:
            return method(request, timeout=timeout)
        except grpc.RpcError as error:
            raise error_from_rpc(error) from None

    def _send_write[Response: WriteResponse](
        self, method: Callable[..., Response], request: Any, timeout: float | None
    ) -> Response:
        with self._sent_write(request) as write:
            response = self._call(method, write.request, self._write_budget(timeout))
            return write.answered(response)

    def _send_read[Response](
        self, method: Callable[..., Response], request: Any, timeout: float | None
    ) -> Response:
        read = self._read(request, timeout)
        self.writes.wait(read.keys, read.budget)
        try:
            return self._call(method, read.first(), read.time_left())
        except MemorydError as error:
            return self._call(method, read.retry(error), read.time_left())

    def create_memory(
        self, request: svc.CreateMemoryRequest, *, timeout: float | None = None
    ) -> svc.CreateMemoryResponse:
        return self._send_write(self._connect().CreateMemory, request, timeout)

    def batch_create_memories(
        self, request: svc.BatchCreateMemoriesRequest, *, timeout: float | None = None
    ) -> svc.BatchCreateMemoriesResponse:
        return self._send_write(self._connect().BatchCreateMemories, request, timeout)

    def get_memory(
        self, request: svc.GetMemoryRequest, *, timeout: float | None = None
    ) -> svc.GetMemoryResponse:
        return self._send_read(self._connect().GetMemory, request, timeout)

    def list_memories(
        self, request: svc.ListMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ListMemoriesResponse:
        return self._send_read(self._connect().ListMemories, request, timeout)

    def iter_memories(
        self, request: svc.ListMemoriesRequest, *, timeout: float | None = None
    ) -> Iterator[pb.Memory]:
        """Every memory the list request selects, newest first, page by page.

        ``timeout`` applies to each page's call.
        """
        page = svc.ListMemoriesRequest()
        page.CopyFrom(request)
        while True:
            response = self.list_memories(page, timeout=timeout)
            yield from response.memories
            if not response.next_page_token:
                return
            page.page_token = response.next_page_token

    def update_memory(
        self, request: svc.UpdateMemoryRequest, *, timeout: float | None = None
    ) -> svc.UpdateMemoryResponse:
        return self._send_write(self._connect().UpdateMemory, request, timeout)

    def delete_memory(
        self, request: svc.DeleteMemoryRequest, *, timeout: float | None = None
    ) -> svc.DeleteMemoryResponse:
        return self._send_write(self._connect().DeleteMemory, request, timeout)

    def search_memories(
        self, request: svc.SearchMemoriesRequest, *, timeout: float | None = None
    ) -> svc.SearchMemoriesResponse:
        return self._send_read(self._connect().SearchMemories, request, timeout)

    def forget_memories(
        self, request: svc.ForgetMemoriesRequest, *, timeout: float | None = None
    ) -> svc.ForgetMemoriesResponse:
        return self._send_write(self._connect().ForgetMemories, request, timeout)

    def preload(
        self, request: svc.PreloadRequest, *, timeout: float | None = None
    ) -> Iterator[PreloadEvent]:
        """The Preload stream's events, typed (see ``memoryd_client.preload``): ScopeHits
        per scope, PreloadContext, then PreloadDone; or one PreloadNotModified.

        ``timeout`` (default: the read timeout) is the deadline of the whole stream;
        the server sends a partial PreloadDone rather than miss it when it can.
        Raises a MemorydError subclass, when iterated, if the call fails.
        Stopping early (``break``, or closing the iterator) cancels the call.
        """
        read = self._preload_read(request, timeout)
        self.writes.wait(read.keys, read.budget)
        stub, sent = self._connect(), read.first()
        while True:
            call = stub.Preload(sent, timeout=read.time_left())
            try:
                for response in call:
                    yield from read.events(response)
                return
            except grpc.RpcError as error:
                sent = read.retry(error_from_rpc(error))
            finally:
                call.cancel()

    def preload_context(
        self, request: svc.PreloadRequest, *, timeout: float | None = None
    ) -> str | None:
        """Runs Preload and returns its rendered context block ("" when no memory
        was included), ready for the model's prompt; None when ``if_none_match``
        still holds (not_modified), so the block the caller kept is current."""
        block = ContextBlock()
        for event in self.preload(request, timeout=timeout):
            block.add(event)
        return block.text

    def get_write_status(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Where an ASYNC write stands. Raises UnknownWriteToken for a token the
        server does not know, and Unimplemented on servers without the RPC."""
        request = svc.GetWriteStatusRequest(write_token=write_token)
        stub = self._connect()
        return self._call(stub.GetWriteStatus, request, self._read_budget(timeout))

    def wait_for_write(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Polls GetWriteStatus until the write is applied, and returns its status.

        Raises WriteFailed if the write was rejected when applied, and
        DeadlineExceeded if it is still pending after ``timeout`` seconds
        (default: the write timeout).
        """
        poll = self._write_poll(write_token, timeout)
        while True:
            status = self.get_write_status(write_token, timeout=poll.timeout())
            if poll.is_applied(status):
                return status
            time.sleep(poll.pause())

    def wait_ready(self, timeout: float | None = None) -> None:
        """Connects now; raises Unavailable if the server is not reachable in time."""
        self._connect()
        assert self._raw is not None
        try:
            grpc.channel_ready_future(self._raw).result(timeout=self._read_budget(timeout))
        except grpc.FutureTimeoutError:
            raise self._not_ready() from None

    def close(self) -> None:
        """Closes the channel. Idempotent; a later call opens a new channel."""
        with self._lock:
            raw, self._raw, self._stub = self._raw, None, None
        if raw is not None:
            raw.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
