"""A spool: an export's snapshot in a temporary file, so that no export is held in memory.

An export reads its whole snapshot while no write is applied, then streams
it as fast as its reader takes it. The snapshot waits in between in an
unnamed temporary file (gone from the directory at once, and from the disk
when closed or when the process dies), written and read a page at a time in
a worker thread, so the event loop never waits on the disk.

Each record is stored as two little-endian uint32 lengths (payload bytes,
vector floats), the payload as JSON, the vector as float32: the precision
the engine and the protobuf ``repeated float`` carry.
"""

from __future__ import annotations

import asyncio
import json
import struct
import tempfile
from array import array
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

_HEAD = struct.Struct("<II")
#: What a record takes in an answer beyond its payload and vector: field tags,
#: lengths, the embedder id, and timestamps as messages rather than text.
_RECORD_OVERHEAD = 256


class Spool:
    """Records (payload, vector) appended, then read back once, in order, in pages."""

    def __init__(self, directory: Path | None = None) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile(prefix="memoryd-export-", dir=directory)
        self.count = 0
        self._is_read = False

    async def append(self, records: Sequence[tuple[Mapping[str, Any], Sequence[float]]]) -> None:
        """Adds records at the end."""
        chunks = []
        for payload, vector in records:
            body = json.dumps(payload, separators=(",", ":")).encode()
            chunks += [_HEAD.pack(len(body), len(vector)), body, array("f", vector).tobytes()]
        await asyncio.to_thread(self._file.write, b"".join(chunks))
        self.count += len(records)

    async def read_page(
        self, max_records: int, max_bytes: int
    ) -> list[tuple[dict[str, Any], list[float]]]:
        """The next records: at most ``max_records`` and, but for the first,
        ``max_bytes`` as sized for an answer. An empty list at the end."""
        if not self._is_read:
            await asyncio.to_thread(self._file.seek, 0)
            self._is_read = True
        return await asyncio.to_thread(self._read, max_records, max_bytes)

    def _read(self, max_records: int, max_bytes: int) -> list[tuple[dict[str, Any], list[float]]]:
        page: list[tuple[dict[str, Any], list[float]]] = []
        size = 0
        while len(page) < max_records:
            start = self._file.tell()
            head = self._file.read(_HEAD.size)
            if not head:
                break
            body_length, dimension = _HEAD.unpack(head)
            size += body_length + 4 * dimension + _RECORD_OVERHEAD
            if page and size > max_bytes:
                self._file.seek(start)
                break
            payload = json.loads(self._file.read(body_length))
            vector = array("f")
            vector.frombytes(self._file.read(4 * dimension))
            page.append((payload, vector.tolist()))
        return page

    def close(self) -> None:
        """Deletes the file; idempotent."""
        self._file.close()
