"""What an import reads from: a Source of ExportedMemory records, whatever store they come from.

Each reader (``jsonl.open_jsonl``, ``tenxgraph.open_tenxgraph``, ``mem0.open_mem0``)
opens its store and returns a Source; ``memoryd import`` streams its records to
ImportMemories. Readers raise ``SourceError`` for input they cannot read, with a
message that says where and what to fix.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from memoryd.v1 import memory_service_pb2


@dataclass(frozen=True)
class Source:
    description: str  # e.g. "10xgraph QdrantStore collection 'memories' at /path"
    total: int | None  # records to expect, if known (for the progress bar)
    records: Iterator[memory_service_pb2.ExportedMemory]


class SourceError(Exception):
    """The source cannot be read: a missing file, a malformed line (its message
    names the line), an unreachable store. ``memoryd import`` prints the message
    and exits with status 1."""
