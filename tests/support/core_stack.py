"""The server's core in process, without gRPC: for tests that reach inside it.

The applier, the indexer and the Memories facade over a real index and a real
journal, wired as memoryd.server wires them; each test opens (and may wrap)
the index and the journal itself, and closes them after ``Memories.stop``.
"""

from __future__ import annotations

from pathlib import Path

from memoryd.core.applier import Applier
from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.memories import Memories
from memoryd.core.ports import Embedder, IndexSpec, VectorIndex
from memoryd.core.validation import Limits
from memoryd.core.write_log import WriteLog
from memoryd.embed.tokens import WordPieceTokenCounter
from memoryd.store.edge import EdgeIndex


def open_edge_index(data_dir: Path, embedder: Embedder) -> EdgeIndex:
    """The embedded index in ``data_dir / "index"``, for ``embedder``'s vectors."""
    return EdgeIndex.open(data_dir / "index", IndexSpec(embedder.model_id, embedder.dimension))


def core_memories(
    index: VectorIndex,
    journal: WriteLog,
    embedder: Embedder,
    settings: IndexerSettings | None = None,
    *,
    dedup_threshold: float = 0.95,
) -> tuple[Indexer, Memories]:
    """The indexer and the Memories over ``index`` and ``journal``; not started."""
    applier = Applier(index, limits=Limits(), dedup_threshold=dedup_threshold)
    indexer = Indexer(journal, applier, embedder, settings)
    memories = Memories(index, embedder, journal, indexer, applier, tokens=WordPieceTokenCounter())
    return indexer, memories
