"""Issue 14's goals as PASS/FAIL rows, computed from one run's results (pure, no I/O).

``results["runs"]`` maps a size (as a string) to each peer's JSON; goals 1-5
are judged at 10k and 100k, goal 6 at 100k, goal 7 from ``results["million"]``.
When a run has none of a goal's sizes (a quick ``--sizes 1000``), the goal is
judged at the largest size run and the row says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GOAL_SIZES = (10_000, 100_000)
MEMORY_SIZE = 100_000
MILLION_SEARCH_P95_MS = 10.0
MILLION_STARTUP_S = 5.0

Run = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Measure:
    """A measured value against its target; ``ratio`` is how the goal states it."""

    measured: float
    target: float
    ratio: float
    unit: str
    ratio_unit: str  # "x" (a multiple) or "ms" (an excess over a baseline)
    passed: bool


@dataclass(frozen=True, slots=True)
class GoalRow:
    goal: str
    title: str
    size: int | None
    note: str
    measure: Measure | None  # None: not run

    @property
    def verdict(self) -> str:
        if self.measure is None:
            return "not run"
        return "PASS" if self.measure.passed else "FAIL"


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal judged per size: ``measured`` against ``baseline`` (dotted paths into
    one size's run; ``top_load`` is the fastest load entry at the most clients).

    rule "at_most_times": measured <= factor x baseline; "at_least_times":
    measured >= factor x baseline; "at_most_plus": measured <= baseline + factor (ms).
    """

    name: str
    title: str
    measured: str
    baseline: str
    rule: str
    factor: float
    unit: str = "ms"
    at_100k_only: bool = False

    def judge(self, run: Run) -> Measure:
        measured, baseline = figure(run, self.measured), figure(run, self.baseline)
        if self.rule == "at_most_plus":
            target = baseline + self.factor
            return Measure(measured, target, measured - baseline, "ms", "ms", measured <= target)
        target = baseline * self.factor
        passed = measured >= target if self.rule == "at_least_times" else measured <= target
        return Measure(measured, target, measured / baseline, self.unit, "x", passed)


def figure(run: Run, path: str) -> float:
    """The number at a dotted path of one size's run ("memoryd.cold_search.p50")."""
    first, *rest = path.split(".")
    value: Any = top_load(run) if first == "top_load" else run[first]
    for key in rest:
        value = value[key]
    return float(value)


def top_load(run: Run) -> Mapping[str, Any]:
    """The load entry with the most clients, threads or processes, whichever was faster."""
    loads = run["memoryd"]["load"]
    most = max(entry["clients"] for entry in loads)
    return max((e for e in loads if e["clients"] == most), key=lambda e: e["searches_per_s"])


EMBEDDER_RATE = "floor.embedder.batched_best_per_s"
COLD_P50 = "memoryd.cold_search.p50"
EMPTY_P50 = "memoryd.empty_rpc.p50"

