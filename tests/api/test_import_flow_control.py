"""A long ImportMemories stream goes at the rate the index takes it: the server
journals at most IMPORT_AHEAD_MESSAGES of one import ahead of indexing, so the
wait at the end of the call stays short, whatever the import's size."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memoryd.config import Settings
from memoryd.core.import_session import IMPORT_AHEAD_MESSAGES
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient
from memoryd_client.errors import WriteNotYetApplied

from support import InProcessServer
from support.process import START_TIMEOUT

MESSAGES = 3 * IMPORT_AHEAD_MESSAGES


def _records() -> Iterator[svc.ExportedMemory]:
    for i in range(MESSAGES):
        memory = pb.Memory(
            id=f"imported-{i}", content=f"Imported fact number {i}", scope=pb.Scope(user_id="u")
        )
        yield svc.ExportedMemory(memory=memory)


def test_an_import_runs_at_most_a_few_messages_ahead_of_the_index(tmp_path: Path) -> None:
    server = InProcessServer(Settings(data_dir=tmp_path, port=0)).start()
    app = server.app
    assert app is not None
    indexer = app.memories._indexer
    held = threading.Event()
    release = asyncio.Event()

    async def hold_the_indexer() -> None:
        async with indexer.paused():  # no write is applied meanwhile
            held.set()
            await release.wait()

    holding = asyncio.run_coroutine_threadsafe(hold_the_indexer(), server.loop)
    client = MemorydClient(server.address)
    try:
        assert held.wait(START_TIMEOUT)
        # One record per message: with nothing applied, the server stops reading
        # the stream once IMPORT_AHEAD_MESSAGES + 1 are journaled, and the call
        # ends at its deadline naming the write it waited for.
        with pytest.raises(WriteNotYetApplied):
            client.import_memories(_records(), batch_size=1, timeout=2.0)
        assert client.get_stats().journal_backlog == IMPORT_AHEAD_MESSAGES + 1

        server.loop.call_soon_threadsafe(release.set)
        holding.result(START_TIMEOUT)
        # Run again, as the error says: the journaled records are applied once, the rest created.
        answer = client.import_memories(_records(), batch_size=1)
        assert (answer.received_count, answer.created_count, answer.unchanged_count) == (
            MESSAGES,
            MESSAGES - (IMPORT_AHEAD_MESSAGES + 1),
            IMPORT_AHEAD_MESSAGES + 1,
        )
        listed = client.list_memories(
            svc.ListMemoriesRequest(scope=pb.Scope(user_id="u"), page_size=100)
        )
        assert sorted(m.id for m in listed.memories) == sorted(
            f"imported-{i}" for i in range(MESSAGES)
        )
    finally:
        client.close()
        server.loop.call_soon_threadsafe(release.set)
        server.stop()
