"""Preload's scope events against the searches of an in-process engine: each scope's
hits are sent before the next scope's search runs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest

from memoryd.config import Settings
from memoryd.core.model import Scope
from memoryd.core.ports import Hit, Search, VectorIndex
from memoryd.core.preload_events import PreloadRequest, ScopeHits
from memoryd.server import Seams
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create
from support import InProcessServer
from support.hooks import SlowIndex
from support.process import START_TIMEOUT


class RecordingIndex(SlowIndex):
    """Passes everything through, and notes each search in ``log`` as it starts."""

    def __init__(self, inner: VectorIndex, log: list[str]) -> None:
        super().__init__(inner, delay=0)
        self._log = log

    async def search(self, searches: Sequence[Search]) -> list[list[Hit]]:
        self._log.append("search")
        return await super().search(searches)


@dataclass
class Recorded:
    server: InProcessServer
    log: list[str]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    log: list[str] = []
    settings = Settings(data_dir=tmp_path_factory.mktemp("preload-order"), port=0)
    seams = Seams(wrap_index=lambda inner: RecordingIndex(inner, log))
    server = InProcessServer(settings, seams=seams).start()
    try:
        with server.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            create(stub, "I am vegetarian", user="user-order", mode=svc.WRITE_MODE_SYNC)
            create(stub, "Reply in formal English", agent_id="agent-order")
        yield Recorded(server, log)
    finally:
        server.stop()


def test_user_hits_are_sent_before_the_agent_search_runs(recorded: Recorded) -> None:
    app = recorded.server.app
    assert app is not None
    log = recorded.log

    async def preload() -> None:
        request = PreloadRequest(
            query="what do I eat",
            turns=(),
            user_scope=Scope(user_id="user-order"),
            agent_scope=Scope(agent_id="agent-order"),
            limit=5,
        )
        log.clear()
        async for event in app.preloader.preload(request, lambda: None):
            if isinstance(event, ScopeHits):
                log.append(f"{event.scope.name} hits: {len(event.hits)}")

    asyncio.run_coroutine_threadsafe(preload(), recorded.server.loop).result(START_TIMEOUT)
    assert log == ["search", "USER hits: 1", "search", "AGENT hits: 1"]
