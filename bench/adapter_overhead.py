"""What the 10xgraph adapter adds to a call, side by side with the client it wraps.

A 10xgraph user reaches memoryd through ``MemorydStore`` (its ``asearch``,
``astore``, ``search``), not through ``memoryd_client``, which is what
bench-compare times. This starts one server, loads ``--size`` memories (100 to
a user, BatchCreate x100 SYNC, the compare workload), then times each pair of
calls alternating call by call on the store's own client and channel:

- ``asearch`` against ``AsyncMemorydClient.search_memories`` of the request
  asearch builds (so both ask the server for the same work: a token budget,
  DENSE with recency off), with the query's embedding cached, so the
  difference is the adapter's own cost;
- the same with ``--tasks`` other tasks alive in the event loop (an API server
  with requests in flight): asearch looks through the loop's tasks for
  10xgraph memory writes scheduled into the scope and not yet sent;
- ``astore`` against ``create_memory`` of the request astore builds, new texts;
- the sync ``search`` against ``MemorydClient.search_memories``.

Prints p50 / p95 of each side (milliseconds) and the adapter's p50 minus the
client's, per round.

    cd bench && ../.venv/bin/python adapter_overhead.py
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

from compare.stats import summary
from compare.workload import Workload
from harness import alternating, loaded_server

from memoryd_client.tenxgraph import MemorydStore

#: The repeated query of every timed search (its embedding cached after the first).
QUERY = "what did I say about my travel plans"
#: An async call of one kind, given the call's number.
AsyncCall = Callable[[int], Awaitable[object]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2_000)
    parser.add_argument("--calls", type=int, default=1_000, help="calls of each search kind")
    parser.add_argument("--writes", type=int, default=200, help="calls of each write kind")
    parser.add_argument("--tasks", type=int, nargs="+", default=[1_000])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    workload = Workload(args.size)
    with loaded_server(workload, "adapter-overhead-") as server:
        store = MemorydStore(server.address)
        try:
            for round_no in range(1, args.rounds + 1):
                print(f"round {round_no}")
                asyncio.run(_async_round(store, workload, args, round_no))
                _sync_searches(store, workload, args.calls)
        finally:
            store.release()


async def _async_round(
    store: MemorydStore, workload: Workload, args: argparse.Namespace, round_no: int
) -> None:
    config = {"user_id": workload.user_of(0)}
    request = store._requests.search(config, QUERY)  # what asearch sends
    await store.asearch(config, QUERY)  # the query's embedding is cached from here on

    async def adapter_search(_: int) -> object:
        return await store.asearch(config, QUERY)

    async def client_search(_: int) -> object:
        return await store.aclient.search_memories(request)

    searches = {"asearch": adapter_search, "client": client_search}
    await _report("search", searches, args.calls)
    for count in args.tasks:
        idle = asyncio.Event()
        others = [asyncio.create_task(idle.wait()) for _ in range(count)]
        await asyncio.sleep(0)  # let them start
        await _report(f"search, {count} other tasks", searches, args.calls)
        idle.set()
        await asyncio.gather(*others)

    texts = workload.fresh_texts(f"adapter-{round_no}", 2 * args.writes)
    writer = {"user_id": "adapter-writes"}

    async def adapter_store(i: int) -> object:
        return await store.astore(writer, texts[2 * i])

    async def client_create(i: int) -> object:
        return await store.aclient.create_memory(store._requests.create(writer, texts[2 * i + 1]))

    await _report("store, SYNC", {"astore": adapter_store, "client": client_create}, args.writes)
    await store.aclient.close()  # this loop's channel; the next round runs in a new loop


async def _report(what: str, kinds: dict[str, AsyncCall], count: int) -> None:
    samples: dict[str, list[float]] = {name: [] for name in kinds}
    calls = list(kinds.items())
    for i in range(count):
        shift = i % len(calls)
        for name, call in calls[shift:] + calls[:shift]:
            start = time.perf_counter()
            await call(i)
            samples[name].append((time.perf_counter() - start) * 1000)
    _print(what, samples)


def _sync_searches(store: MemorydStore, workload: Workload, count: int) -> None:
    config = {"user_id": workload.user_of(0)}
    request = store._requests.search(config, QUERY)
    store.search(config, QUERY)
    kinds: dict[str, Callable[[int], object]] = {
        "search": lambda _: store.search(config, QUERY),
        "client": lambda _: store.client.search_memories(request),
    }
    timings = alternating(list(kinds.values()), range(count))
    samples = dict(zip(kinds, timings, strict=True))
    _print("sync search", samples)


def _print(what: str, samples: dict[str, list[float]]) -> None:
    figures = {name: summary(values, keep_samples=False) for name, values in samples.items()}
    (adapter, adapter_figures), (_, client_figures) = figures.items()
    cells = ", ".join(f"{name} {f['p50']:.3f} / {f['p95']:.3f}" for name, f in figures.items())
    extra = adapter_figures["p50"] - client_figures["p50"]
    print(f"  {what:28} p50 / p95 ms: {cells}; {adapter} adds {extra:+.3f} ms at p50")


if __name__ == "__main__":
    main()
