"""The blocks a preload node rendered, kept with their etags for conditional Preloads."""

from __future__ import annotations

import threading
from collections import OrderedDict


class RenderedBlocks:
    """The last rendered block and its etag per (user scope, agent scope); LRU-bounded."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[str, str], tuple[str, str]] = OrderedDict()

    def get(self, key: tuple[str, str]) -> tuple[str, str] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def put(self, key: tuple[str, str], etag: str, text: str) -> None:
        with self._lock:
            self._entries[key] = (etag, text)
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def drop(self, key: tuple[str, str]) -> None:
        with self._lock:
            self._entries.pop(key, None)
