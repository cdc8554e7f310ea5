"""How the indexer (core/indexer.py) batches, retries and embeds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IndexerSettings:
    #: Journal entries fetched, and their texts embedded, together.
    batch_entries: int = 32
    #: Attempts for a write whose embedding or index call fails.
    max_attempts: int = 4
    #: How often the write log's forgotten entries are purged (core/write_log.py);
    #: only disk space waits for it, a write is forgotten when its retention ends.
    purge_interval_seconds: float = 3600.0
    #: How long an applied write may wait before the index is flushed to disk
    #: (VectorIndex.flush); 0 flushes after every batch of writes.
    flush_interval_seconds: float = 30.0
    #: How many changes (memories stored or deleted) may wait unflushed before
    #: the index is flushed, however short a while they have waited.
    flush_max_changes: int = 10_000
    #: Whether a start puts back the applied writes the index lost since it was
    #: last flushed (core/index_redo.py): the edge backend; a Qdrant server keeps them.
    redo_lost_writes: bool = True
    #: Whether a SYNC write embeds its texts while its journal commit runs;
    #: only worth it when the embedder caches (the vectors reach the indexer that way).
    embed_ahead: bool = False
