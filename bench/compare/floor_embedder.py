"""The embedder alone, as the floor measures it: one text at a time, and batched.

A floor is the best the model can do, so both onnxruntime intra-op thread
counts are tried: 0 (its default, as the server runs the model) and 1 (on 2
busy cores, the default's two spinning threads can be twice as slow). One
model is loaded at a time, so trying both adds nothing to the floor's peak RSS.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from compare.progress import say
from compare.stats import rate, sample, summary
from compare.workload import Workload, cold_query
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

BATCH_SIZES = (8, 16, 32, 64)
THROUGHPUT_TEXTS = 512
THREAD_COUNTS = (0, 1)


def embedder_figures(samples: int = 200) -> dict[str, Any]:
    """One-text latency and batched texts/s per thread count; the floor's figures are
    the lower one-text p50 (its ``intra_op_threads`` runs the floor's queries) and
    the higher batched rate."""
    by_threads = {}
    for threads in THREAD_COUNTS:
        say("floor", f"embedder alone, intra-op threads {threads}")
        model = OnnxMiniLMEmbedder(intra_op_threads=threads)
        by_threads[threads] = _measure(model, samples)
        del model
        gc.collect()
    fastest_single = min(THREAD_COUNTS, key=lambda t: by_threads[t]["single"]["p50"])
    fastest_batched = max(THREAD_COUNTS, key=lambda t: by_threads[t]["batched_best_per_s"])
    batched = by_threads[fastest_batched]
    return {
        "single": by_threads[fastest_single]["single"],
        "intra_op_threads": fastest_single,
        "batched_per_s": batched["batched_per_s"],
        "best_batch": batched["best_batch"],
        "batched_best_per_s": batched["batched_best_per_s"],
        "batched_intra_op_threads": fastest_batched,
        "by_threads": {
            str(t): {
                "single_p50": by_threads[t]["single"]["p50"],
                "batched_best_per_s": by_threads[t]["batched_best_per_s"],
            }
            for t in THREAD_COUNTS
        },
    }


def _measure(model: OnnxMiniLMEmbedder, samples: int) -> dict[str, Any]:
    texts = Workload(THROUGHPUT_TEXTS).fresh_texts("embedder", THROUGHPUT_TEXTS)
    model.embed_sync(texts[:32])  # warm-up
    tag = f"embed-{id(model)}"
    single = summary(sample(lambda i: model.embed_sync([cold_query(tag, i)]), samples))
    batched = {}
    for size in BATCH_SIZES:
        start = time.perf_counter()
        for offset in range(0, len(texts), size):
            model.embed_sync(texts[offset : offset + size])
        batched[size] = rate(len(texts), time.perf_counter() - start)
    best = max(batched, key=lambda size: batched[size])
    return {
        "single": single,
        "batched_per_s": {str(k): v for k, v in batched.items()},
        "best_batch": best,
        "batched_best_per_s": batched[best],
    }
