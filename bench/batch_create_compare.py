"""BatchCreate throughput of this checkout's server against another's, side by side in one run.

Starts ``memoryd serve`` of this checkout and of ``--baseline`` (another
checkout, such as ``git worktree add /tmp/base HEAD~1``) on scratch data
directories, both at once, and sends each, in alternating order, BatchCreate
x100 SYNC of distinct new texts through the Python client: --rounds batches
each of the benchmark corpus (memories of about one length) and of memories of
mixed lengths (bench/corpus.py).

    python bench/batch_create_compare.py --baseline /tmp/base --rounds 16
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from compare.memoryd_client_calls import batch_create, connect
from corpus import memories, mixed_lengths
from harness import CHECKOUT, ServerProcess, checkout_env

BATCH = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another memoryd checkout")
    parser.add_argument("--rounds", type=int, default=16)
    args = parser.parse_args()
    trees = {"this checkout": CHECKOUT, "baseline": args.baseline.resolve()}
    count = (args.rounds + 1) * BATCH * len(trees)
    sets = {
        "corpus (like lengths)": memories(count, seed=21),
        "mixed lengths": mixed_lengths(count),
    }
    with tempfile.TemporaryDirectory(prefix="batch-create-") as scratch:
        servers = {
            name: ServerProcess(Path(scratch) / str(i), env=checkout_env(tree)).start()
            for i, (name, tree) in enumerate(trees.items())
        }
        try:
            clients = {name: connect(server.address) for name, server in servers.items()}
            print(f"BatchCreate x{BATCH} SYNC, distinct texts, {args.rounds} rounds each\n")
            print("| texts | this checkout, memories/s | baseline | this / baseline |")
            print("|---|---:|---:|---:|")
            for kind, texts in sets.items():
                batches = iter(texts[i : i + BATCH] for i in range(0, len(texts), BATCH))
                for name in trees:  # one batch each first: the model's first calls
                    batch_create(clients[name], "warm-up", next(batches))
                seconds: dict[str, list[float]] = {name: [] for name in trees}
                for round_ in range(args.rounds):
                    order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
                    for name in order:
                        started = time.perf_counter()
                        batch_create(clients[name], f"user-{round_}", next(batches))
                        seconds[name].append(time.perf_counter() - started)
                this, base = (BATCH / statistics.median(seconds[name]) for name in trees)
                print(f"| {kind} | {this:.0f} | {base:.0f} | {this / base:.2f}x |")
            for client in clients.values():
                client.close()
        finally:
            for server in servers.values():
                server.stop()


if __name__ == "__main__":
    main()
