"""What the sync and async clients do around each call, free of IO: deadlines, the
consistency token of a read and its retry without it, write bookkeeping, and the
backoff of wait_for_write. Each client only sends, waits and sleeps."""

from __future__ import annotations

import time
from typing import Any, Protocol, Self

from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client._in_flight import InFlightWrite
from memoryd_client._scope_keys import read_keys_of, write_keys
from memoryd_client._status import error_from_status
from memoryd_client.consistency import ScopeWrites
from memoryd_client.errors import (
    DeadlineExceeded,
    InvalidArgument,
    MemorydError,
    Unavailable,
    WriteFailed,
)
from memoryd_client.messages import with_consistency_token, with_request_id
from memoryd_client.options import ClientOptions, resolve_options
from memoryd_client.preload import PreloadEvent, preload_event

#: The field a server names when it refuses a read's consistency_token.
_TOKEN_FIELD = "consistency_token"

#: Poll interval bounds for wait_for_write, in seconds.
_POLL_START, _POLL_MAX = 0.005, 0.2


class ReadRequest(Protocol):
    """A read request: Get, List, Search or Preload."""

    consistency_token: str

    def CopyFrom(self, other: Any, /) -> None: ...  # noqa: N802  # protobuf's name


class WriteResponse(Protocol):
    """A write's response: Create, BatchCreate, Update, Delete or Forget."""

    write_token: str


def time_left(deadline: float) -> float:
    """Seconds until ``deadline`` (a time.monotonic() value). Raises
    DeadlineExceeded once it has passed: a call sent then could only race the
    server's answer against its own expiry."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlineExceeded(
            "DEADLINE_EXCEEDED", "the call's deadline passed before it could be sent"
        )
    return left


class ConsistentRead[R: ReadRequest]:
    """One read of a scope: first wait for this client's writes into ``keys`` in
    flight (the client's IO, within ``budget``), then send ``first()``, which
    carries the scope's newest write_token unless the caller set a token."""

    def __init__(self, request: R, writes: ScopeWrites, budget: float) -> None:
        self.keys = read_keys_of(request)
        self.budget = budget
        self._deadline = time.monotonic() + budget
        self._request = request
        self._writes = writes
        self._token = ""

    def time_left(self) -> float:
        """Seconds left of the read's deadline; raises DeadlineExceeded past it."""
        return time_left(self._deadline)

    def first(self) -> R:
        """The request to send. A caller's own consistency_token is kept: the server
        waits for the scope's acknowledged writes anyway, and the caller's token
        may name a write this client cannot know of."""
        if not self._request.consistency_token:
            self._token = self._writes.token_of(self.keys)
        if not self._token:
            return self._request
        return with_consistency_token(self._request, self._token)

    def retry(self, error: MemorydError) -> R:
        """The request to send again after ``error``: the caller's, when the server
        refused the token this read added (another server's, or a replaced data
        directory's), since a read must not fail for it. Raises ``error`` otherwise."""
        if not (self._token and _token_refused(error)):
            raise error from None
        self._writes.forget_token(self._token)
        self._token = ""
        return self._request


class PreloadRead(ConsistentRead[svc.PreloadRequest]):
    """A Preload: its events unwrapped, and a retry only before the first event."""

    _started = False

    def events(self, response: svc.PreloadResponse) -> list[PreloadEvent]:
        """The event of ``response``, or none for an event this client does not know."""
        event = preload_event(response)
        if event is None:
            return []
        self._started = True
        return [event]

    def retry(self, error: MemorydError) -> svc.PreloadRequest:
        if self._started:
            raise error from None
        return super().retry(error)


def _token_refused(error: MemorydError) -> bool:
    return isinstance(error, InvalidArgument) and any(
        violation.field == _TOKEN_FIELD for violation in error.field_violations
    )


class SentWrite:
    """A write while it is in flight, as ``with SentWrite(writes, request) as write:``.

    ``write.request`` is the request to send (with a request_id); reads of its
    scopes wait for it until the block ends, and ``answered(response)`` makes
    later reads carry its write_token.
    """

    def __init__(self, writes: ScopeWrites, request: Any) -> None:
        self.request = with_request_id(request)
        self._writes = writes
        self._keys = write_keys(request)
        self._token = ""
        self._write: InFlightWrite | None = None

    def __enter__(self) -> Self:
        self._write = self._writes.begin(self._keys)
        return self

    def answered[W: WriteResponse](self, response: W) -> W:
        self._token = response.write_token
        return response

    def __exit__(self, *exc_info: object) -> None:
        assert self._write is not None
        self._writes.finish(self._write, self._token)


class WritePoll:
    """wait_for_write's polls of GetWriteStatus, with a doubling pause between them."""

    def __init__(self, write_token: str, budget: float) -> None:
        self._token = write_token
        self._deadline = time.monotonic() + budget
        self._pause = _POLL_START

    def timeout(self) -> float:
        """The deadline of the next poll."""
        return max(self._deadline - time.monotonic(), 0.001)

    def is_applied(self, status: svc.GetWriteStatusResponse) -> bool:
        """Whether the write is applied; raises WriteFailed if it was rejected."""
        if status.state == svc.WRITE_STATE_FAILED:
            raise WriteFailed(self._token, error_from_status(status.error))
        return status.state == svc.WRITE_STATE_APPLIED

    def pause(self) -> float:
        """Seconds to wait before the next poll; raises DeadlineExceeded if the
        deadline would pass first."""
        pause, self._pause = self._pause, min(self._pause * 2, _POLL_MAX)
        if time.monotonic() + pause >= self._deadline:
            raise DeadlineExceeded("DEADLINE_EXCEEDED", f"write {self._token} is still pending")
        return pause


class ClientBase:
    """What MemorydClient and AsyncMemorydClient share: options, the writes in
    flight and tokens per scope, and the IO-free part of each call."""

    def __init__(
        self,
        target: str | None = None,
        *,
        options: ClientOptions | None = None,
        writes: ScopeWrites | None = None,
        **fields: Any,
    ) -> None:
        """``Client("host:port", token=..., tls=...)``, or ``options=ClientOptions(...)``.

        Keyword arguments are ClientOptions fields; raises ValueError for bad ones.
        ``writes`` shares the read-your-writes bookkeeping with other clients.
        """
        self.options = resolve_options(target, options, fields)
        self.writes = writes if writes is not None else ScopeWrites()
        self._init_channels()

    def _init_channels(self) -> None:
        """Sets up the client's channel state: none open yet."""
        raise NotImplementedError

    def _read_budget(self, timeout: float | None) -> float:
        return self.options.read_timeout if timeout is None else timeout

    def _write_budget(self, timeout: float | None) -> float:
        return self.options.write_timeout if timeout is None else timeout

    def _read[R: ReadRequest](self, request: R, timeout: float | None) -> ConsistentRead[R]:
        return ConsistentRead(request, self.writes, self._read_budget(timeout))

    def _preload_read(self, request: svc.PreloadRequest, timeout: float | None) -> PreloadRead:
        return PreloadRead(request, self.writes, self._read_budget(timeout))

    def _sent_write(self, request: Any) -> SentWrite:
        return SentWrite(self.writes, request)

    def _write_poll(self, write_token: str, timeout: float | None) -> WritePoll:
        return WritePoll(write_token, self._write_budget(timeout))

    def _not_ready(self) -> Unavailable:
        return Unavailable("UNAVAILABLE", f"no connection to {self.options.target} in time")
