"""The report's PNG plots (matplotlib, Agg backend): latency against N, throughput
against concurrency, and the latency distribution at the largest size."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from compare.report import PEER_NAMES  # noqa: E402

#: Where each peer's cold search figures live in its JSON.
SEARCH_SERIES = {
    "memoryd": "cold_search",
    "floor": "embed_query",
    "tenxgraph": "cold_search",
    "mem0": "cold_search",
}


def write_plots(results: Mapping[str, Any], out_dir: Path) -> list[Path]:
    runs = {int(size): run for size, run in results.get("runs", {}).items()}
    million = results.get("million") or {}
    return [
        _latency_vs_n(runs, million, out_dir / "latency_vs_n.png"),
        _throughput(runs, out_dir / "throughput_vs_concurrency.png"),
        _distribution(runs, out_dir / "latency_distribution.png"),
    ]


def _latency_vs_n(runs: Mapping[int, Any], million: Mapping[str, Any], path: Path) -> Path:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for peer, series in SEARCH_SERIES.items():
        points = [
            (size, runs[size][peer][series]["p50"])
            for size in sorted(runs)
            if runs[size].get(peer, {}).get(series, {}).get("p50") is not None
        ]
        extra = million.get("floor", {}) if peer == "floor" else million
        if peer in ("memoryd", "floor") and extra.get(series, {}).get("p50") is not None:
            points.append((1_000_000, extra[series]["p50"]))
        if points:
            axes.plot(*zip(*points, strict=True), marker="o", label=PEER_NAMES[peer])
    axes.set(xscale="log", yscale="log", xlabel="memories (N)", ylabel="search p50 (ms)")
    axes.set_title("Search with a new query text, p50, against N")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    return _save(figure, path)


def _throughput(runs: Mapping[int, Any], path: Path) -> Path:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    reference = None
    for size in sorted(runs):
        memoryd = runs[size].get("memoryd", {})
        threads = [e for e in memoryd.get("load", []) if e["how"] == "threads"]
        if threads:
            axes.plot(
                [e["clients"] for e in threads],
                [e["searches_per_s"] for e in threads],
                marker="o",
                label=f"memoryd, N={size:,} (threads)",
            )
        for entry in memoryd.get("load", []):
            if entry["how"] == "processes":
                axes.scatter(entry["clients"], entry["searches_per_s"], marker="x", s=60)
        embedder = runs[size].get("floor", {}).get("embedder", {})
        reference = embedder.get("batched_best_per_s", reference)
    if reference:
        axes.axhline(reference, color="grey", linestyle="--", label="embedder batched texts/s")
        axes.axhline(0.7 * reference, color="grey", linestyle=":", label="goal 4: 0.7× embedder")
    axes.set(xscale="log", xlabel="concurrent clients", ylabel="searches/s")
    axes.set_xticks([1, 2, 4, 8, 16], labels=["1", "2", "4", "8", "16"])
    axes.set_title("memoryd searches/s against concurrent clients (x: client processes)")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8)
    return _save(figure, path)


def _distribution(runs: Mapping[int, Any], path: Path) -> Path:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    size = max((s for s in runs if "cold_search" in runs[s].get("memoryd", {})), default=None)
    if size is not None:
        run = runs[size]
        for label, figures in (
            ("memoryd cold search", run["memoryd"].get("cold_search", {})),
            ("memoryd cached search", run["memoryd"].get("cached_search", {})),
            ("floor: embed + Edge query", run.get("floor", {}).get("embed_query", {})),
            ("empty RPC", run["memoryd"].get("empty_rpc", {})),
        ):
            samples = sorted(figures.get("samples", []))
            if samples:
                fractions = [(i + 1) / len(samples) for i in range(len(samples))]
                axes.step(samples, fractions, where="post", label=label)
        axes.set_title(f"Latency distribution (CDF) at N={size:,}")
    axes.set(xscale="log", xlabel="ms", ylabel="fraction of calls")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize=8)
    return _save(figure, path)


def _save(figure: Any, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
