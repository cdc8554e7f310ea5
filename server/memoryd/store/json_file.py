"""A small JSON document in a file, replaced atomically and durably (the
re-embedding job's progress)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class JsonFile:
    """Implements core.reembed_progress.ProgressStore over one file."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def load(self) -> dict[str, Any] | None:
        if not self._path.exists():
            return None
        document: dict[str, Any] = json.loads(self._path.read_text())
        return document

    def save(self, document: dict[str, Any]) -> None:
        tmp = self._path.with_suffix(".tmp")
        with tmp.open("w") as file:
            file.write(json.dumps(document, indent=2) + "\n")
            file.flush()
            os.fsync(file.fileno())
        tmp.replace(self._path)
