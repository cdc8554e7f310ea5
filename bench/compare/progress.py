"""Progress on stderr (stdout carries each runner's JSON): messages and tqdm bars."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator

from tqdm import tqdm

_START = time.monotonic()


def say(peer: str, message: str) -> None:
    print(f"[{time.monotonic() - _START:7.1f}s] {peer}: {message}", file=sys.stderr, flush=True)


def bar[T](items: Iterable[T], peer: str, what: str, total: int) -> Iterator[T]:
    """``items``, with a progress bar on stderr."""
    yield from tqdm(items, desc=f"{peer}: {what}", total=total, file=sys.stderr, leave=False)
