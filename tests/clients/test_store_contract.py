"""A BaseStore contract, run against MemorydStore over a real server.

Each test names the rule of issue 5's adapter checklist it checks.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
from tenxgraph.core.exceptions import TransientStorageError
from tenxgraph.storage.store import BaseStore, MemoryConfig, MemoryType

from memoryd_client import ClientOptions
from memoryd_client.tenxgraph import MemorydStore, SharedMemoryWriteRefused

from support import ServerProcess

METHODS = ["astore", "asearch", "aget", "aget_all", "aupdate", "adelete", "aforget_memory"]


@pytest.fixture
def store(server: ServerProcess) -> MemorydStore:
    return MemorydStore(server.address)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_is_a_real_base_store_that_memory_config_accepts(store: MemorydStore) -> None:
    assert isinstance(store, BaseStore)
    assert MemoryConfig(store=store).store is store


@pytest.mark.parametrize("name", METHODS)
def test_methods_take_config_first_and_accept_unknown_kwargs(name: str) -> None:
    parameters = list(inspect.signature(getattr(MemorydStore, name)).parameters.values())
    assert parameters[1].name == "config"
    assert parameters[-1].kind is inspect.Parameter.VAR_KEYWORD


def test_unknown_kwargs_and_config_keys_are_ignored(store: MemorydStore, user: str) -> None:
    config = {"user_id": user, "collection": "ignored", "whatever": object()}

    async def scenario() -> None:
        memory_id = await store.astore(config, "the user drinks oat milk", flavour="x")
        assert (await store.aget(config, memory_id, flavour="x")) is not None
        assert await store.asearch(config, "milk", flavour="x")
        assert await store.aget_all(config, flavour="x")
        await store.aupdate(config, memory_id, "the user drinks soy milk", flavour="x")
        await store.adelete(config, memory_id, flavour="x")
        assert await store.aforget_memory(config, flavour="x") == 0

    run(scenario())


def test_store_then_get_search_list_update_delete(store: MemorydStore, user: str) -> None:
    config = {"user_id": user, "thread_id": "t1"}

    async def scenario() -> None:
        memory_id = await store.astore(
            config, "I'm in UTC-5", MemoryType.SEMANTIC, "profile", {"source": "chat"}
        )
        got = await store.aget(config, memory_id)
        assert got is not None and got.content == "I'm in UTC-5"
        assert got.memory_type is MemoryType.SEMANTIC and got.user_id == user
        assert got.metadata["source"] == "chat" and got.metadata["category"] == "profile"
        (hit,) = await store.asearch(
            {"user_id": user, "thread_id": "other"}, "What timezone is the user in?"
        )
        assert hit.id == memory_id
        await store.aupdate(config, memory_id, "I'm in UTC+1", {"source": "fix"})
        updated = await store.aget(config, memory_id)
        assert updated is not None and updated.content == "I'm in UTC+1"
        assert updated.metadata["source"] == "fix"
        await store.adelete(config, memory_id)
        assert await store.aget(config, memory_id) is None

    run(scenario())


@pytest.mark.parametrize("memory_id", ["1893402938475627520", "mem_01HZX-abc", "a b:c/d"])
def test_caller_given_ids_of_any_string_form_are_kept(
    store: MemorydStore, user: str, memory_id: str
) -> None:
    config = {"user_id": user}
    assert store.store(config, "the user plays chess", memory_id=memory_id) == memory_id
    got = store.get(config, memory_id)
    assert got is not None and got.id == memory_id


def test_scores_are_never_negative(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}
    store.store(config, "quantum chromodynamics lecture notes")
    store.store(config, "a recipe for banana bread")
    results = store.search(config, "zebra migration in the Serengeti", limit=5)
    assert results and all(0.0 <= r.score <= 1.0 for r in results)


def test_memory_key_is_unique_even_for_concurrent_stores(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}

    async def scenario() -> set[str]:
        ids = await asyncio.gather(
            *(
                store.astore(config, f"the user's name is Ada {i}", metadata={"memory_key": "name"})
                for i in range(4)
            )
        )
        return set(ids)

    assert len(run(scenario())) == 1
    (only,) = store.get_all(config)
    assert only.metadata["memory_key"] == "name"
    assert store.search(config, "name", filters={"memory_key": "name"})[0].id == only.id


def test_unkeyed_near_duplicate_returns_the_existing_id(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}
    first = store.store(config, "The user lives in Lisbon.")
    assert store.store(config, "The user lives in Lisbon.") == first
    assert len(store.get_all(config)) == 1


def test_users_are_isolated_and_foreign_ids_look_missing(store: MemorydStore, user: str) -> None:
    alice, bob = {"user_id": user + "-a"}, {"user_id": user + "-b"}
    memory_id = store.store(alice, "Alice's locker code is 4411")
    assert store.search(bob, "locker code") == []
    assert store.get(bob, memory_id) is None
    with pytest.raises(ValueError, match="not found"):
        store.update(bob, memory_id, "hijacked")
    with pytest.raises(ValueError, match="not found"):
        store.delete(bob, memory_id)
    assert store.get(alice, memory_id) is not None


def test_user_scoping_goes_through_scope_user_id(
    store: MemorydStore, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    original = BaseStore._scope_user_id

    def spy(self: BaseStore, config: dict[str, Any], user_id: Any) -> Any:
        seen.append(user_id)
        return original(self, config, user_id)

    monkeypatch.setattr(BaseStore, "_scope_user_id", spy)
    owner = {"user_id": user, "authz": {"user_id": user, "scope": "owner"}}
    store.store(owner, "the user is vegetarian")
    assert store.search(owner, "diet")
    assert seen == [user, user]
    # scope "none" asks for no user scoping; memoryd still reads the caller's own memory.
    unscoped = {"user_id": user + "-other", "authz": {"scope": "none"}}
    assert store.search(unscoped, "diet") == []


def test_agent_config_reads_shared_memory_not_the_users(store: MemorydStore, user: str) -> None:
    agent = f"agent-{user}"
    store.store({"agent_id": agent}, "Refunds are processed within 5 business days")
    store.store({"user_id": user}, "The user asked about refunds for order 77")
    # As 10xgraph's agent_memory_tool builds it: the run's user_id, agent_id, thread_id=agent_id.
    tool_config = {"user_id": user, "agent_id": agent, "thread_id": agent}
    assert [r.content for r in store.search(tool_config, "refund policy")] == [
        "Refunds are processed within 5 business days"
    ]
    assert [r.content for r in store.search({"user_id": user}, "refund policy")] == [
        "The user asked about refunds for order 77"
    ]


def test_shared_memory_is_not_written_on_behalf_of_a_user(store: MemorydStore, user: str) -> None:
    config = {"agent_id": "a1", "user": {"user_id": user, "authz": {"scope": "owner"}}}
    with pytest.raises(SharedMemoryWriteRefused):
        store.store(config, "model-written agent memory")
    assert isinstance(SharedMemoryWriteRefused("x"), ValueError)


def test_config_without_owner_is_a_value_error(store: MemorydStore) -> None:
    with pytest.raises(ValueError, match="user_id"):
        store.store({}, "orphan")


def test_forget_deletes_the_scope_and_thread_narrows_it(store: MemorydStore, user: str) -> None:
    store.store({"user_id": user, "thread_id": "t1"}, "fact from thread one about sailing")
    store.store({"user_id": user, "thread_id": "t2"}, "fact from thread two about pottery")
    assert store.forget_memory({"user_id": user, "thread_id": "t1"}) == 1
    assert [r.content for r in store.get_all({"user_id": user})] == [
        "fact from thread two about pottery"
    ]
    assert run(store.aforget_memory({"user_id": user})) == 1
    assert store.get_all({"user_id": user}) == []


def test_unreachable_server_raises_transient_storage_error() -> None:
    store = MemorydStore("127.0.0.1:1", read_timeout=1.0, write_timeout=1.0)
    with pytest.raises(TransientStorageError):
        store.search({"user_id": "u"}, "anything")
    with pytest.raises(TransientStorageError):
        run(store.astore({"user_id": "u"}, "anything"))
    with pytest.raises(TransientStorageError):
        run(store.asetup())


def test_timeout_raises_transient_storage_error(server: ServerProcess, user: str) -> None:
    store = MemorydStore(options=ClientOptions(target=server.address, read_timeout=1e-6))
    with pytest.raises(TransientStorageError):
        run(store.asearch({"user_id": user}, "anything"))


def test_write_deadlines_stay_under_10xgraphs_flush() -> None:
    with pytest.raises(ValueError, match="15 s"):
        MemorydStore("localhost:50051", write_timeout=14.0)


def test_release_is_idempotent_and_the_store_keeps_working(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}

    async def scenario() -> None:
        assert await store.asetup() is True
        await store.astore(config, "the user collects stamps")
        await store.arelease()
        await store.arelease()
        assert await store.asearch(config, "hobby")

    run(scenario())
    store.release()
    store.release()
    assert store.search(config, "hobby")
    assert store.setup() is True


def test_sync_wrappers_work_inside_and_outside_event_loops(store: MemorydStore, user: str) -> None:
    config = {"user_id": user}
    memory_id = store.store(config, "the user is learning Japanese")

    async def from_a_loop() -> Any:
        # 10xgraph code may call the sync API from a thread while a loop runs.
        return await asyncio.to_thread(store.get, config, memory_id)

    assert run(from_a_loop()) is not None
    for _ in range(3):  # a new loop per call, as BaseStore's run_coroutine does
        assert run(store.aget(config, memory_id)) is not None
