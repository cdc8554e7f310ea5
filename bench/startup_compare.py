"""Start-up to SERVING of this checkout against another one, side by side in one run.

Each round starts ``memoryd serve`` from this checkout and from ``--baseline``
(another checkout of memoryd, such as ``git worktree add /tmp/base HEAD~1``),
in alternating order, on a data directory of its own (empty unless
``--data-dir`` is given, which both then open in turn), and times spawn until
the health Check answers SERVING, then the first search (a new text, so the
model's first call), as a request arriving right after a start meets it. The
baseline runs with its own ``server/`` and Python client first on PYTHONPATH,
in this checkout's environment.

    python bench/startup_compare.py --baseline /tmp/base --runs 20
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import grpc
from compare.million import wait_serving
from harness import CHECKOUT, ServerProcess, checkout_env

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another memoryd checkout")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--data-dir", type=Path, help="a data directory both open (default: empty)")
    args = parser.parse_args()
    trees = {"this checkout": CHECKOUT, "baseline": args.baseline.resolve()}
    times: dict[str, list[float]] = {name: [] for name in trees}
    first: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory(prefix="startup-") as scratch:
        data = {name: args.data_dir or Path(scratch) / str(i) for i, name in enumerate(trees)}
        for name, tree in trees.items():  # creates the empty data directories
            to_serving(tree, data[name])
        for run in range(args.runs):
            order = list(trees) if run % 2 == 0 else list(reversed(trees))
            for name in order:
                serving, search_ms = to_serving_and_first_search(trees[name], data[name])
                times[name].append(serving)
                first[name].append(search_ms)
    print(f"start-up to SERVING, then the first search, {args.runs} runs each, alternating\n")
    print("| checkout | to SERVING p50 | min | max | first search p50 | min | max |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, seconds in times.items():
        ms = first[name]
        print(
            f"| {name} ({trees[name]}) | {statistics.median(seconds):.3f} s "
            f"| {min(seconds):.3f} s | {max(seconds):.3f} s "
            f"| {statistics.median(ms):.1f} ms | {min(ms):.1f} ms | {max(ms):.1f} ms |"
        )
    this, base = (statistics.median(times[name]) for name in trees)
    print(f"\nthis checkout / baseline, to SERVING p50: {this / base:.2f}x")


def to_serving(tree: Path, data_dir: Path) -> float:
    """Seconds from spawning ``memoryd serve`` of ``tree`` until it is SERVING."""
    return to_serving_and_first_search(tree, data_dir, search=False)[0]


def to_serving_and_first_search(
    tree: Path, data_dir: Path, *, search: bool = True
) -> tuple[float, float]:
    """Seconds from spawning ``memoryd serve`` of ``tree`` until it is SERVING, and
    milliseconds of the search sent right then (0 with ``search`` off)."""
    started = time.perf_counter()
    server = ServerProcess(data_dir, env=checkout_env(tree)).start()
    try:
        wait_serving(server.address)
        serving = time.perf_counter() - started
        if not search:
            return serving, 0.0
        with grpc.insecure_channel(server.address) as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            request = svc.SearchMemoriesRequest(
                query=f"the first question after a start, {uuid.uuid4()}",
                scope=pb.Scope(user_id="startup-user"),
            )
            began = time.perf_counter()
            stub.SearchMemories(request, timeout=60)
            return serving, (time.perf_counter() - began) * 1000
    finally:
        server.stop()


if __name__ == "__main__":
    main()
