"""Issue 10 item 2: a memory the model remembers in one graph is found at once by another.

One application shares one MemorydStore across graphs, each with its own InjectQ
container, and each run resolves its dependencies from its own container. Graph
1's model calls ``user_memory_tool(action="remember")``; 10xgraph answers
``{"status": "scheduled"}`` and writes in a background task of graph 1's task
manager, which graph 2's own flush does not wait for. Graph 2 then reads the same
user's memory straight away: by its model's tool (postload), before its model
call (Agent preload), or with memoryd's preload node. Real 10xgraph 0.10.3, a
scripted model, a real server.

The store talks to memoryd over a slow link for creates (``SlowCreates``): each
CreateMemory leaves the client 0.3 s after it is made, as over a congested
network. That makes the window the issue found as wide as a real deployment's
worst case, so that the store without read-your-writes misses the memory every
time, not on a lucky schedule. The verdict does not depend on the delay: with
read-your-writes, the read waits for the write however long it takes (within
its 5 s deadline).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
from scripted_model import Reply, ScriptedAgent, ToolCall, system_text
from test_tenxgraph_scenarios import Harness, agent_with, echo_tool_result

from memoryd_client.tenxgraph import MemorydStore, create_memory_preload_node

from support import ServerProcess

FACT = "I'm in UTC-5"
REMEMBER: list[Reply] = [
    [ToolCall("user_memory_tool", {"action": "remember", "text": FACT})],
    "Noted.",
]
LINK_DELAY_SECONDS = 0.3


class SlowCreates(grpc.aio.UnaryUnaryClientInterceptor):
    """Sends each CreateMemory ``LINK_DELAY_SECONDS`` late: a slow link, not a fake."""

    async def intercept_unary_unary(
        self, continuation: Any, client_call_details: grpc.aio.ClientCallDetails, request: Any
    ) -> Any:
        method = client_call_details.method
        name = method.decode() if isinstance(method, bytes) else method
        if name.endswith("/CreateMemory"):
            await asyncio.sleep(LINK_DELAY_SECONDS)
        return await continuation(client_call_details, request)


def shared_store(server: ServerProcess) -> MemorydStore:
    return MemorydStore(server.address, interceptors=[SlowCreates()])


async def say(harness: Harness, text: str, thread: str, user: str) -> str:
    """One run of the graph, resolving its dependencies from its own container."""
    with harness.container.context():
        return await harness.say(text, thread, user)


async def remember_then(writer: Harness, reader: Harness, user: str) -> str:
    """Graph 1 remembers FACT; graph 2 is asked about it as soon as graph 1 answers,
    with graph 1's write still a background task (it waits on the slow link)."""
    await say(writer, FACT, "t1", user)
    answer = await say(reader, "What timezone am I in?", "t2", user)
    await writer.settle()
    await writer.app.aclose()
    await reader.app.aclose()
    return answer


def test_postload_search_in_another_graph_finds_a_memory_remembered_just_before(
    server: ServerProcess, user: str
) -> None:
    store = shared_store(server)
    writer = agent_with(store, list(REMEMBER), retrieval_mode="postload")
    search = [ToolCall("user_memory_tool", {"action": "search", "text": "Which timezone?"})]
    reader = agent_with(store, [search, echo_tool_result], retrieval_mode="postload")

    answer = asyncio.run(remember_then(writer, reader, user))
    assert [r["content"] for r in json.loads(answer)] == [FACT]


def test_agent_preload_in_another_graph_injects_a_memory_remembered_just_before(
    server: ServerProcess, user: str
) -> None:
    store = shared_store(server)
    writer = agent_with(store, list(REMEMBER), retrieval_mode="postload")
    reader = agent_with(store, ["It is morning for you."], retrieval_mode="preload")

    asyncio.run(remember_then(writer, reader, user))
    (request,) = reader.agent.requests
    assert FACT in system_text(request)


def test_memoryd_preload_node_in_another_graph_injects_a_memory_remembered_just_before(
    server: ServerProcess, user: str
) -> None:
    store = shared_store(server)
    writer = agent_with(store, list(REMEMBER), retrieval_mode="postload")
    reader = Harness(store, ScriptedAgent(["It is morning for you."]))
    reader.graph.add_node("memory_preload", create_memory_preload_node(store))
    reader.graph.set_entry_point("memory_preload")
    reader.graph.add_edge("memory_preload", "MAIN")
    reader.compile(store)

    asyncio.run(remember_then(writer, reader, user))
    (request,) = reader.agent.requests
    assert FACT in system_text(request)
