"""The VectorIndex backends the conformance suite runs against, one ``backend`` param each.

- ``qdrant_edge``: EdgeIndex, the default backend, on a fresh shard directory.
- ``qdrant_client_in_memory_standin``: RemoteIndex over
  ``support.hooks.in_memory_qdrant_standin()``, qdrant-client's pure-Python
  local mode (``location=":memory:"``), a STAND-IN for a Qdrant server, because
  no server binary exists here; tests/api/test_remote_backend.py serves from
  the same stand-in. RemoteIndex's own code runs unchanged and only the engine
  behind the client is replaced, so this checks our mapping, not a real server.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest

from memoryd.core.ports import IndexSpec, VectorIndex
from memoryd.store.edge import EdgeIndex
from memoryd.store.remote import RemoteIndex

from support.hooks import in_memory_qdrant_standin


class IndexBackend(Protocol):
    """Opens indexes of one backend; ``reopen`` opens the same stored index again."""

    async def open(self, spec: IndexSpec) -> VectorIndex: ...

    async def reopen(self, previous: VectorIndex, spec: IndexSpec) -> VectorIndex: ...


class QdrantEdgeBackend:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    async def open(self, spec: IndexSpec) -> VectorIndex:
        return EdgeIndex.open(self.data_dir, spec)

    async def reopen(self, previous: VectorIndex, spec: IndexSpec) -> VectorIndex:
        # A shard directory has one owner, so the first index lets go first.
        await previous.close()
        return EdgeIndex.open(self.data_dir, spec)


class QdrantClientInMemoryStandIn:
    """RemoteIndex on qdrant-client's in-memory local mode, standing in for a Qdrant server."""

    collection = "memories"

    def __init__(self) -> None:
        self.client = in_memory_qdrant_standin()

    async def open(self, spec: IndexSpec) -> VectorIndex:
        with warnings.catch_warnings():
            # Local mode warns, once per process, that it ignores payload
            # indexes (a server builds them). Nothing else is silenced.
            warnings.filterwarnings(
                "ignore",
                message="Payload indexes have no effect in the local Qdrant",
                category=UserWarning,
            )
            return await RemoteIndex.open(self.client, self.collection, spec)

    async def reopen(self, previous: VectorIndex, spec: IndexSpec) -> VectorIndex:
        # The previous index stays open: closing it would close the shared
        # in-memory client, and with it the data the reopened index must find.
        return await self.open(spec)


@pytest.fixture
def qdrant_client_in_memory_standin() -> Iterator[QdrantClientInMemoryStandIn]:
    standin = QdrantClientInMemoryStandIn()
    yield standin
    asyncio.run(standin.client.close())


@pytest.fixture(params=["qdrant_edge", "qdrant_client_in_memory_standin"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> IndexBackend:
    if request.param == "qdrant_edge":
        return QdrantEdgeBackend(tmp_path / "index")
    standin: QdrantClientInMemoryStandIn = request.getfixturevalue(request.param)
    return standin
