"""Issue 5 scenarios 1-5: real 10xgraph graphs, a scripted model, a real memoryd server.

The scripted model (examples/scripted_model.py) overrides private Agent hooks of
10xgraph 0.10.3; memoryd-client pins that version in its `tenxgraph` extra.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

from injectq import InjectQ
from scripted_model import Reply, ScriptedAgent, ToolCall, last_tool_result, system_text
from tenxgraph.core.graph import StateGraph, ToolNode
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import AgentMemoryConfig, MemoryConfig, MemoryIntegration
from tenxgraph.utils.background_task_manager import BackgroundTaskManager
from tenxgraph.utils.constants import END

from memoryd_client.tenxgraph import MemorydStore

from support import ServerProcess

TESTED_VERSION = "0.10.3"


def route(state: AgentState) -> str:
    return "TOOL" if state.context and state.context[-1].tools_calls else END


class Harness:
    """One compiled graph with its own InjectQ container, and helpers to drive it."""

    def __init__(self, store: MemorydStore, agent: ScriptedAgent, tools: Sequence[Any] = ()):
        self.container = InjectQ()
        self.agent = agent
        graph = StateGraph(container=self.container)
        graph.add_node("MAIN", agent)
        graph.add_node("TOOL", ToolNode(list(tools)))
        graph.add_conditional_edges("MAIN", route, {"TOOL": "TOOL", END: END})
        graph.add_edge("TOOL", "MAIN")
        self.graph = graph

    def compile(self, store: MemorydStore) -> None:
        if self.graph.entry_point is None:
            self.graph.set_entry_point("MAIN")
        self.app = self.graph.compile(store=store)

    async def say(self, text: str, thread: str, user: str, **config: Any) -> str:
        result = await self.app.ainvoke(
            {"messages": [Message.text_message(text)]},
            config={"thread_id": thread, "user_id": user, **config},
        )
        return str(result["messages"][-1].text())

    async def settle(self) -> None:
        """Waits for the background memory writes (before reading, or aclose)."""
        await self.container.get(BackgroundTaskManager).wait_for_all(timeout=10)


def agent_with(store: MemorydStore, replies: list[Reply], **memory: Any) -> Harness:
    config = MemoryConfig(store=store, **memory)
    tool_node = "TOOL" if config.retrieval_mode == "postload" else None
    harness = Harness(store, ScriptedAgent(replies, tool_node=tool_node, memory=config))
    harness.compile(store)
    return harness


def echo_tool_result(messages: list[dict[str, Any]]) -> str:
    return last_tool_result(messages)


def test_runs_against_the_pinned_10xgraph_version() -> None:
    assert version("10xgraph") == TESTED_VERSION


def test_postload_remember_in_one_thread_and_search_in_another(
    server: ServerProcess, user: str
) -> None:
    store = MemorydStore(server.address)
    harness = agent_with(
        store,
        [
            [ToolCall("user_memory_tool", {"action": "remember", "text": "I'm in UTC-5"})],
            "Noted.",
            [
                ToolCall(
                    "user_memory_tool",
                    {"action": "search", "text": "What timezone is the user in?"},
                )
            ],
            echo_tool_result,
        ],
        retrieval_mode="postload",
    )

    async def scenario() -> str:
        await harness.say("I'm in UTC-5", "t1", user)
        await harness.settle()
        answer = await harness.say("What timezone am I in?", "t2", user)
        await harness.app.aclose()
        return answer

    results = json.loads(asyncio.run(scenario()))
    assert [r["content"] for r in results] == ["I'm in UTC-5"]
    assert results[0]["score"] > 0
    # The store keeps working after the graph's aclose (graphs may share it).
    assert store.search({"user_id": user}, "timezone")


def test_preload_injects_long_term_memory_context(server: ServerProcess, user: str) -> None:
    store = MemorydStore(server.address)
    store.store({"user_id": user}, "I'm in UTC-5")
    harness = agent_with(store, ["It is morning for you."], retrieval_mode="preload")

    async def scenario() -> None:
        await harness.say("What timezone is the user in?", "t2", user)
        await harness.app.aclose()

    asyncio.run(scenario())
    (request,) = harness.agent.requests
    context = system_text(request)
    assert "[Long-term Memory Context]" in context
    assert "I'm in UTC-5" in context


def test_memory_integration_store_search_update_delete_with_key_dedup(
    server: ServerProcess, user: str
) -> None:
    store = MemorydStore(server.address)
    memory = MemoryIntegration(store=store, retrieval_mode="preload")
    ids: list[str] = []

    def remember_id(messages: list[dict[str, Any]]) -> str:
        ids.extend(r["id"] for r in json.loads(last_tool_result(messages)))
        return "found"

    replies: list[Reply] = [
        [
            ToolCall(
                "memory_tool",
                {"action": "store", "content": "User's name is Ada", "memory_key": "user_name"},
            )
        ],
        "ok",
        [
            ToolCall(
                "memory_tool",
                {"action": "store", "content": "User's name is Grace", "memory_key": "user_name"},
            )
        ],
        "ok",
        [ToolCall("memory_tool", {"action": "search", "query": "What is the user's name?"})],
        remember_id,
        lambda _: [
            ToolCall(
                "memory_tool",
                {"action": "update", "memory_id": ids[0], "content": "User's name is Grace Hopper"},
            )
        ],
        "ok",
        lambda _: [ToolCall("memory_tool", {"action": "delete", "memory_id": ids[0]})],
        "ok",
    ]
    agent = ScriptedAgent(
        replies,
        system_prompt=[{"role": "system", "content": memory.system_prompt}],
        tool_node="TOOL",
    )
    harness = Harness(store, agent, memory.tools)
    memory.wire(harness.graph, entry_to="MAIN")
    harness.compile(store)
    config = {"user_id": user}

    async def scenario() -> None:
        await harness.say("My name is Ada", "t1", user)
        await harness.settle()
        await harness.say("Actually it's Grace", "t1", user)
        await harness.settle()
        (only,) = await store.aget_all(config)
        assert only.content == "User's name is Grace"  # same memory_key: updated, not added
        await harness.say("Who am I?", "t2", user)
        assert ids == [only.id]
        # preload mode: the model saw the memory before it was called
        assert "User's name is Grace" in system_text(agent.requests[-2])
        await harness.say("Call me Grace Hopper", "t2", user)
        await harness.settle()
        updated = await store.aget(config, only.id)
        assert updated is not None and updated.content == "User's name is Grace Hopper"
        await harness.say("Forget my name", "t3", user)
        await harness.settle()
        assert await store.aget_all(config) == []
        await harness.app.aclose()

    asyncio.run(scenario())


def test_two_users_stay_isolated(server: ServerProcess, user: str) -> None:
    store = MemorydStore(server.address)
    alice, bob = user + "-alice", user + "-bob"
    harness = agent_with(
        store,
        [
            [
                ToolCall(
                    "user_memory_tool", {"action": "remember", "text": "My bank PIN hint is blue"}
                )
            ],
            "Noted.",
            [ToolCall("user_memory_tool", {"action": "search", "text": "bank PIN hint"})],
            echo_tool_result,
        ],
        retrieval_mode="postload",
    )

    async def scenario() -> str:
        await harness.say("Remember my PIN hint", "t-alice", alice)
        await harness.settle()
        answer = await harness.say("What is my PIN hint?", "t-bob", bob)
        await harness.app.aclose()
        return answer

    assert json.loads(asyncio.run(scenario())) == []
    assert [r.content for r in store.get_all({"user_id": alice})] == ["My bank PIN hint is blue"]


def test_agent_memory_is_seeded_by_code_and_found_by_agent_memory_tool(
    server: ServerProcess, user: str
) -> None:
    store = MemorydStore(server.address)
    agent_id = f"support-{user}"
    # Application code, not the model, writes agent memory: a config with agent_id.
    store.store({"agent_id": agent_id}, "Refunds are processed within 5 business days")
    harness = agent_with(
        store,
        [
            [ToolCall("agent_memory_tool", {"query": "How long do refunds take?"})],
            echo_tool_result,
            [
                ToolCall(
                    "user_memory_tool", {"action": "search", "text": "How long do refunds take?"}
                )
            ],
            echo_tool_result,
        ],
        retrieval_mode="postload",
        agent_memory=AgentMemoryConfig(enabled=True, agent_id=agent_id),
    )

    async def scenario() -> tuple[str, str]:
        shared = await harness.say("Refund timing?", "t1", user)
        personal = await harness.say("Refund timing, from my memories?", "t1", user)
        await harness.app.aclose()
        return shared, personal

    shared, personal = asyncio.run(scenario())
    assert [r["content"] for r in json.loads(shared)] == [
        "Refunds are processed within 5 business days"
    ]
    assert json.loads(personal) == []
