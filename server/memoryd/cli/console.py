"""What operator commands show: progress bars on stderr, plain summaries, JSON output."""

from __future__ import annotations

import json
import sys
from typing import Any

from google.protobuf.message import Message
from google.protobuf.timestamp_pb2 import Timestamp
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class RateColumn(ProgressColumn):
    """Items per second, over rich's recent window."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        shown = "?" if speed is None else f"{speed:,.0f}"
        return Text(f"{shown} {self._unit}/s", style="progress.data.speed")


def progress_bar(unit: str = "memories") -> Progress:
    """A bar on stderr (stdout carries only data or --json) with the count done (of
    the total, when known), the rate and an ETA. It shows only on an interactive
    terminal (``TTY_INTERACTIVE=1`` forces it) and vanishes when done, leaving
    the summary."""
    stderr = Console(stderr=True, highlight=False)
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(unit),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=stderr,
        transient=True,
        disable=not stderr.is_interactive,
    )


def say(text: str) -> None:
    """A plain line for the operator, on stderr."""
    print(text, file=sys.stderr)


def print_json(value: dict[str, Any]) -> None:
    """One JSON object on one line of stdout."""
    print(json.dumps(value, sort_keys=True), flush=True)


def to_plain(message: Message) -> dict[str, Any]:
    """A message as plain JSON values: proto field names, every field present,
    whole numbers as numbers (proto3 JSON writes int64 as strings), enums by
    name, timestamps as RFC 3339 (None when unset)."""
    plain: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        value = getattr(message, field.name)
        if field.is_repeated:
            continue  # no figure the commands print is a list
        if isinstance(value, Timestamp):
            plain[field.name] = value.ToJsonString() if message.HasField(field.name) else None
        elif isinstance(value, Message):
            plain[field.name] = to_plain(value)
        elif field.enum_type is not None:
            plain[field.name] = field.enum_type.values_by_number[value].name
        else:
            plain[field.name] = value
    return plain


def size_text(size: int) -> str:
    """Bytes in the largest unit that keeps a whole number in front."""
    if size < 1024:
        return f"{size:,} B"
    amount, unit = size / 1024, "KiB"
    for larger in ("MiB", "GiB", "TiB"):
        if amount < 1024:
            break
        amount, unit = amount / 1024, larger
    return f"{amount:,.1f} {unit}"
