"""Read-your-writes in the client: a read of a scope waits for this client's writes into it.

memoryd makes every read wait until the writes already acknowledged in its
scope are indexed. What no server can see is a write still on its way: one
whose RPC is sent but not yet answered. So a client keeps, per scope:

- the writes in flight: a read of the scope first waits until each of them is
  answered, bounded by the read's own deadline (past it the read fails with
  WriteInFlight, a DeadlineExceeded with reason WRITE_IN_FLIGHT, rather than
  return stale results);
- the newest acknowledged ``write_token``: a read of the scope carries it as
  ``consistency_token``, so the server waits for that very write as well.

Scopes are keyed as the server keys them (``memoryd_client._scope_keys``).

Memory stays bounded: one token per key, and beyond ``max_scopes`` keys the
least recently used are forgotten; the server's own per-scope wait still covers
their writes. A token the server refuses (one of another server, or of a data
directory that was replaced) is forgotten and the read is sent again without it.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict

from memoryd.v1 import memory_pb2 as pb
from memoryd_client._in_flight import InFlightWrite, running_loop
from memoryd_client._scope_keys import Keys, reads_of, scope_keys
from memoryd_client.errors import WriteInFlight

#: Scope keys remembered before the least recently used are forgotten.
DEFAULT_MAX_SCOPES = 10_000


def _write_in_flight() -> WriteInFlight:
    return WriteInFlight(
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
        write = InFlightWrite(keys, running_loop())
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
        cannot finish while this thread blocks. Raises WriteInFlight (a
        DeadlineExceeded) if one is still in flight after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        this_loop = running_loop()
        for write in self.in_flight(keys):
            if this_loop is not None and write.loop is this_loop:
                continue
            if not write.wait(deadline - time.monotonic()):
                raise _write_in_flight()

    async def wait_async(self, keys: Keys, timeout: float) -> None:
        """As ``wait``, without blocking the event loop."""
        deadline = time.monotonic() + timeout
        for write in self.in_flight(keys):
            if not await write.wait_async(deadline - time.monotonic()):
                raise _write_in_flight()
