"""What a crash leaves a restart: the engine's log on disk and the time to SERVING, two checkouts.

Qdrant Edge keeps every update in its write-ahead log until the index is
flushed; a restart after a crash replays what the log holds. In each round,
for this checkout and for ``--baseline`` (another checkout, such as ``git
worktree add /tmp/base HEAD~1``) in alternating order, this:

1. starts ``memoryd serve`` on a new scratch data directory and imports
   ``--memories`` memories with seeded random unit vectors (ImportMemories, as
   bench-compare's 1M run loads its store; it answers once they are applied);
2. waits ``--settle`` seconds more (longer than the flush interval), as a server
   that has gone quiet would;
3. kills it with SIGKILL, and measures the shard's write-ahead log on disk
   (blocks allocated);
4. starts it again and times spawn until SERVING, then checks that every
   imported memory is there (GetStats).

With ``--power-loss`` it takes a power loss instead: the server is first
started and stopped cleanly on its empty data directory, whose shard (as at
that flush) is copied aside; then it imports with no flush while serving
(``MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS`` a day), is killed, and its shard
is put back as copied, the most a power loss can take from the index.

    python bench/crash_restart.py --baseline /tmp/base --memories 50000 --rounds 3
    python bench/crash_restart.py --baseline /tmp/base --memories 5000 --power-loss
"""

from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import tempfile
import time
from pathlib import Path

from compare.memoryd_client_calls import connect
from compare.million import import_random_vectors, wait_serving
from harness import CHECKOUT, ServerProcess, checkout_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another memoryd checkout")
    parser.add_argument("--memories", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--settle", type=float, default=35.0, help="seconds before the kill (flushes: 30 s)"
    )
    parser.add_argument(
        "--power-loss", action="store_true", help="put the shard back as at its last flush"
    )
    args = parser.parse_args()
    trees = {"this checkout": CHECKOUT, "baseline": args.baseline.resolve()}
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory(prefix="crash-restart-") as scratch:
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in order:
                data_dir = Path(scratch) / f"{round_}-{name.replace(' ', '-')}"
                rows[name].append(_crash_and_restart(trees[name], data_dir, args))
                print(f"round {round_ + 1}, {name}: {rows[name][-1]}", flush=True)
    crash = "a power loss" if args.power_loss else "killed"
    print(f"\n{args.memories:,} memories imported, then {crash} after {args.settle:.0f} s\n")
    print(
        "| checkout | write-ahead log on disk, p50 | to SERVING after it, p50 | memories after it |"
    )
    print("|---|---:|---:|---:|")
    for name, measured in rows.items():
        log_mb = statistics.median(m for m, _, _ in measured)
        serving = statistics.median(s for _, s, _ in measured)
        kept = ", ".join(f"{k:,}" for _, _, k in measured)
        print(f"| {name} ({trees[name]}) | {log_mb:.0f} MB | {serving:.2f} s | {kept} |")


def _crash_and_restart(
    tree: Path, data_dir: Path, args: argparse.Namespace
) -> tuple[float, float, int]:
    """The write-ahead log's MB on disk after the crash, seconds to SERVING
    after it, and the memories the restarted server holds."""
    env = checkout_env(tree)
    if args.power_loss:
        ServerProcess(data_dir, env=env).start().stop()
        shutil.copytree(data_dir / "shard", data_dir.with_name(data_dir.name + "-flushed"))
        env = {**env, "MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS": "86400"}
    server = ServerProcess(data_dir, env=env).start()
    try:
        client = connect(server.address)
        import_random_vectors(client, args.memories)
        client.close()
        time.sleep(args.settle)  # the measured situation: a server quiet this long
    finally:
        server.stop(signal.SIGKILL)
    log_mb = sum(f.stat().st_blocks * 512 for f in data_dir.rglob("wal/*")) / 1e6
    if args.power_loss:
        shutil.rmtree(data_dir / "shard")
        shutil.copytree(data_dir.with_name(data_dir.name + "-flushed"), data_dir / "shard")
    started = time.perf_counter()
    server = ServerProcess(data_dir, env=env).start()
    try:
        wait_serving(server.address)
        serving = time.perf_counter() - started
        client = connect(server.address)
        stored = client.get_stats().user_memory_count
        client.close()
        if stored != args.memories and not args.power_loss:  # a power loss: reported, not fatal
            raise SystemExit(f"{tree}: {stored} memories after the restart, not {args.memories}")
    finally:
        server.stop()
    return log_mb, serving, stored


if __name__ == "__main__":
    main()
