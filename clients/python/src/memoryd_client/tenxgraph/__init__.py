"""memoryd as a 10xgraph memory store: ``MemorydStore("localhost:50051")``.

The only module of memoryd_client that imports tenxgraph (install the
``memoryd-client[tenxgraph]`` extra).
"""

from __future__ import annotations

from memoryd_client.tenxgraph._scoping import SharedMemoryWriteRefused
from memoryd_client.tenxgraph.store import MAX_WRITE_TIMEOUT, MemorydStore

__all__ = ["MAX_WRITE_TIMEOUT", "MemorydStore", "SharedMemoryWriteRefused"]
