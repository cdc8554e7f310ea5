"""report.md: the side-by-side tables and issue 14's goals marked PASS or FAIL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compare.goals import GoalRow, goal_rows, short_size, top_load

PEERS = ("memoryd", "floor", "tenxgraph", "mem0")
PEER_NAMES = {
    "memoryd": "memoryd (server, Python client)",
    "floor": "floor (embed + raw Edge, in process)",
    "tenxgraph": "10xgraph QdrantStore (local path)",
    "mem0": "mem0 OSS Memory (local Qdrant)",
}


def ms(value: Any) -> str:
    return "–" if value is None else f"{float(value):.2f}"


def num(value: Any) -> str:
    return "–" if value is None else f"{float(value):,.0f}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> list[str]:
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def render(results: Mapping[str, Any]) -> str:
    runs = {int(size): run for size, run in results.get("runs", {}).items()}
    lines = [f"# bench-compare, {results['date']}", ""]
    lines += _header(results)
    lines += ["", "## Side by side", ""]
    lines += _side_by_side(runs)
    lines += ["", "## memoryd in detail", ""]
    lines += _memoryd_detail(runs)
    lines += ["", "## Under load (memoryd)", ""]
    lines += _load(runs)
    lines += ["", "## The floor: the embedder alone", ""]
    lines += _embedder(runs)
    lines += ["", "## Recall on the paraphrase set (bench/recall_set.py)", ""]
    lines += _recall(runs)
    if results.get("recall_sets"):
        lines += ["", "## Every retrieval mode on every recall set (make bench-recall)", ""]
        lines += [results["recall_sets"].strip()]
    if results.get("million"):
        lines += ["", "## 1M memories (import path)", ""]
        lines += _million(results["million"])
    lines += ["", "## Issue 14's goals", ""]
    lines += _goals(goal_rows(results))
    lines += ["", "## Plots", ""]
    lines += [
        "![cold search p50 against N](latency_vs_n.png)",
        "",
        "![memoryd searches/s against concurrent clients](throughput_vs_concurrency.png)",
        "",
        "![latency distribution at the largest size](latency_distribution.png)",
    ]
    return "\n".join(lines) + "\n"


def _header(results: Mapping[str, Any]) -> list[str]:
    machine = results.get("machine", {})
    return [
        f"Command: `{results.get('command', '')}`; "
        f"wall time {results.get('wall_seconds', 0):.0f} s.",
        f"Machine: {machine.get('cpu_count')} CPUs, {machine.get('memory_gb', 0):.1f} GB, "
        f"Python {machine.get('python')}, load average (1, 5, 15 min) at start "
        f"{machine.get('load_average')}, at the end {machine.get('load_average_end')}: "
        "anything else running on the machine shows in every figure.",
        "",
        "Same data (bench/corpus.py, 100 memories per user), same new query texts, same "
        "embedder (memoryd's int8 MiniLM) for every peer, each peer in its own process "
        "(peak RSS is VmHWM of that process). Latencies are milliseconds, p50/p95 of "
        "sequential calls; search is user-filtered, limit 5, a new query text per call.",
        "The peers' ingest is timed on their first 1,000 memories; the rest of their data is "
        "loaded through the same calls with the vectors from the floor's cache. The floor's "
        "ingest is raw Edge upserts of batches of 1,000 with vectors computed beforehand.",
    ]


def _side_by_side(runs: Mapping[int, Any]) -> list[str]:
    header = [
        "N",
        "peer",
        "search p50",
        "search p95",
        "create p50",
        "create p95",
        "ingest /s",
        "recall@1",
        "recall@5",
        "peak RSS MB",
    ]
    rows = []
    for size in sorted(runs):
        for peer in PEERS:
            result = runs[size].get(peer)
            if result is None:
                continue
            if "error" in result:
                rows.append(
                    [short_size(size), PEER_NAMES[peer], "failed: " + result["error"][:80]]
                    + [""] * 7
                )
                continue
            search = result.get("cold_search") or result.get("embed_query") or {}
            create = (
                result.get("create_sync")
                or result.get("create")
                or result.get("embed_upsert")
                or {}
            )
            recall = result.get("recall", {}).get("DENSE", {})
            rows.append(
                [
                    short_size(size),
                    PEER_NAMES[peer],
                    ms(search.get("p50")),
                    ms(search.get("p95")),
                    ms(create.get("p50")),
                    ms(create.get("p95")),
                    num(result.get("ingest_per_s"))
                    + (" (upserts only)" if peer == "floor" else ""),
                    _fraction(recall.get("recall_at_1")),
                    _fraction(recall.get("recall_at_5")),
                    num(result.get("peak_rss_mb")),
                ]
            )
    return table(header, rows, right_from=2) + [
        "",
        "create: memoryd CreateMemory SYNC; floor embed + upsert of one point; "
        "10xgraph `astore`; mem0 `Memory.add(infer=False)`. recall: DENSE.",
    ]


def _fraction(value: Any) -> str:
    return "–" if value is None else f"{float(value):.3f}"


def _memoryd_detail(runs: Mapping[int, Any]) -> list[str]:
    series = [
        ("empty RPC (health Check, same channel)", ("empty_rpc",)),
        ("SearchMemories, new query text (DENSE, recency off)", ("cold_search",)),
        ("SearchMemories, new query text, default (HYBRID + recency)", ("cold_search_default",)),
        ("SearchMemories, repeated query (cached embedding)", ("cached_search",)),
        ("CreateMemory SYNC, new text", ("create_sync",)),
        ("CreateMemory ASYNC ack, new text", ("create_async",)),
        ("Preload user + agent: first event", ("preload", "first_event")),
        ("Preload user + agent: whole stream", ("preload", "whole_stream")),
        ("Preload etag repeat (not_modified)", ("preload", "etag_repeat")),
        ("floor: embed + Edge query", ("@floor", "embed_query")),
        ("floor: embed + Edge upsert", ("@floor", "embed_upsert")),
    ]
    sizes = sorted(size for size in runs if "memoryd" in runs[size])
    header = ["call"] + [f"{short_size(s)} p50 / p95" for s in sizes]
    rows = []
    for name, path in series:
        cells = []
        for size in sizes:
            found = _dig(runs[size], path)
            cells.append(f"{ms(found.get('p50'))} / {ms(found.get('p95'))}" if found else "–")
        rows.append([name, *cells])
    for name, key in (
        ("BatchCreateMemories x100 SYNC, memories/s", "batch_create_per_s"),
        ("load: BatchCreate x100 SYNC, memories/s", "ingest_per_s"),
    ):
        rows.append([name] + [num(runs[s]["memoryd"].get(key)) for s in sizes])
    return table(header, rows)


def _dig(run: Mapping[str, Any], path: Sequence[str]) -> Mapping[str, Any]:
    value: Any = run.get("floor", {}) if path[0] == "@floor" else run.get("memoryd", {})
    for key in path[1:] if path[0] == "@floor" else path:
        value = value.get(key, {}) if isinstance(value, Mapping) else {}
    return value if isinstance(value, Mapping) else {}


def _load(runs: Mapping[int, Any]) -> list[str]:
    header = ["N", "clients", "as", "searches/s", "p50", "p95", "p99", "writes/s", "write p50"]
    rows = []
    for size in sorted(runs):
        memoryd = runs[size].get("memoryd", {})
        entries = [*memoryd.get("load", [])]
        if memoryd.get("load_mix"):
            entries.append(
                {**memoryd["load_mix"], "how": memoryd["load_mix"]["how"] + ", 90/10 mix"}
            )
        for entry in entries:
            search, write = entry.get("search", {}), entry.get("write", {})
            wrote = bool(write.get("n"))
            rows.append(
                [
                    short_size(size),
                    str(entry["clients"]),
                    entry["how"],
                    num(entry.get("searches_per_s")),
                    ms(search.get("p50")),
                    ms(search.get("p95")),
                    ms(search.get("p99")),
                    num(entry.get("writes_per_s")) if wrote else "–",
                    ms(write.get("p50")) if wrote else "–",
                ]
            )
    notes = []
    for size in sorted(runs):
        if runs[size].get("memoryd", {}).get("load"):
            best = top_load(runs[size])
            notes.append(
                f"at {short_size(size)}, {best['clients']} clients as {best['how']} "
                "searched fastest"
            )
    footer = (
        "Each client has its own MemorydClient and channel and searches distinct new texts. "
        "Threads share one Python process with the GIL; processes do not, but compete with the "
        "server for the same cores. Goal 4 takes the faster of the two: " + "; ".join(notes) + "."
    )
    return table(header, rows, right_from=3) + ["", footer]


def _embedder(runs: Mapping[int, Any]) -> list[str]:
    header = [
        "N (run)",
        "one text p50",
        "one text p95",
        "texts/s by batch size",
        "best",
        "one text p50 / batched /s at intra-op threads 0; 1",
    ]
    rows = []
    for size in sorted(runs):
        embedder = runs[size].get("floor", {}).get("embedder")
        if not embedder:
            continue
        by_batch = ", ".join(f"{k}: {v:.0f}" for k, v in embedder["batched_per_s"].items())
        rows.append(
            [
                short_size(size),
                ms(embedder["single"]["p50"]),
                ms(embedder["single"]["p95"]),
                by_batch,
                f"{embedder['batched_best_per_s']:.0f}/s (batch {embedder['best_batch']})",
                _threads(embedder),
            ]
        )
    return table(header, rows) + [
        "",
        "The floor tries both onnxruntime intra-op thread counts, 0 (its default, as the "
        "server runs the model) and 1, and keeps the lower one-text p50 (its queries and "
        "upserts then run with that count) and the higher batched rate.",
    ]


def _threads(embedder: Mapping[str, Any]) -> str:
    by_threads = embedder.get("by_threads", {})
    return (
        "; ".join(
            f"{ms(figures['single_p50'])} / {num(figures['batched_best_per_s'])}"
            for _, figures in sorted(by_threads.items())
        )
        or "–"
    )


def _recall(runs: Mapping[int, Any]) -> list[str]:
    header = ["N (run)", "peer", "mode", "recall@1", "recall@5"]
    rows = []
    for size in sorted(runs):
        for peer in PEERS:
            for mode, figures in runs[size].get(peer, {}).get("recall", {}).items():
                rows.append(
                    [
                        short_size(size),
                        PEER_NAMES[peer],
                        mode,
                        _fraction(figures["recall_at_1"]),
                        _fraction(figures["recall_at_5"]),
                    ]
                )
    return table(header, rows, right_from=3) + [
        "",
        "300 questions over 600 memories of 20 users. memoryd holds the set beside the N "
        "memories; the peers hold it in a store of its own (at 100k one of their searches "
        "takes about a second).",
    ]


def _million(million: Mapping[str, Any]) -> list[str]:
    search = million["cold_search"]
    floor = million.get("floor", {}).get("embed_query", {})
    rows = [
        [
            "import (ImportMemories with vectors: the 100k workload's model vectors, "
            "tiled and perturbed, compare/vectors.py)",
            f"{num(million.get('import_per_s'))} memories/s",
        ],
        ["cold search p50 / p95", f"{ms(search['p50'])} / {ms(search['p95'])} ms"],
        [
            "floor: embed + Edge query p50 / p95",
            f"{ms(floor.get('p50'))} / {ms(floor.get('p95'))} ms",
        ],
        ["start-up to SERVING after a restart", f"{million['startup_to_serving_s']:.2f} s"],
        ["server peak RSS", f"{num(million.get('peak_rss_mb'))} MB"],
    ]
    return table(["at 1M", "value"], rows)


def _goals(rows: Sequence[GoalRow]) -> list[str]:
    header = ["goal", "target", "N", "measured", "target value", "ratio", "verdict"]
    body = []
    for row in rows:
        measure = row.measure
        size = short_size(row.size) if row.size else "–"
        if row.note:
            size += f" ({row.note})"
        if measure is None:
            body.append([row.goal, row.title, size, "–", "–", "–", row.verdict])
            continue
        unit = measure.unit
        ratio = f"{measure.ratio:.2f}×" if measure.ratio_unit == "x" else f"{measure.ratio:+.2f} ms"
        body.append(
            [
                row.goal,
                row.title,
                size,
                f"{measure.measured:,.2f} {unit}",
                f"{measure.target:,.2f} {unit}",
                ratio,
                f"**{row.verdict}**",
            ]
        )
    return table(header, body, right_from=3)
