"""The synchronous client: one thread-safe channel, usable from any thread or event loop."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, Self, TypeVar

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client import _channels
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


class _Written(Protocol):
    write_token: str


_WriteResponse = TypeVar("_WriteResponse", bound=_Written)

#: Poll interval bounds for wait_for_write, in seconds.
_POLL_START, _POLL_MAX = 0.005, 0.2


class MemorydClient:
    """Blocking client for memoryd.v1.MemoryService.

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
    """

    def __init__(
        self,
        target: str | None = None,
        *,
        options: ClientOptions | None = None,
        writes: ScopeWrites | None = None,
        **fields: Any,
    ) -> None:
        """``MemorydClient("host:port", token=..., tls=...)``, or ``options=ClientOptions(...)``.

        Keyword arguments are ClientOptions fields; raises ValueError for bad ones.
        """
        self.options = resolve_options(target, options, fields)
        self.writes = writes if writes is not None else ScopeWrites()
        self._lock = threading.Lock()
        self._raw: grpc.Channel | None = None
        self._stub: memory_service_pb2_grpc.MemoryServiceStub | None = None
        self._write_status: Callable[..., svc.GetWriteStatusResponse] | None = None

    def _connect(self) -> memory_service_pb2_grpc.MemoryServiceStub:
        with self._lock:
            if self._stub is None:
                self._raw, channel = _channels.sync_channel(self.options)
                self._stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
                self._write_status = channel.unary_unary(
                    _channels.GET_WRITE_STATUS,
                    request_serializer=_channels.serialize,
                    response_deserializer=_channels.deserialize,
                )
            return self._stub

    def _call(self, method: Callable[..., _Response], request: Any, timeout: float) -> _Response:
        try:
            return method(request, timeout=timeout)
        except grpc.RpcError as error:
            raise error_from_rpc(error) from None

    def _send_write(
        self, method: Callable[..., _WriteResponse], request: Any, timeout: float | None
    ) -> _WriteResponse:
        write = self.writes.begin(write_keys(request))
        token = ""
        try:
            response = self._call(method, with_request_id(request), self._write(timeout))
            token = response.write_token
            return response
        finally:
            self.writes.finish(write, token)

    def _send_read(
        self, method: Callable[..., _Response], request: Any, timeout: float | None
    ) -> _Response:
        budget = self._read(timeout)
        deadline = time.monotonic() + budget
        keys = read_keys_of(request)
        self.writes.wait(keys, budget)
        sent, token = with_token(request, self.writes, keys)
        try:
            return self._call(method, sent, time_left(deadline))
        except MemorydError as error:
            if not (token and token_refused(error)):
                raise
        # The server does not know the token this client added (another server's,
        # or a replaced data directory's): a read must not fail for it.
        self.writes.forget_token(token)
        return self._call(method, without_token(sent), time_left(deadline))

    def _read(self, timeout: float | None) -> float:
        return self.options.read_timeout if timeout is None else timeout

    def _write(self, timeout: float | None) -> float:
        return self.options.write_timeout if timeout is None else timeout

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
        budget = self._read(timeout)
        deadline = time.monotonic() + budget
        keys = read_keys_of(request)
        self.writes.wait(keys, budget)
        sent, token = with_token(request, self.writes, keys)
        stub, started = self._connect(), False
        while True:
            call = stub.Preload(sent, timeout=time_left(deadline))
            try:
                for response in call:
                    event = preload_event(response)
                    if event is None:
                        continue
                    started = True
                    yield event
                return
            except grpc.RpcError as rpc_error:
                error = error_from_rpc(rpc_error)
                if started or not (token and token_refused(error)):
                    raise error from None
            finally:
                call.cancel()
            # A token the server does not know (see _send_read): ask again without it.
            self.writes.forget_token(token)
            sent, token = without_token(sent), ""

    def get_write_status(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Where an ASYNC write stands. Raises Unimplemented on servers without it."""
        self._connect()
        assert self._write_status is not None
        request = svc.GetWriteStatusRequest(write_token=write_token)
        return self._call(self._write_status, request, self._read(timeout))

    def wait_for_write(
        self, write_token: str, *, timeout: float | None = None
    ) -> svc.GetWriteStatusResponse:
        """Polls GetWriteStatus until the write is applied, and returns its status.

        Raises WriteFailed if the write was rejected when applied, and
        DeadlineExceeded if it is still pending after ``timeout`` seconds
        (default: the write timeout).
        """
        deadline = time.monotonic() + self._write(timeout)
        pause = _POLL_START
        while True:
            remaining = deadline - time.monotonic()
            status = self.get_write_status(write_token, timeout=max(remaining, 0.001))
            if status.state == svc.WRITE_STATE_APPLIED:
                return status
            if status.state == svc.WRITE_STATE_FAILED:
                raise WriteFailed(write_token, error_from_status(status.error))
            if time.monotonic() + pause >= deadline:
                raise error_from_status(_pending(write_token))
            time.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)

    def wait_ready(self, timeout: float | None = None) -> None:
        """Connects now; raises Unavailable if the server is not reachable in time."""
        self._connect()
        assert self._raw is not None
        try:
            grpc.channel_ready_future(self._raw).result(timeout=self._read(timeout))
        except grpc.FutureTimeoutError:
            raise Unavailable(
                "UNAVAILABLE", f"no connection to {self.options.target} in time"
            ) from None

    def close(self) -> None:
        """Closes the channel. Idempotent; a later call opens a new channel."""
        with self._lock:
            raw, self._raw, self._stub, self._write_status = self._raw, None, None, None
        if raw is not None:
            raw.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _pending(write_token: str) -> Any:
    from google.rpc import code_pb2, status_pb2

    return status_pb2.Status(
        code=code_pb2.DEADLINE_EXCEEDED, message=f"write {write_token} is still pending"
    )
