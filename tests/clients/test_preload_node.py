"""memoryd_client.tenxgraph.create_memory_preload_node against 10xgraph's own node.

Both nodes run on the same MemorydStore and real server, and must inject the
same system message, byte for byte.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from injectq import InjectQ
from scripted_model import ScriptedAgent, ToolCall, system_text
from tenxgraph.core.graph import StateGraph, ToolNode
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import (
    AgentMemoryConfig,
    MemoryConfig,
    MemoryIntegration,
    MemoryType,
)
from tenxgraph.storage.store import create_memory_preload_node as tenxgraph_node
from tenxgraph.utils.background_task_manager import BackgroundTaskManager
from tenxgraph.utils.constants import END

from memoryd_client import PreloadEvent, svc
from memoryd_client.tenxgraph import MemorydStore, create_memory_preload_node

from support import ServerProcess

FACTS = [
    ("I'm in UTC-5", MemoryType.EPISODIC),
    ("My favourite language is Rust", MemoryType.SEMANTIC),
    ("I prefer short answers", MemoryType.EPISODIC),
    ("My cat is called Miso", MemoryType.SEMANTIC),
    ("I work night shifts on weekends", MemoryType.PROCEDURAL),
    ("I live in Toronto, which is in the Eastern time zone", MemoryType.EPISODIC),
]


@pytest.fixture
def store(server: ServerProcess, user: str) -> MemorydStore:
    store = MemorydStore(server.address)
    for text, memory_type in FACTS:
        store.store({"user_id": user, "thread_id": "t0"}, text, memory_type=memory_type)
    return store


def state_asking(*texts: str) -> AgentState:
    state = AgentState()
    state.context = [Message.text_message(text) for text in texts]
    return state


def texts(messages: list[Message]) -> list[str]:
    assert all(message.role == "system" for message in messages)
    return [message.text() for message in messages]


class Spy:
    """Records the events of every Preload the store's async client streams."""

    def __init__(self, store: MemorydStore) -> None:
        self.streams: list[list[PreloadEvent]] = []
        self.requests: list[svc.PreloadRequest] = []
        preload = store.aclient.preload

        async def recording(
            request: svc.PreloadRequest, **kwargs: Any
        ) -> AsyncIterator[PreloadEvent]:
            self.requests.append(request)
            self.streams.append([])
            async for event in preload(request, **kwargs):
                self.streams[-1].append(event)
                yield event

        store.aclient.preload = recording  # type: ignore[method-assign]

    def terminals(self) -> list[type]:
        return [type(stream[-1]) for stream in self.streams]


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"limit": 2},
        {"limit": 10, "score_threshold": 0.3},
        {"memory_types": [MemoryType.SEMANTIC, MemoryType.PROCEDURAL]},
        {"system_prompt_template": "Known about the user:\n{memories}\n(end)"},
        {"query_builder": lambda state: "pets"},
        {"score_threshold": 0.99},  # nothing matches: both inject nothing
    ],
    ids=["defaults", "limit", "threshold", "types", "template", "query-builder", "no-match"],
)
def test_injects_the_same_message_as_10xgraphs_node(
    store: MemorydStore, user: str, arguments: dict[str, Any]
) -> None:
    theirs, ours = (
        tenxgraph_node(store, **arguments),
        create_memory_preload_node(store, **arguments),
    )
    config = {"user_id": user, "thread_id": "t1"}

    async def both(question: str) -> tuple[list[Message], list[Message]]:
        state = state_asking("hello", question)
        return await theirs(state, config), await ours(state, config)

    for question in ("What timezone is the user in?", "What do I like to program in?"):
        expected, got = asyncio.run(both(question))
        assert texts(got) == texts(expected)
        if "score_threshold" in arguments and arguments["score_threshold"] > 0.9:
            assert got == []
        else:
            assert texts(got)[0].startswith(
                "[Long-term Memory Context]\n"
                if "system_prompt_template" not in arguments
                else "Known about the user:\n- "
            )


