"""Expiry through MemorydStore.

10xgraph 0.10.3 passes no expiry to a store: BaseStore.astore and aupdate take
none, and MemoryConfig and LongTermMemory have no ttl setting. MemorydStore
takes its own keyword arguments ``ttl`` and ``expire_time`` for callers that
want one, as it takes ``memory_key`` and ``dedup_threshold``.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from datetime import UTC, datetime, timedelta

import pytest
from tenxgraph.storage.store import BaseStore

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client.tenxgraph import MemorydStore

from support import ServerProcess


@pytest.fixture
def store(server: ServerProcess) -> MemorydStore:
    return MemorydStore(server.address)


def _stored(server: ServerProcess, memory_id: str, user: str) -> pb.Memory:
    with server.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        request = svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(user_id=user))
        memory: pb.Memory = stub.GetMemory(request).memory
        return memory


def _expiry(memory: pb.Memory) -> datetime | None:
    return memory.expire_time.ToDatetime(tzinfo=UTC) if memory.HasField("expire_time") else None


@pytest.mark.parametrize("method", ["astore", "aupdate"])
def test_tenxgraph_passes_no_expiry_to_a_store(method: str) -> None:
    """If a 10xgraph release adds one, MemorydStore has to map it: this fails then."""
    names = set(inspect.signature(getattr(BaseStore, method)).parameters)
    assert not {n for n in names if "ttl" in n or "expir" in n}


def test_store_with_ttl_stores_an_expire_time(
    store: MemorydStore, server: ServerProcess, user: str
) -> None:
    config = {"user_id": user}
    memory_id = store.store(config, "the user is in Tokyo this week", ttl=timedelta(days=7))
    stored = _stored(server, memory_id, user)
    assert _expiry(stored) == stored.create_time.ToDatetime(tzinfo=UTC) + timedelta(days=7)


def test_an_expired_memory_is_gone_for_the_store(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}
    memory_id = store.store(config, "the user is boarding flight LH 401", ttl=1)
    kept = store.store(config, "the user flies with Lufthansa")
    # The ttl counts from when the server journaled the store, before it answered.
    deadline = datetime.now(UTC) + timedelta(seconds=1)
    while (left := (deadline - datetime.now(UTC)).total_seconds()) >= 0:
        time.sleep(left + 0.001)
    assert store.get(config, memory_id) is None
    assert [r.id for r in store.search(config, "Which flight is the user on?")] == [kept]
    assert [r.id for r in store.get_all(config)] == [kept]


def test_update_sets_expire_time_and_ttl(
    store: MemorydStore, server: ServerProcess, user: str
) -> None:
    config = {"user_id": user}
    memory_id = store.store(config, "the user rents a flat in Porto")
    when = datetime.now(UTC).replace(microsecond=0) + timedelta(days=90)
    asyncio.run(
        store.aupdate(config, memory_id, "the user rents a flat in Braga", expire_time=when)
    )
    stored = _stored(server, memory_id, user)
    assert (stored.content, _expiry(stored)) == ("the user rents a flat in Braga", when)
    store.update(config, memory_id, "the user rents a flat in Faro", ttl=60)
    stored = _stored(server, memory_id, user)
    assert _expiry(stored) == stored.update_time.ToDatetime(tzinfo=UTC) + timedelta(seconds=60)


@pytest.mark.parametrize(
    "kwargs",
    [{"ttl": 0}, {"ttl": -3}, {"expire_time": datetime(2001, 1, 1, tzinfo=UTC)}],
    ids=["zero_ttl", "negative_ttl", "past_expire_time"],
)
def test_bad_expiry_is_a_value_error(
    store: MemorydStore, user: str, kwargs: dict[str, object]
) -> None:
    with pytest.raises(ValueError, match="ttl|expire_time"):
        store.store({"user_id": user}, "the user likes tapas", **kwargs)
    assert store.get_all({"user_id": user}) == []
