"""Where a server's start-up goes, stage by stage, on a data directory of N memories.

Issue 14's goal 7 asks for start-up to SERVING under 5 s at 1M memories. This
measures, on one data directory (filled first through ImportMemories with
seeded random unit vectors, about 2,000 memories/s, when --import is given
and the directory holds no index yet):

- start-up to SERVING of a real ``memoryd serve`` process, as
  ``make bench-compare --million`` times it (spawn until health Check answers);
- the stages of the same start in a child process: Python imports (with the
  start of the model, which then loads on its own thread beside them and the
  shard), opening the Qdrant Edge shard (which holds the GIL), the journal, the
  indexer's start, and how long the first embed still waits for the model.

Each run starts a new process on the same directory, so the operating
system's page cache holds the files as it would at a restart.

    python bench/startup_stages.py --data-dir /tmp/m1m --import 1000000 --runs 3
"""

from __future__ import annotations

import argparse
import inspect
import json
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

# Only the standard library up here: the child processes time the server's
# imports, which this module's own would otherwise have done already.


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--import", dest="count", type=int, default=0, help="memories to import")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", choices=("server", "engine"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "server":
        print(json.dumps(_stages_in_this_process(args.data_dir)))
        return
    if args.child == "engine":
        print(json.dumps(_engine_alone(args.data_dir)))
        return
    if args.count and not (args.data_dir / "index.json").exists():
        _import(args.data_dir, args.count)
    print(
        "| run | to SERVING (process) | engine alone: shard load | imports | Edge shard load "
        "| journal | indexer start | first embed (waits for the model) | build total |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in range(1, args.runs + 1):
        serving = _to_serving(args.data_dir)
        engine = _child(args.data_dir, "engine")
        stages = _child(args.data_dir, "server")
        cells = [f"{stages[k]:.2f} s" for k in ("imports", "shard", "journal", "indexer")]
        print(
            f"| {run} | {serving:.2f} s | {engine['shard']:.2f} s | "
            + " | ".join(cells)
            + f" | {stages['embed_wait']:.2f} s | {stages['build']:.2f} s |"
        )


def _child(data_dir: Path, kind: str) -> dict[str, float]:
    command = [sys.executable, __file__, "--data-dir", str(data_dir), "--child", kind]
    result: dict[str, float] = json.loads(
        subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
    )
    return result


def _import(data_dir: Path, count: int) -> None:
    """Fills ``data_dir`` as bench-compare's 1M run does (compare/million.py's
    records), with seeded random unit vectors in place of the model's."""
    from compare.memoryd_client_calls import connect
    from compare.million import import_random_vectors
    from harness import ServerProcess

    data_dir.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(data_dir).start()
    try:
        client = connect(server.address)
        started = time.perf_counter()
        answer = import_random_vectors(client, count)
        took = time.perf_counter() - started
        print(
            f"imported {answer.created_count:,} memories in {took:.0f} s "
            f"({answer.created_count / took:,.0f}/s)\n"
        )
        client.close()
    finally:
        server.stop()


def _to_serving(data_dir: Path) -> float:
    from harness import CHECKOUT
    from startup_compare import to_serving

    return to_serving(CHECKOUT, data_dir)


def _engine_alone(data_dir: Path) -> dict[str, float]:
    """The floor: the same shard opened by Qdrant Edge in a process doing nothing else."""
    from memoryd.core.ports import IndexSpec
    from memoryd.embed.onnx_local import DIMENSION, MODEL_ID
    from memoryd.store.edge_shards import active_shard, load_shard

    started = time.perf_counter()
    spec = IndexSpec(embedder_id=MODEL_ID, dimension=DIMENSION)
    shard = load_shard(data_dir / active_shard(data_dir), spec)
    took = time.perf_counter() - started
    shard.close()
    return {"shard": took}


def _stages_in_this_process(data_dir: Path) -> dict[str, float]:
    """Builds the server's object graph as ``memoryd serve`` does, timing each stage."""
    import asyncio

    started = time.perf_counter()
    from memoryd.components import start_local_model
    from memoryd.config import Settings

    settings = Settings(data_dir=data_dir)
    model = start_local_model(settings)  # as memoryd serve does: before the server's imports
    import memoryd.server as server
    from memoryd.core.indexer import Indexer
    from memoryd.store import edge
    from memoryd.store.sqlite_journal import SqliteJournal

    stages = {"imports": time.perf_counter() - started}

    def timed(owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)

        def add(began: float) -> None:
            stages[stage] = stages.get(stage, 0.0) + time.perf_counter() - began

        def call(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            result = original(*args, **kwargs)
            if not inspect.isawaitable(result):
                add(began)
                return result
            return _finished(result, lambda: add(began))

        setattr(owner, name, call)

    timed(edge, "load_shard", "shard")
    timed(SqliteJournal, "open", "journal")
    timed(Indexer, "start", "indexer")

    async def build_and_embed() -> None:
        began = time.perf_counter()
        app = await server.build(settings, local_model=model)
        stages["build"] = time.perf_counter() - began
        began = time.perf_counter()
        await app.embedder.embed(["the first query after a start"])
        stages["embed_wait"] = time.perf_counter() - began
        await app.close()

    asyncio.run(build_and_embed())
    return stages


async def _finished(awaitable: Awaitable[Any], then: Callable[[], None]) -> Any:
    try:
        return await awaitable
    finally:
        then()


if __name__ == "__main__":
    main()
