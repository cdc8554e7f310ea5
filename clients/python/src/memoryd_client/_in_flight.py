"""One write RPC in flight: sent, not yet answered, and waitable from any thread or loop."""

from __future__ import annotations

import asyncio
import threading

from memoryd_client._scope_keys import Keys


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, or None."""
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

    def __init__(self, keys: Keys, loop: asyncio.AbstractEventLoop | None) -> None:
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
