"""The workload's vectors from memoryd's own embedder, batched, cached on disk between runs.

Embedding 100k texts takes minutes, the same every run: the floor and the
peers reuse bench/results/.cache/vectors-<size>-<seed>.npy.

Above EMBEDDED_AT_MOST the vectors are derived instead: the 100k workload's
model vectors, each reused for every 100k-th memory with a small random
perturbation (seeded), renormalised. Embedding 1M texts would take about 80
minutes on the 2-core machine; what the 1M run measures (import rate, search
latency, start-up, memory) does not depend on which text a vector came from,
and no recall is measured there. The report says so beside the 1M figures.
"""

from __future__ import annotations

import numpy as np

from compare.known_vectors import cache_path
from compare.progress import bar
from compare.workload import Workload
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

EMBED_BATCH = 32
#: The largest workload embedded text by text; larger ones derive their vectors from it.
EMBEDDED_AT_MOST = 100_000
#: The perturbation's scale per coordinate, against unit vectors of 384 floats
#: (about 0.05 each): a copy keeps a cosine of about 0.93 to its source and about
#: 0.87 to the other copies, below the 0.95 at which memoryd calls texts duplicates.
_JITTER = 0.02


def workload_vectors(workload: Workload, model: OnnxMiniLMEmbedder, peer: str) -> np.ndarray:
    """float32 (size, dimension): the vectors of ``workload.texts``, as the server makes them."""
    if workload.size > EMBEDDED_AT_MOST:
        return derived_vectors(workload, model, peer)
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


def derived_vectors(workload: Workload, model: OnnxMiniLMEmbedder, peer: str) -> np.ndarray:
    """float32 (size, dimension): the EMBEDDED_AT_MOST workload's vectors, tiled,
    each copy perturbed and renormalised (see the module's docstring)."""
    source = workload_vectors(Workload(EMBEDDED_AT_MOST, workload.seed), model, peer)
    rng = np.random.default_rng(workload.seed)
    vectors = np.resize(source, (workload.size, source.shape[1]))
    vectors += rng.normal(0.0, _JITTER, vectors.shape).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors
