"""Issue 14's goals 1, 2, 3 and 5 with memoryd and its baseline measured call by call, side by side.

bench-compare measures memoryd and the floor in turn, each in its own process,
minutes apart; these machines drift by 20-50% between runs, so a ratio near its
line can pass in one run and fail in the next. Here one process holds the floor
as compare.floor_run makes it (the model alone, and a raw Qdrant Edge shard of
the workload's memories) and drives a memoryd server holding the same memories
(imported with the same vectors, as compare.million does), alternating the two
sides call by call (which side goes first alternates too):

- goal 1: SearchMemories with a new query text (DENSE, recency off) against
  embed + Edge query of a new text, as bench-compare's rows;
- goal 2: SearchMemories with a repeated query against the empty RPC;
- goal 3: CreateMemory SYNC of a new text against embed + Edge upsert of one,
  and CreateMemory ASYNC against the empty RPC;
- goal 5: Preload over a user and an agent scope with a new query text (its
  first event and the whole stream) against SearchMemories with another new
  text of the same length, as bench-compare's rows.

Prints, per round of --samples pairs, each side's p50 / p95 (milliseconds) and
the goal's verdict, judged as the report judges it (compare.goals).

    cd bench && ../.venv/bin/python goals_side_by_side.py --size 100000
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compare.floor_embedder import embedder_figures
from compare.floor_run import embed_and_query, embed_and_upsert, load
from compare.goals import PER_SIZE_GOALS, figure
from compare.memoryd_client_calls import (
    ASYNC,
    SYNC,
    connect,
    create,
    empty_rpc,
    search,
    wait_until_indexed,
)
from compare.memoryd_preload import add_agent_memories, preload_request, timed_preload
from compare.million import IMPORT_BATCH, IMPORT_DEADLINE_S, records
from compare.stats import summary
from compare.vectors import workload_vectors
from compare.workload import Workload, cold_query
from harness import ServerProcess, alternating

from memoryd.core.ports import IndexSpec
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.edge_shards import create_shard

ASYNC_USER = "bench-async"


@dataclass(frozen=True)
class Side:
    """One side of a pairing: where its figure goes in a run (as compare.goals
    reads it, "peer.series") and the call it times; ``recorded``: series the call
    records itself, by path (Preload's first event)."""

    path: str
    call: Callable[[int], object]
    recorded: dict[str, list[float]] = field(default_factory=dict)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300, help="pairs per round")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    workload = Workload(args.size)
    # The floor's model runs with the intra-op threads that make it fastest, as bench-compare's.
    model = OnnxMiniLMEmbedder(intra_op_threads=embedder_figures()["intra_op_threads"])
    with tempfile.TemporaryDirectory(prefix="goals-side-by-side-") as scratch:
        shard = create_shard(Path(scratch) / "floor", IndexSpec(model.model_id, model.dimension))
        load(shard, workload, model)
        server = ServerProcess(Path(scratch) / "memoryd").start()
        try:
            client = connect(server.address)
            vectors = workload_vectors(workload, model, "memoryd")
            client.import_memories(
                records(workload, vectors, model.model_id),
                batch_size=IMPORT_BATCH,
                timeout=IMPORT_DEADLINE_S,
            )
            pairings = _pairings(client, shard, model, workload, args)
            print(f"\n{args.size} memories, {args.samples} pairs per round\n")
            print(
                "| round | memoryd | p50 / p95 | against | p50 / p95 | goal | measured | verdict |"
            )
            print("|---|---|---:|---|---:|---|---:|---|")
            for round_ in range(args.rounds):
                for goal_names, (memoryd, baseline) in pairings.items():
                    _report(round_, goal_names, memoryd, baseline, args)
                wait_until_indexed(client, ASYNC_USER)
        finally:
            server.stop()
            shard.close()


def _pairings(
    client: Any, shard: Any, model: OnnxMiniLMEmbedder, workload: Workload, args: argparse.Namespace
) -> dict[tuple[str, ...], tuple[Side, Side]]:
    """Each goal's two sides; every call's number is new across rounds, so every text is new."""
    empty = empty_rpc(client)
    # Both sides get the same texts: a model call's time depends on the text's length.
    count = args.rounds * (args.samples + 1)
    new_texts = workload.fresh_texts("side-by-side", 2 * count)
    repeated = cold_query("cached", 0)
    search(client, workload.user_of(0), repeated)  # the one call that embeds it
    add_agent_memories(client, workload)
    first_events: list[float] = []

    def preload(i: int) -> None:
        # Tags of one length: the two sides' texts are as long as each other.
        first_events.append(timed_preload(client, preload_request(workload, "pre-p", i))[0])

    return {
        ("1 cold search p50", "1 cold search p95"): (
            Side(
                "memoryd.cold_search",
                lambda i: search(client, workload.user_of(i), cold_query("side-by-side", i)),
            ),
            Side(
                "floor.embed_query",
                lambda i: embed_and_query(
                    shard, model, workload.user_of(i), cold_query("side-by-side", i)
                ),
            ),
        ),
        ("2 cached search p50",): (
            Side("memoryd.cached_search", lambda i: search(client, workload.user_of(i), repeated)),
            Side("memoryd.empty_rpc", lambda i: empty()),
        ),
        ("3 SYNC create p50",): (
            Side("memoryd.create_sync", lambda i: create(client, "bench-sync", new_texts[i], SYNC)),
            Side(
                "floor.embed_upsert",
                lambda i: embed_and_upsert(
                    shard, model, workload.size + i, "floor-writes", new_texts[i]
                ),
            ),
        ),
        ("3 ASYNC ack p50",): (
            Side(
                "memoryd.create_async",
                lambda i: create(client, ASYNC_USER, new_texts[count + i], ASYNC),
            ),
            Side("memoryd.empty_rpc", lambda i: empty()),
        ),
        ("5 Preload first event p50", "5 Preload whole stream p50"): (
            Side(
                "memoryd.preload.whole_stream",
                preload,
                {"memoryd.preload.first_event": first_events},
            ),
            Side(
                "memoryd.cold_search",
                lambda i: search(client, workload.user_of(i), cold_query("pre-u", i)),
            ),
        ),
    }


def _report(
    round_: int,
    goal_names: tuple[str, ...],
    memoryd: Side,
    baseline: Side,
    args: argparse.Namespace,
) -> None:
    first = round_ * (args.samples + 1)
    memoryd.call(first)  # a first call each, not timed
    baseline.call(first)
    sides = (memoryd, baseline)
    for series in (s for side in sides for s in side.recorded.values()):
        series.clear()
    samples = alternating([side.call for side in sides], range(first + 1, first + 1 + args.samples))
    run: dict[str, Any] = {"memoryd": {}, "floor": {}}
    for side, series in zip(sides, samples, strict=True):
        _put(run, side.path, summary(series, keep_samples=False))
        for path, recorded in side.recorded.items():
            _put(run, path, summary(recorded, keep_samples=False))
    for goal in (g for g in PER_SIZE_GOALS if g.name in goal_names):
        measure = goal.judge(run)
        value = f"{measure.ratio:.2f}x" if measure.ratio_unit == "x" else f"+{measure.ratio:.2f} ms"
        # The goal's paths end in a figure ("memoryd.cold_search.p50"): its series is the rest.
        measured, against = (path.rsplit(".", 1)[0] for path in (goal.measured, goal.baseline))
        print(
            f"| {round_ + 1} | {measured} | {_p50_p95(run, measured)} "
            f"| {against} | {_p50_p95(run, against)} "
            f"| {goal.name}: {goal.title} | {value} | {'PASS' if measure.passed else 'FAIL'} |",
            flush=True,
        )


def _put(run: dict[str, Any], path: str, figures: dict[str, Any]) -> None:
    """Sets run's entry at a dotted path ("memoryd.preload.first_event") to figures."""
    *parents, name = path.split(".")
    for key in parents:
        run = run.setdefault(key, {})
    run[name] = figures


def _p50_p95(run: dict[str, Any], series: str) -> str:
    return f"{figure(run, f'{series}.p50'):.2f} / {figure(run, f'{series}.p95'):.2f}"


if __name__ == "__main__":
    main()
