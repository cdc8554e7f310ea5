"""The same calls against two or more servers, side by side in one run: sizes, or checkouts.

bench-compare measures its sizes one after another, minutes apart, on a machine
whose speed drifts between them; a row that is slower at 100k than at 10k may be
the size or the drift. And a change is only seen against the code before it
when both run at once. So this starts one ``memoryd serve`` per server on
scratch data directories, loads each as bench-compare does (BatchCreate x100
SYNC, 100 memories per user, the compare workload), then sends every kind of
call to each server in turn, the order alternating call by call, and prints
each server's p50 per kind and round (milliseconds):

- the empty RPC (health Check on the client's channel);
- SearchMemories with a repeated query (its embedding cached) and with a new one,
  DENSE with recency off, as bench-compare's rows;
- CreateMemory SYNC and ASYNC of new texts; and of each mode 10 creates in a
  row to one server (p50 of each create), where each meets the writes before
  it still being applied, as a client's writes in a row do;
- Preload over a user and an agent scope with a new query text, as bench-compare's
  rows: the whole stream, and its first event as a row of its own.

Servers: one of this checkout per --sizes (default 10k and 100k); or, with
--baseline (another checkout, such as ``git worktree add /tmp/base HEAD~1``),
this checkout and the baseline at the first size. The server started first read
1-4% slower than the other in the runs so far, the same code or not, so compare
two checkouts in both start orders (--baseline-first).

    cd bench && ../.venv/bin/python servers_side_by_side.py
    cd bench && ../.venv/bin/python servers_side_by_side.py --baseline /tmp/base --sizes 10000
"""

from __future__ import annotations

import argparse
import functools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from compare.memoryd_client_calls import (
    ASYNC,
    SYNC,
    connect,
    create,
    empty_rpc,
    search,
    store_in_batches,
    wait_until_indexed,
)
from compare.memoryd_preload import add_agent_memories, preload_request, timed_preload
from compare.workload import Workload, cold_query
from harness import CHECKOUT, ServerProcess, alternating, checkout_env, percentiles

from memoryd_client import MemorydClient

#: The user whose memories the timed creates write.
WRITER = "writes"
#: Creates one client sends in a row, in the in-a-row rows.
IN_A_ROW = 10
#: A call of one kind: the number of the server it goes to, and the call's number.
Call = Callable[[int, int], object]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--baseline", type=Path, help="another memoryd checkout")
    parser.add_argument("--baseline-first", action="store_true", help="start the baseline first")
    parser.add_argument("--calls", type=int, default=400, help="calls of each kind per server")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.baseline is None:
        servers = [(f"{size}", size, CHECKOUT) for size in args.sizes]
    else:
        size = args.sizes[0]
        servers = [(f"this checkout, {size}", size, CHECKOUT)]
        servers.append((f"baseline, {size}", size, args.baseline.resolve()))
        if args.baseline_first:
            servers.reverse()
    with tempfile.TemporaryDirectory(prefix="servers-side-by-side-") as scratch:
        processes = [
            ServerProcess(Path(scratch) / str(i), env=checkout_env(tree)).start()
            for i, (_, _, tree) in enumerate(servers)
        ]
        try:
            clients = [connect(process.address) for process in processes]
            workloads = [Workload(size) for _, size, _ in servers]
            for (label, _, _), client, workload in zip(servers, clients, workloads, strict=True):
                started = time.perf_counter()
                store_in_batches(client, workload.by_user())
                add_agent_memories(client, workload)
                print(f"loaded {label} in {time.perf_counter() - started:.0f} s")
            labels = [label for label, _, _ in servers]
            _measure(labels, list(zip(clients, workloads, strict=True)), args)
        finally:
            for process in processes:
                process.stop()


def _measure(
    labels: list[str], servers: list[tuple[MemorydClient, Workload]], args: argparse.Namespace
) -> None:
    # Four kinds of create, each a first call and --calls timed ones per round.
    new_texts = [
        iter(workload.fresh_texts("side-by-side", 4 * args.rounds * (args.calls + IN_A_ROW)))
        for _, workload in servers
    ]
    repeated = cold_query("cached", 0)

    empties = [empty_rpc(client) for client, _ in servers]

    def searching(query: Callable[[int], str]) -> Call:
        return lambda k, i: search(servers[k][0], servers[k][1].user_of(i), query(i))

    def creating(mode: int) -> Call:
        return lambda k, i: create(servers[k][0], WRITER, next(new_texts[k]), mode)

    first_events: list[list[float]] = [[] for _ in servers]
    #: Each create's milliseconds per server, by the label of its in-a-row row.
    in_a_row: dict[str, list[list[float]]] = {}

    def creating_in_a_row(mode: int, label: str) -> Call:
        # One client's writes in a row, as an agent stores what a turn taught it:
        # each meets the ones before still being applied (in the alternating rows
        # every call meets a server that has gone quiet meanwhile).
        samples = in_a_row.setdefault(label, [[] for _ in servers])

        def creates(k: int, i: int) -> None:
            for _ in range(IN_A_ROW):
                started = time.perf_counter()
                create(servers[k][0], WRITER, next(new_texts[k]), mode)
                samples[k].append((time.perf_counter() - started) * 1000)

        return creates

    def preloading(k: int, i: int) -> None:
        request = preload_request(servers[k][1], "pnew", i)
        first_events[k].append(timed_preload(servers[k][0], request)[0])

    kinds: dict[str, Call] = {
        "empty RPC": lambda k, i: empties[k](),
        "search, repeated query": searching(lambda i: repeated),
        "search, new query": searching(lambda i: cold_query("new", i)),
        "CreateMemory SYNC": creating(SYNC),
        "CreateMemory ASYNC": creating(ASYNC),
    }
    for name, mode in (("SYNC", SYNC), ("ASYNC", ASYNC)):
        label = f"CreateMemory {name}, {IN_A_ROW} in a row"
        kinds[label] = creating_in_a_row(mode, label)
    kinds["Preload, new query: whole stream"] = preloading
    columns = " | ".join(f"{label} p50" for label in labels)
    print(f"\n| round | call | {columns} |\n|---|---|" + "---:|" * len(labels))
    for round_ in range(args.rounds):
        for kind, call in kinds.items():
            for k in range(len(servers)):  # a first call each, not timed
                call(k, round_ * (args.calls + 1))
            first = round_ * (args.calls + 1) + 1
            per_server = [functools.partial(call, k) for k in range(len(servers))]
            rows = in_a_row.get(kind)
            for recorded in [*first_events, *(rows or [])]:
                recorded.clear()
            calls = args.calls if rows is None else args.calls // IN_A_ROW
            samples = alternating(per_server, range(first, first + calls))
            if rows is not None:
                samples = rows
            p50s = " | ".join(f"{percentiles(s)[0]:.2f}" for s in samples)
            print(f"| {round_ + 1} | {kind} | {p50s} |", flush=True)
            if call is preloading:
                p50s = " | ".join(f"{percentiles(s)[0]:.2f}" for s in first_events)
                print(f"| {round_ + 1} | Preload, new query: first event | {p50s} |", flush=True)
        for client, _ in servers:
            wait_until_indexed(client, WRITER)


if __name__ == "__main__":
    main()