def test_a_hybrid_node_ranks_as_the_stores_hybrid_search(store: MemorydStore, user: str) -> None:
    """retrieval_strategy reaches Preload as MemorydStore.asearch maps it."""
    template = "{memories}"
    node = create_memory_preload_node(
        store, system_prompt_template=template, retrieval_strategy="hybrid", limit=6
    )
    question = "Is the user's cat called Miso?"
    (message,) = asyncio.run(node(state_asking(question), {"user_id": user}))
    searched = store.search({"user_id": user}, question, limit=6, retrieval_strategy="hybrid")
    cosine = store.search({"user_id": user}, question, limit=6)
    lines = message.text().splitlines()
    assert len(lines) == len(searched)
    for line, result in zip(lines, searched, strict=True):
        assert line.startswith(f"- {result.content}")
    # The words "cat" and "Miso" raise that memory above its cosine.
    assert searched[0].content == cosine[0].content == "My cat is called Miso"
    assert searched[0].score > cosine[0].score


def test_agent_format_matches_the_agent_memory_prompt(store: MemorydStore, user: str) -> None:
    agent_id = f"agent-{uuid.uuid4().hex[:8]}"
    store.store({"agent_id": agent_id}, "Support hours are 9-17 in the user's time zone")
    memory = MemoryConfig(
        store=store,
        retrieval_mode="preload",
        agent_memory=AgentMemoryConfig(enabled=True, agent_id=agent_id),
    )
    agent = ScriptedAgent([], memory=memory)
    ours = create_memory_preload_node(
        store,
        format="agent",
        agent_scope={"agent_id": agent_id},
        memory_types=[MemoryType.EPISODIC],
        categories=["general"],
    )
    state, config = state_asking("When can I reach support in my time zone?"), {"user_id": user}

    async def both() -> tuple[list[dict[str, Any]], list[Message]]:
        return await agent._build_memory_prompts(state, config), await ours(state, config)

    expected, got = asyncio.run(both())
    assert texts(got) == [prompt["content"] for prompt in expected]
    assert "\n\nAgent memory:\n- Support hours" in texts(got)[0]


def test_a_repeat_preload_is_not_modified_and_reuses_the_block(
    store: MemorydStore, user: str
) -> None:
    spy = Spy(store)
    node = create_memory_preload_node(store)
    state = state_asking("What timezone is the user in?")

    async def scenario() -> list[list[str]]:
        first = await node(state, {"user_id": user, "thread_id": "t1"})
        again = await node(state, {"user_id": user, "thread_id": "t1"})
        other_thread = await node(state, {"user_id": user, "thread_id": "t2"})
        await store.astore({"user_id": user}, "I moved to UTC+1 last month")
        after_write = await node(state, {"user_id": user, "thread_id": "t1"})
        return [texts(first), texts(again), texts(other_thread), texts(after_write)]

    first, again, other_thread, after_write = asyncio.run(scenario())
    assert spy.terminals() == [
        svc.PreloadDone,
        svc.PreloadNotModified,
        svc.PreloadNotModified,  # long-term memory is cross-thread
        svc.PreloadDone,
    ]
    assert not spy.requests[0].if_none_match
    assert spy.requests[1].if_none_match == spy.streams[0][-1].etag  # type: ignore[union-attr]
    assert again == first == other_thread
    assert after_write != first and "UTC+1" in after_write[0]


def test_the_cache_is_per_user(store: MemorydStore, user: str, server: ServerProcess) -> None:
    other = f"user-{uuid.uuid4().hex[:12]}"
    store.store({"user_id": other}, "I'm in UTC+9")
    spy = Spy(store)
    node = create_memory_preload_node(store)
    state = state_asking("What timezone is the user in?")

    async def scenario() -> list[list[str]]:
        return [
            texts(await node(state, {"user_id": user})),
            texts(await node(state, {"user_id": other})),
            texts(await node(state, {"user_id": user})),
        ]

    mine, theirs, mine_again = asyncio.run(scenario())
    assert "UTC+9" in theirs[0] and "UTC+9" not in mine[0]
    assert mine_again == mine
    assert spy.terminals() == [svc.PreloadDone, svc.PreloadDone, svc.PreloadNotModified]
    # A new query is a new request: searched again, not answered from the cache.
    asyncio.run(node(state_asking("What pets do I have?"), {"user_id": user}))
    assert spy.terminals()[-1] is svc.PreloadDone


