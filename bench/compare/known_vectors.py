"""The vector cache bench/compare/vectors.py writes, read back by text (numpy only).

The peers (10xgraph, mem0) have no batch write, so loading 100k memories
one call at a time is mostly one-text embeddings: they time their ingest on
a prefix with the real model, then load the rest with these vectors, which
are the same model's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from compare.workload import Workload

CACHE = Path(__file__).resolve().parents[1] / "results" / ".cache"


def cache_path(workload: Workload) -> Path:
    return CACHE / f"vectors-{workload.size}-{workload.seed}.npy"


class KnownVectors:
    """The workload's cached vectors, looked up by text (memory-mapped: at 100k they
    add up to 150 MB to the peer's resident set)."""

    def __init__(self, workload: Workload) -> None:
        path = cache_path(workload)
        self._vectors = np.load(path, mmap_mode="r") if path.exists() else None
        self._rows = {text: i for i, text in enumerate(workload.texts)}

    def get(self, text: str) -> list[float] | None:
        """The cached vector of ``text``, or None when it has none."""
        row = self._rows.get(text)
        if self._vectors is None or row is None:
            return None
        return [float(x) for x in self._vectors[row]]
