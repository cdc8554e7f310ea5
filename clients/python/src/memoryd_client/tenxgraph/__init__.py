"""memoryd as a 10xgraph memory store: ``MemorydStore("localhost:50051")``, and a
preload node on memoryd's Preload stream: ``create_memory_preload_node(store)``.

The only module of memoryd_client that imports tenxgraph (install the
``memoryd-client[tenxgraph]`` extra).
"""

from __future__ import annotations

from memoryd_client.tenxgraph._scoping import SharedMemoryWriteRefused
from memoryd_client.tenxgraph.preload import (
    DEFAULT_MEMORY_PROMPT,
    PreloadNode,
    create_memory_preload_node,
)
from memoryd_client.tenxgraph.store import MAX_WRITE_TIMEOUT, MemorydStore

__all__ = [
    "DEFAULT_MEMORY_PROMPT",
    "MAX_WRITE_TIMEOUT",
    "MemorydStore",
    "PreloadNode",
    "SharedMemoryWriteRefused",
    "create_memory_preload_node",
]