def test_an_agent_only_config_is_served_as_10xgraph_serves_it(store: MemorydStore) -> None:
    agent_id = f"agent-{uuid.uuid4().hex[:8]}"
    store.store({"agent_id": agent_id}, "Refunds take 5 business days")
    state, config = state_asking("How long do refunds take?"), {"agent_id": agent_id}

    async def both() -> tuple[list[Message], list[Message]]:
        return (
            await tenxgraph_node(store)(state, config),
            await create_memory_preload_node(store)(state, config),
        )

    expected, got = asyncio.run(both())
    assert texts(got) == texts(expected) and "Refunds take 5" in texts(got)[0]


def test_failures_inject_nothing(server: ServerProcess) -> None:
    store = MemorydStore("127.0.0.1:1", read_timeout=0.5, max_attempts=1)
    node = create_memory_preload_node(store)
    assert asyncio.run(node(state_asking("anything"), {"user_id": "u"})) == []
    assert asyncio.run(node(state_asking(), {"user_id": "u"})) == []  # no user message


def test_bad_arguments_are_refused_up_front(store: MemorydStore) -> None:
    with pytest.raises(TypeError):
        create_memory_preload_node(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_tokens"):
        create_memory_preload_node(store, max_tokens=-1)
    with pytest.raises(ValueError, match="limit"):
        create_memory_preload_node(store, limit=0)
    with pytest.raises(ValueError, match="template"):
        create_memory_preload_node(store, format="agent", system_prompt_template="{memories}")
    with pytest.raises(ValueError, match="agent_scope"):
        create_memory_preload_node(store, agent_scope={"user_id": "u"})


def test_max_tokens_is_a_budget_memoryd_enforces(store: MemorydStore, user: str) -> None:
    state, config = state_asking("Tell me about myself"), {"user_id": user}
    unbounded = asyncio.run(create_memory_preload_node(store, limit=6)(state, config))
    tight = asyncio.run(create_memory_preload_node(store, limit=6, max_tokens=60)(state, config))
    assert 0 < texts(tight)[0].count("\n- ") < texts(unbounded)[0].count("\n- ")


def test_state_graph_with_the_streaming_node_end_to_end(server: ServerProcess, user: str) -> None:
    """MemoryIntegration's tools and prompt, with the streaming node wired in place of its
    own; the scripted model stores a fact in turn 1 and sees it preloaded in turn 2."""
    store = MemorydStore(server.address)
    memory = MemoryIntegration(store=store, retrieval_mode="preload")
    agent = ScriptedAgent(
        [
            "Nothing about you yet.",
            [
                ToolCall(
                    "memory_tool",
                    {
                        "action": "store",
                        "content": "The user's favourite language is Rust",
                        "memory_key": "favorite_language",
                    },
                )
            ],
            "Got it.",
            lambda messages: "Preloaded: " + system_text(messages),
        ],
        system_prompt=[{"role": "system", "content": memory.system_prompt}],
        tool_node="TOOL",
    )
    container = InjectQ()
    graph = StateGraph(container=container)
    graph.add_node("MAIN", agent)
    graph.add_node("TOOL", ToolNode(memory.tools))
    graph.add_node("memory_preload", create_memory_preload_node(store))
    graph.set_entry_point("memory_preload")
    graph.add_edge("memory_preload", "MAIN")
    graph.add_conditional_edges(
        "MAIN",
        lambda state: "TOOL" if state.context and state.context[-1].tools_calls else END,
        {"TOOL": "TOOL", END: END},
    )
    graph.add_edge("TOOL", "MAIN")
    app = graph.compile(store=store)

    async def scenario() -> tuple[str, str]:
        first = await app.ainvoke(
            {"messages": [Message.text_message("Hi, which language do I like?")]},
            config={"thread_id": "t1", "user_id": user},
        )
        await app.ainvoke(
            {"messages": [Message.text_message("I love Rust")]},
            config={"thread_id": "t1", "user_id": user},
        )
        await container.get(BackgroundTaskManager).wait_for_all(timeout=10)
        second = await app.ainvoke(
            {"messages": [Message.text_message("Which language do I like?")]},
            config={"thread_id": "t2", "user_id": user},
        )
        await app.aclose()
        return first["messages"][-1].text(), second["messages"][-1].text()

    first, second = asyncio.run(scenario())
    assert first == "Nothing about you yet."
    assert "[Long-term Memory Context]\nThe following memories were retrieved" in second
    assert "- The user's favourite language is Rust (relevance: " in second
    # The model was sent exactly one memory block in the second turn.
    assert second.count("The following memories were retrieved") == 1