PER_SIZE_GOALS = [
    Goal(
        "1 cold search p50",
        "≤ 1.3× floor (embed + Edge query) p50",
        COLD_P50,
        "floor.embed_query.p50",
        "at_most_times",
        1.3,
    ),
    Goal(
        "1 cold search p95",
        "≤ 1.5× floor p95",
        "memoryd.cold_search.p95",
        "floor.embed_query.p95",
        "at_most_times",
        1.5,
    ),
    Goal(
        "2 cached search p50",
        "≤ empty RPC p50 + 0.4 ms",
        "memoryd.cached_search.p50",
        EMPTY_P50,
        "at_most_plus",
        0.4,
    ),
    Goal(
        "3 SYNC create p50",
        "≤ 1.3× floor (embed + upsert) p50",
        "memoryd.create_sync.p50",
        "floor.embed_upsert.p50",
        "at_most_times",
        1.3,
    ),
    Goal(
        "3 ASYNC ack p50",
        "≤ empty RPC p50 + 1 ms",
        "memoryd.create_async.p50",
        EMPTY_P50,
        "at_most_plus",
        1.0,
    ),
    Goal(
        "3 BatchCreate x100 SYNC",
        "≥ 0.9× embedder batched texts/s",
        "memoryd.batch_create_per_s",
        EMBEDDER_RATE,
        "at_least_times",
        0.9,
        "/s",
    ),
    Goal(
        "4 searches/s, 16 clients",
        "≥ 0.7× embedder batched texts/s",
        "top_load.searches_per_s",
        EMBEDDER_RATE,
        "at_least_times",
        0.7,
        "/s",
    ),
    Goal(
        "5 Preload first event p50",
        "≤ 1.0× unary cold search p50",
        "memoryd.preload.first_event.p50",
        COLD_P50,
        "at_most_times",
        1.0,
    ),
    Goal(
        "5 Preload whole stream p50",
        "≤ 1.2× unary cold search p50",
        "memoryd.preload.whole_stream.p50",
        COLD_P50,
        "at_most_times",
        1.2,
    ),
    Goal(
        "5 Preload etag repeat p50",
        "≤ empty RPC p50 + 0.3 ms",
        "memoryd.preload.etag_repeat.p50",
        EMPTY_P50,
        "at_most_plus",
        0.3,
    ),
    Goal(
        "6 server peak RSS",
        "≤ 1.3× floor process (raw Edge + model, same data)",
        "memoryd.peak_rss_mb",
        "floor.peak_rss_mb",
        "at_most_times",
        1.3,
        "MB",
        at_100k_only=True,
    ),
]


def goal_rows(results: Mapping[str, Any]) -> list[GoalRow]:
    """One row per goal and size judged, then goal 7's two rows."""
    runs = {int(size): run for size, run in results.get("runs", {}).items()}
    rows: list[GoalRow] = []
    for goal in PER_SIZE_GOALS:
        wanted = (MEMORY_SIZE,) if goal.at_100k_only else GOAL_SIZES
        sizes = [s for s in wanted if s in runs]
        note = ""
        if not sizes and runs:
            sizes = [max(runs)]
            note = (
                f"stated at {' and '.join(short_size(s) for s in wanted)}; only smaller sizes ran"
            )
        if not sizes:
            rows.append(GoalRow(goal.name, goal.title, None, "", None))
        for size in sizes:
            rows.append(GoalRow(goal.name, goal.title, size, note, _judge(goal, runs[size])))
    rows.extend(_million_rows(results.get("million")))
    return rows


def _judge(goal: Goal, run: Run) -> Measure | None:
    try:
        return goal.judge(run)
    except (KeyError, TypeError, ZeroDivisionError):  # a peer failed or a series is empty
        return None


def _million_rows(million: Mapping[str, Any] | None) -> list[GoalRow]:
    """Goal 7: absolute limits at 1M, from the --million run (not run without it)."""
    limits = (
        ("7 cold search p95 at 1M", ("cold_search", "p95"), MILLION_SEARCH_P95_MS, "ms"),
        ("7 start-up to SERVING at 1M", ("startup_to_serving_s",), MILLION_STARTUP_S, "s"),
    )
    rows = []
    for name, path, limit, unit in limits:
        title = f"< {limit:g} {unit}"
        if not million:
            rows.append(GoalRow(name, title, None, "run with --million", None))
            continue
        try:
            value: Any = million
            for key in path:
                value = value[key]
            measured = float(value)
        except (KeyError, TypeError):  # the 1M run failed
            rows.append(GoalRow(name, title, 1_000_000, "the 1M run failed", None))
            continue
        measure = Measure(measured, limit, measured / limit, unit, "x", measured < limit)
        rows.append(GoalRow(name, title, 1_000_000, "", measure))
    return rows


def short_size(size: int) -> str:
    """1000 -> 1k, 100000 -> 100k, 1000000 -> 1M."""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000}M"
    if size >= 1_000 and size % 1_000 == 0:
        return f"{size // 1_000}k"
    return str(size)
