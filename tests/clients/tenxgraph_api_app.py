"""The application the 10xgraph API test serves: a graph, its container, and the store.

``10xgraph.json`` points ``"store"`` at the module-level ``store`` below, exactly as a
deployment would (``"store": "app.memory:store"``).
"""

from __future__ import annotations

import os

from injectq import InjectQ
from scripted_model import ScriptedAgent
from tenxgraph.core.graph import StateGraph

from memoryd_client.tenxgraph import MemorydStore

store = MemorydStore(os.environ["MEMORYD_TEST_TARGET"])

container = InjectQ()
_graph = StateGraph(container=container)
_graph.add_node("MAIN", ScriptedAgent(["hello"]))
_graph.set_entry_point("MAIN")
app = _graph.compile(store=store)
