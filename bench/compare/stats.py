"""Latency samples and their percentiles, time-boxed so a slow peer cannot stall a run.

Pure Python, shared by every peer's process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def summary(samples_ms: list[float], *, keep_samples: bool = True) -> dict[str, Any]:
    """p50, p95 and p99 (nearest rank), the mean and the count of ``samples_ms``,
    and the samples themselves (for the distribution plot) unless told not to."""
    if not samples_ms:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "mean": None, "samples": []}
    ordered = sorted(samples_ms)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "n": len(ordered),
        "p50": rank(0.50),
        "p95": rank(0.95),
        "p99": rank(0.99),
        "mean": sum(ordered) / len(ordered),
        "samples": [round(x, 3) for x in samples_ms] if keep_samples else [],
    }


def sample(call: Callable[[int], object], count: int, budget_s: float = 60.0) -> list[float]:
    """Milliseconds of up to ``count`` sequential ``call(i)``, stopping after ``budget_s``
    seconds (at least 3 calls are always made)."""
    samples: list[float] = []
    deadline = time.perf_counter() + budget_s
    for i in range(count):
        start = time.perf_counter()
        call(i)
        end = time.perf_counter()
        samples.append((end - start) * 1000)
        if end > deadline and i >= 2:
            break
    return samples


def rate(count: int, seconds: float) -> float:
    """Items per second."""
    return count / seconds if seconds > 0 else 0.0


def peak_rss_mb(pid: int | str = "self") -> float:
    """The process's peak resident set (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for process {pid}")
