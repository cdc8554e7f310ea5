"""StateGraph + MemoryIntegration on memoryd: preload memories before each model call.

Run a memoryd server (``make serve``), then
``python examples/state_graph_memory_integration.py``. The model is scripted
(examples/scripted_model.py) so this runs offline.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid

from injectq import InjectQ
from scripted_model import ScriptedAgent, ToolCall, system_text
from tenxgraph.core.graph import StateGraph, ToolNode
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import MemoryIntegration
from tenxgraph.utils.background_task_manager import BackgroundTaskManager
from tenxgraph.utils.constants import END

from memoryd_client.tenxgraph import MemorydStore


def route(state: AgentState) -> str:
    return "TOOL" if state.context and state.context[-1].tools_calls else END


async def main(target: str, user_id: str) -> str:
    store = MemorydStore(target)  # the one-line swap
    memory = MemoryIntegration(store=store, retrieval_mode="preload")
    agent = ScriptedAgent(
        [
            # turn 1: store a fact with a memory_key (memoryd keeps one per key)
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
            # turn 2: the preloaded context already has the fact
            lambda messages: (
                "Preloaded: "
                + system_text(messages).split("[Long-term Memory Context]")[-1].strip()
            ),
        ],
        system_prompt=[{"role": "system", "content": memory.system_prompt}],
        tool_node="TOOL",
    )
    container = InjectQ()  # a fresh container per graph: the global one keeps the first store
    graph = StateGraph(container=container)
    graph.add_node("MAIN", agent)
    graph.add_node("TOOL", ToolNode(memory.tools))
    memory.wire(graph, entry_to="MAIN")
    graph.add_conditional_edges("MAIN", route, {"TOOL": "TOOL", END: END})
    graph.add_edge("TOOL", "MAIN")
    app = graph.compile(store=store)

    config = {"thread_id": "t1", "user_id": user_id}
    await app.ainvoke({"messages": [Message.text_message("I love Rust")]}, config=config)
    await container.get(BackgroundTaskManager).wait_for_all(timeout=10)
    result = await app.ainvoke(
        {"messages": [Message.text_message("Which language do I like?")]},
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
