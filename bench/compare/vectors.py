"""The workload's vectors from memoryd's own embedder, batched, cached on disk between runs.

Embedding 100k texts takes minutes and 1M over half an hour, the same every
run: the floor and the 1M import reuse bench/results/.cache/vectors-<size>-<seed>.npy.
"""

from __future__ import annotations

import numpy as np

from compare.known_vectors import cache_path
from compare.progress import bar
from compare.workload import Workload
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

EMBED_BATCH = 32


def workload_vectors(workload: Workload, model: OnnxMiniLMEmbedder, peer: str) -> np.ndarray:
    """float32 (size, dimension): the vectors of ``workload.texts``, as the server makes them."""
    path = cache_path(workload)
    if path.exists():
        return np.load(path)
    texts = workload.texts
    vectors = np.empty((len(texts), model.dimension), dtype=np.float32)
    offsets = range(0, len(texts), EMBED_BATCH)
    for offset in bar(offsets, peer, "embed", len(offsets)):
        vectors[offset : offset + EMBED_BATCH] = model.embed_sync(
            texts[offset : offset + EMBED_BATCH]
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors
