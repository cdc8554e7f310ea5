"""Read-your-writes in the client: a read of a scope waits for this client's writes into it.

memoryd makes every read wait until the writes already acknowledged in its
scope are indexed. What no server can see is a write still on its way: one
whose RPC is sent but not yet answered. So a client keeps, per scope:

- the writes in flight: a read of the scope first waits until each of them is
  answered, bounded by the read's own deadline (past it the read fails with
  DeadlineExceeded, reason WRITE_IN_FLIGHT, rather than return stale results);
- the newest acknowledged ``write_token``: a read of the scope carries it as
  ``consistency_token``, so the server waits for that very write as well.

Scopes are keyed as the server keys them (server/memoryd/core/freshness.py): a
user's memory by ``user_id`` alone (``agent_id``, ``app_id`` and ``thread_id``
do not narrow a user's reads), shared memory by its ``agent_id`` and by its
``app_id``, and a forget of shared memory that leaves out the app (or the
agent) also by a wildcard that the reads it reaches consult. A scope with no
ids at all (a credential's own user, filled in by the server) has a key of its
own.

Memory stays bounded: one token per key, and beyond ``max_scopes`` keys the
least recently used are forgotten; the server's own per-scope wait still covers
their writes. A token the server refuses (one of another server, or of a data
directory that was replaced) is forgotten and the read is sent again without it.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Protocol

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client.errors import DeadlineExceeded, InvalidArgument

#: Scope keys remembered before the least recently used are forgotten.
DEFAULT_MAX_SCOPES = 10_000

_OWN_SCOPE = "self"
_TOKEN_FIELD = "consistency_token"


#: A forget of shared memory without an app_id (agent_id) reaches every app's
#: (agent's) shared memory; see server/memoryd/core/freshness.py.
_EVERY_APP, _EVERY_AGENT = "app\x1f*", "agent\x1f*"

Keys = frozenset[str]


def scope_keys(scope: pb.Scope) -> tuple[str, ...]:
    """The keys a write to ``scope`` touches (as the server's)."""
    if scope.user_id:
        return (f"user\x1f{scope.user_id}",)
    keys = tuple(
        f"{name}\x1f{value}"
        for name, value in (("agent", scope.agent_id), ("app", scope.app_id))
        if value
    )
    return keys or (_OWN_SCOPE,)


def _forget_keys(scope: pb.Scope) -> tuple[str, ...]:
    keys = scope_keys(scope)
    if scope.user_id or keys == (_OWN_SCOPE,):
        return keys
    if not scope.app_id:
        keys += (_EVERY_APP,)
    if not scope.agent_id:
        keys += (_EVERY_AGENT,)
    return keys


def read_keys(scope: pb.Scope) -> tuple[str, ...]:
    """The keys a read of ``scope`` consults: its own, and the wildcards of the
    forgets that reach it (a read of an app's memory sees every agent's)."""
    keys = scope_keys(scope)
    if scope.user_id or keys == (_OWN_SCOPE,):
        return keys
    if scope.app_id and not scope.agent_id:
        keys += (_EVERY_APP,)
    if scope.agent_id and not scope.app_id:
        keys += (_EVERY_AGENT,)
    return keys


def reads_of(scopes: Iterable[pb.Scope]) -> Keys:
    """The keys a read of ``scopes`` consults."""
    return frozenset(key for scope in scopes for key in read_keys(scope))


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class InFlightWrite:
    """One write RPC that has been sent and not yet answered.

    Waitable from any thread (``wait``) and from any event loop (``wait_async``).
    """

    __slots__ = ("keys", "loop", "_done", "_lock", "_waiters")

    def __init__(self, keys: frozenset[str], loop: asyncio.AbstractEventLoop | None) -> None:
        self.keys = keys
        #: The event loop the write was sent from; None for a blocking call.
        self.loop = loop
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def answered(self) -> None:
        with self._lock:
            self._done.set()
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            try:
                loop.call_soon_threadsafe(_resolve, future)
            except RuntimeError:  # that loop has closed: nobody waits there any more
                pass

    def wait(self, timeout: float) -> bool:
        """Blocks until the write is answered; False if ``timeout`` passed first."""
        return self._done.wait(max(timeout, 0.0))

    async def wait_async(self, timeout: float) -> bool:
        """Waits, without blocking the loop, until the write is answered."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._done.is_set():
                return True
            self._waiters.append((loop, future))
        try:
            async with asyncio.timeout(max(timeout, 0.0)):
                await future
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock:
                if (loop, future) in self._waiters:
                    self._waiters.remove((loop, future))


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


def write_in_flight() -> DeadlineExceeded:
    return DeadlineExceeded(
        "DEADLINE_EXCEEDED",
        "a write into this scope was still in flight when the read's deadline passed; "
        "the read waited for it rather than return stale results. Retry with a longer "
        "deadline",
        "WRITE_IN_FLIGHT",
    )


class ScopeWrites:
    """The writes a client has in flight, and the newest write_token, per scope.

    Every MemorydClient and AsyncMemorydClient has one (``client.writes``); pass
    the same one to several clients (``writes=``) to make each of them wait for
    the others' writes, as MemorydStore does for its sync and async clients.
    Thread-safe, and usable from any number of event loops.
    """

    def __init__(self, max_scopes: int = DEFAULT_MAX_SCOPES) -> None:
        if max_scopes < 1:
            raise ValueError(f"max_scopes must be at least 1, got {max_scopes}")
        self._max_scopes = max_scopes
        self._lock = threading.Lock()
        self._in_flight: set[InFlightWrite] = set()
        # key -> (order the token arrived in, token), least recently used first.
        self._tokens: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._order = itertools.count(1)

    # --- the public surface: by scope ----------------------------------------

    def note(self, scope: pb.Scope, write_token: str) -> None:
        """Makes later reads of ``scope`` carry ``write_token``, e.g. the token of a
        write another service made and passed on."""
        if write_token:
            with self._lock:
                self._remember(frozenset(scope_keys(scope)), write_token)

    def token_for(self, scope: pb.Scope) -> str:
        """The newest write_token a read of ``scope`` carries; "" if none."""
        return self.token_of(reads_of([scope]))

    # --- what the clients call: by key ---------------------------------------

    def begin(self, keys: Keys) -> InFlightWrite:
        """Records a write about to be sent (``write_keys``); call ``finish`` after."""
        write = InFlightWrite(keys, _running_loop())
        with self._lock:
            self._in_flight.add(write)
        return write

    def finish(self, write: InFlightWrite, write_token: str = "") -> None:
        """The write was answered: with its ``write_token``, or "" if it failed."""
        with self._lock:
            self._in_flight.discard(write)
            if write_token:
                self._remember(write.keys, write_token)
        write.answered()

    def _remember(self, keys: Keys, write_token: str) -> None:
        order = next(self._order)
        for key in keys:
            self._tokens[key] = (order, write_token)
            self._tokens.move_to_end(key)
        while len(self._tokens) > self._max_scopes:
            self._tokens.popitem(last=False)

    def forget_token(self, write_token: str) -> None:
        """Forgets a token wherever it is kept (the server refused it)."""
        with self._lock:
            for key in [k for k, (_, token) in self._tokens.items() if token == write_token]:
                del self._tokens[key]

    def token_of(self, keys: Keys) -> str:
        """The newest write_token of a write into any of ``keys``; "" if none."""
        with self._lock:
            known = [self._tokens[key] for key in keys if key in self._tokens]
            for key in keys & self._tokens.keys():
                self._tokens.move_to_end(key)
        return max(known)[1] if known else ""

    def in_flight(self, keys: Keys) -> list[InFlightWrite]:
        """The writes into any of ``keys`` that are sent and not yet answered."""
        with self._lock:
            return [write for write in self._in_flight if write.keys & keys]

    def wait(self, keys: Keys, timeout: float) -> None:
        """Blocks until the writes in flight into ``keys`` are answered.

        Skips writes sent from the event loop running in this thread, which
        cannot finish while this thread blocks. Raises DeadlineExceeded
        (WRITE_IN_FLIGHT) if one is still in flight after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        this_loop = _running_loop()
        for write in self.in_flight(keys):
            if this_loop is not None and write.loop is this_loop:
                continue
            if not write.wait(deadline - time.monotonic()):
                raise write_in_flight()

    async def wait_async(self, keys: Keys, timeout: float) -> None:
        """As ``wait``, without blocking the event loop."""
        deadline = time.monotonic() + timeout
        for write in self.in_flight(keys):
            if not await write.wait_async(deadline - time.monotonic()):
                raise write_in_flight()


class _ConsistentRead(Protocol):
    consistency_token: str

    def CopyFrom(self, other: Any, /) -> None: ...  # noqa: N802  # protobuf's name


def with_token[R: _ConsistentRead](request: R, writes: ScopeWrites, keys: Keys) -> tuple[R, str]:
    """(the request to send, the token this client added, or "").

    A caller's own consistency_token is kept: the server waits for this scope's
    acknowledged writes anyway, and the caller's token may name a write it
    cannot otherwise know of."""
    if request.consistency_token:
        return request, ""
    token = writes.token_of(keys)
    if not token:
        return request, ""
    copy = type(request)()
    copy.CopyFrom(request)
    copy.consistency_token = token
    return copy, token


def token_refused(error: Exception) -> bool:
    """Whether the server refused the request's consistency_token."""
    return isinstance(error, InvalidArgument) and any(
        violation.field == _TOKEN_FIELD for violation in error.field_violations
    )


def without_token[R: _ConsistentRead](request: R) -> R:
    copy = type(request)()
    copy.CopyFrom(request)
    copy.consistency_token = ""
    return copy


def read_keys_of(request: Any) -> Keys:
    """The keys a read request (Get, List, Search, Preload) consults."""
    if isinstance(request, svc.PreloadRequest):
        scopes = [request.user_scope]
        if request.HasField("agent_scope"):
            scopes.append(request.agent_scope)
        return reads_of(scopes)
    return reads_of([request.scope])


def write_keys(request: Any) -> Keys:
    """The keys a write request (Create, BatchCreate, Update, Delete, Forget) touches."""
    if isinstance(request, svc.BatchCreateMemoriesRequest):
        return frozenset(key for item in request.requests for key in scope_keys(item.memory.scope))
    if isinstance(request, svc.CreateMemoryRequest | svc.UpdateMemoryRequest):
        return frozenset(scope_keys(request.memory.scope))
    if isinstance(request, svc.ForgetMemoriesRequest):
        return frozenset(_forget_keys(request.scope))
    return frozenset(scope_keys(request.scope))
