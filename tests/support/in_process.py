"""A memoryd server on its own event loop thread, inside the test process."""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

import grpc

from support.process import START_TIMEOUT

if TYPE_CHECKING:
    from memoryd.config import Settings
    from memoryd.server import App, Seams
    from memoryd.telemetry import Telemetry


class InProcessServer:
    """A memoryd server on its own event loop thread, in this process.

    For tests that need to look inside (an in-memory span exporter, a fault
    injected into one component through ``seams``); everything else uses
    ServerProcess.
    """

    def __init__(
        self, settings: Settings, telemetry: Telemetry | None = None, seams: Seams | None = None
    ) -> None:
        self.settings = settings
        self.telemetry = telemetry
        self.seams = seams
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.app: App | None = None
        self._server: grpc.aio.Server | None = None
        self.port = 0

    def start(self) -> InProcessServer:
        from memoryd.server import build, create_server

        self._thread.start()

        async def boot() -> None:
            self.app = await build(self.settings, self.telemetry, self.seams)
            self._server, self.port = await create_server(self.settings, self.app)
            await self._server.start()

        asyncio.run_coroutine_threadsafe(boot(), self.loop).result(START_TIMEOUT)
        return self

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stop(self) -> None:
        async def shutdown() -> None:
            if self._server is not None:
                await self._server.stop(1)
            if self.app is not None:
                await self.app.close()

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(START_TIMEOUT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(START_TIMEOUT)
        self.loop.close()
