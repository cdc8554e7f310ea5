"""Reads JSON Lines of ExportedMemory records, as ``memoryd export`` writes them.

One record per line, in proto3 JSON (``google.protobuf.json_format``); blank
lines are skipped. A line that is not such a record raises SourceError naming
the file and the line number, when the import reaches it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from google.protobuf import json_format

from memoryd.cli.sources.base import Source, SourceError
from memoryd.v1 import memory_service_pb2


def open_jsonl(path: Path | None) -> Source:
    """The records of the JSONL file at ``path``, or of stdin for None.

    A file is counted first (its non-blank lines), so the progress bar knows the
    total; stdin is read once, with no total. Raises SourceError if the file
    cannot be opened.
    """
    if path is None:
        return Source("JSONL from stdin", None, _records(sys.stdin.buffer, "stdin"))
    try:
        with path.open("rb") as lines:
            total = sum(1 for line in lines if line.strip())
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc}") from exc
    return Source(f"JSONL file {path}", total, _file_records(path))


def _file_records(path: Path) -> Iterator[memory_service_pb2.ExportedMemory]:
    try:
        lines = path.open("rb")
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc}") from exc
    with lines:
        yield from _records(lines, str(path))


def _records(lines: BinaryIO, name: str) -> Iterator[memory_service_pb2.ExportedMemory]:
    # Lines are decoded one by one, so bytes that are not UTF-8 name their line too.
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            yield _record(raw, f"{name}, line {number}")


def _record(raw: bytes, where: str) -> memory_service_pb2.ExportedMemory:
    record = memory_service_pb2.ExportedMemory()
    try:
        json_format.Parse(raw.decode("utf-8"), record)
    except UnicodeDecodeError as exc:
        raise SourceError(f"{where}: not UTF-8 text ({exc})") from None
    except json_format.ParseError as exc:
        raise SourceError(f"{where}: not an ExportedMemory in proto3 JSON ({exc})") from None
    return record
