"""The Python client's operator calls behind the CLI, sync and async: export yields the
header then the records, import streams batches, the feed yields typed events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from seeding import SYNC, seed_user

from memoryd_client import (
    AsyncMemorydClient,
    ChangeHistoryExpired,
    MemorydClient,
    pb,
    svc,
)

from support import ServerProcess


def _export(client: MemorydClient, user: str) -> tuple[svc.ExportHeader, list[svc.ExportedMemory]]:
    request = svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user), page_size=2)
    items = list(client.export_memories(request))
    header, records = items[0], items[1:]
    assert isinstance(header, svc.ExportHeader)
    assert all(isinstance(record, svc.ExportedMemory) for record in records)
    return header, records  # type: ignore[return-value]  # checked just above


def test_export_yields_the_header_first_then_every_record(client: MemorydClient, user: str) -> None:
    ids = seed_user(client, user)
    header, records = _export(client, user)
    assert header.memory_count == len(ids)
    assert header.dimension == client.get_stats().dimension
    assert sorted(record.memory.id for record in records) == sorted(ids)


def test_import_streams_in_batches_and_raises_the_sources_own_error(
    client: MemorydClient, user: str
) -> None:
    seed_user(client, user)
    _, records = _export(client, user)

    def failing_source() -> Iterator[svc.ExportedMemory]:
        yield from records[:3]
        raise OSError("the disk went away")

    client.forget_memories(svc.ForgetMemoriesRequest(scope=pb.Scope(user_id=user), mode=SYNC))
    with pytest.raises(OSError, match="the disk went away"):
        client.import_memories(failing_source(), batch_size=2)
    kept = client.iter_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))
    assert sorted(memory.id for memory in kept) == sorted(r.memory.id for r in records[:3])

    response = client.import_memories(records, batch_size=1)
    assert (response.received_count, response.created_count) == (len(records), 1)
    assert response.unchanged_count == 3 and response.write_token
    with pytest.raises(ValueError, match="batch_size is 501"):
        client.import_memories(records, batch_size=501)


def test_the_async_client_exports_and_imports_the_same(server: ServerProcess, user: str) -> None:
    async def scenario() -> svc.ImportMemoriesResponse:
        async with AsyncMemorydClient(server.address) as aio:
            with MemorydClient(server.address) as client:
                seed_user(client, user)
            request = svc.ExportMemoriesRequest(scope=pb.Scope(user_id=user))
            items = [item async for item in aio.export_memories(request)]
            assert isinstance(items[0], svc.ExportHeader) and items[0].memory_count == 4

            async def source() -> AsyncIterator[svc.ExportedMemory]:
                for item in items[1:]:
                    assert isinstance(item, svc.ExportedMemory)
                    yield item

            return await aio.import_memories(source())

    response = asyncio.run(scenario())
    assert (response.received_count, response.unchanged_count) == (4, 4)


def test_watch_yields_started_then_each_change(client: MemorydClient, user: str) -> None:
    after = client.get_stats().change_sequence
    ids = seed_user(client, user)
    request = svc.WatchMemoriesRequest(scope=pb.Scope(user_id=user), start_after_sequence=after)
    events = client.watch_memories(request, timeout=30)
    started = next(events)
    assert isinstance(started, svc.WatchStarted) and started.after_sequence == after
    changes = [next(events) for _ in range(5)]  # four creates and an update
    events.close()
    assert all(isinstance(change, svc.MemoryChange) for change in changes)
    assert {change.memory.id for change in changes} == set(ids)  # type: ignore[union-attr]


def test_watch_past_the_history_raises_change_history_expired(client: MemorydClient) -> None:
    ahead = client.get_stats().change_sequence + 1_000_000
    request = svc.WatchMemoriesRequest(start_after_sequence=ahead)
    with pytest.raises(ChangeHistoryExpired) as expired:
        next(iter(client.watch_memories(request, timeout=30)))
    assert (expired.value.code, expired.value.reason) == ("OUT_OF_RANGE", "CHANGE_HISTORY_EXPIRED")
