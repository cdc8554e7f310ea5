"""make bench-compare: memoryd, the floor, 10xgraph and mem0, one after another, same data.

Writes bench/results/<YYYY-MM-DD>/ (results.json, report.md and the plots)
and points bench/results/latest at it. results.json is rewritten after each
peer, so an interrupted run keeps what it measured.

    python -m compare --sizes 1000 10000 100000 [--million]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from compare.machine import machine_info
from compare.plots import write_plots
from compare.progress import say
from compare.report import PEERS, render
from compare.runners import BENCH, peers, run_peer

MILLION = 1_000_000


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m compare", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also memoryd and the floor at 1M")
    parser.add_argument("--peers", nargs="+", choices=PEERS, default=list(PEERS))
    parser.add_argument("--samples", type=int, default=300, help="calls per memoryd/floor series")
    parser.add_argument("--peer-samples", type=int, default=100, help="calls per peer series")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per memoryd series")
    parser.add_argument("--peer-budget", type=float, default=20.0, help="seconds per peer series")
    parser.add_argument("--load-seconds", type=float, default=5.0, help="per concurrency level")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    parser.add_argument(
        "--no-recall-sets",
        dest="recall_sets",
        action="store_false",
        help="leave out make bench-recall's table (bench/recall_eval.py)",
    )
    args = parser.parse_args()

    started = time.perf_counter()
    out_dir = args.out / datetime.now(UTC).strftime("%Y-%m-%d")
    out_dir.mkdir(parents=True, exist_ok=True)
    registry = peers(Path(sys.executable))
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m compare " + shlex.join(sys.argv[1:]),
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "machine": machine_info({name: registry[name].python for name in args.peers}),
        "runs": {},
        "million": None,
    }
    for size in args.sizes:
        for name in args.peers:
            say("bench-compare", f"{name} at {size:,}")
            run = results["runs"].setdefault(str(size), {})
            run[name] = run_peer(registry[name], size, _options(name, args))
            _save(results, out_dir, started)
    if args.million:
        say("bench-compare", "floor at 1M")
        floor = run_peer(registry["floor"], MILLION, _options("floor", args))
        say("bench-compare", "memoryd at 1M, through the import path")
        results["million"] = {**run_peer(registry["million"], MILLION, _options("million", args))}
        results["million"]["floor"] = floor
        _save(results, out_dir, started)
    if args.recall_sets:
        say("bench-compare", "every retrieval mode on every recall set (make bench-recall)")
        results["recall_sets"] = _recall_sets()
        _save(results, out_dir, started)
    results["machine"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    write_plots(results, out_dir)
    _save(results, out_dir, started)
    (out_dir / "report.md").write_text(render(results))
    _point_latest(args.out, out_dir)
    say("bench-compare", f"done in {time.perf_counter() - started:.0f} s: {out_dir / 'report.md'}")


def _recall_sets() -> str:
    """make bench-recall's output: its own server, in its own process."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "recall_eval.py")],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def _options(name: str, args: argparse.Namespace) -> list[str]:
    if name in ("tenxgraph", "mem0"):
        return ["--samples", str(args.peer_samples), "--budget", str(args.peer_budget)]
    options = ["--samples", str(args.samples), "--budget", str(args.budget)]
    if name == "memoryd":
        options += ["--load-seconds", str(args.load_seconds)]
    return options


def _save(results: dict[str, Any], out_dir: Path, started: float) -> None:
    results["wall_seconds"] = time.perf_counter() - started
    (out_dir / "results.json").write_text(json.dumps(results, indent=1) + "\n")


def _point_latest(results_dir: Path, out_dir: Path) -> None:
    latest = results_dir / "latest"
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(out_dir.name)


if __name__ == "__main__":
    main()
