"""Agent + MemoryConfig on memoryd: remember in one thread, recall in another.

Run a memoryd server (``make serve``), then ``python examples/agent_memory_config.py``.
The model is scripted (examples/scripted_model.py) so this runs offline; with a real
model, replace ``ScriptedAgent(replies, ...)`` by ``Agent(model="...", ...)``.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid

from injectq import InjectQ
from scripted_model import ScriptedAgent, ToolCall, last_tool_result
from tenxgraph.core.graph import StateGraph, ToolNode
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import MemoryConfig
from tenxgraph.utils.background_task_manager import BackgroundTaskManager
from tenxgraph.utils.constants import END

from memoryd_client.tenxgraph import MemorydStore


def route(state: AgentState) -> str:
    return "TOOL" if state.context and state.context[-1].tools_calls else END


def build_graph(store: MemorydStore, replies: list) -> tuple[object, InjectQ]:
    """An Agent whose user_memory_tool runs on memoryd; a fresh InjectQ per graph."""
    container = InjectQ()
    graph = StateGraph(container=container)
    graph.add_node(
        "MAIN",
        ScriptedAgent(
            replies,
            tool_node="TOOL",
            memory=MemoryConfig(store=store, retrieval_mode="postload"),
        ),
    )
    graph.add_node("TOOL", ToolNode([]))
    graph.add_conditional_edges("MAIN", route, {"TOOL": "TOOL", END: END})
    graph.add_edge("TOOL", "MAIN")
    graph.set_entry_point("MAIN")
    return graph.compile(store=store), container


async def main(target: str, user_id: str) -> str:
    store = MemorydStore(target)  # the one-line swap
    app, container = build_graph(
        store,
        [
            # thread t1: the model decides to remember
            [ToolCall("user_memory_tool", {"action": "remember", "text": "I'm in UTC-5"})],
            "Noted.",
            # thread t2: the model searches long-term memory
            [
                ToolCall(
                    "user_memory_tool",
                    {"action": "search", "text": "What timezone is the user in?"},
                )
            ],
            lambda messages: f"From memory: {last_tool_result(messages)}",
        ],
    )
    await app.ainvoke(
        {"messages": [Message.text_message("Remember that I'm in UTC-5")]},
        config={"thread_id": "t1", "user_id": user_id},
    )
    # Memory writes run in the background: wait for them before going on.
    await container.get(BackgroundTaskManager).wait_for_all(timeout=10)
    result = await app.ainvoke(
        {"messages": [Message.text_message("What timezone am I in?")]},
        config={"thread_id": "t2", "user_id": user_id},
    )
    await app.aclose()
    answer = result["messages"][-1].text()
    print(answer)
    return answer


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", default="localhost:50051")
    parser.add_argument("--user", default=f"example-{uuid.uuid4().hex[:8]}")
    args = parser.parse_args()
    asyncio.run(main(args.target, args.user))
