"""What grouping texts by length saves embed calls, by model batch size, side by side in one run.

Each model call pads every text to its longest. The server's micro-batching
wrapper over the offline model (embed/batching.py) sorts a call of many texts
by length and sends it in pieces of at most MEMORYD_EMBED_BATCH_SIZE texts. In
alternating rounds this times:

- a call of --call-size distinct texts (a BatchCreate of 100, an import page):
  ``as sent`` hands the wrapper pieces of 32 in the caller's order (what it did
  before it sorted), the others give it the whole call, with batch sizes 32,
  16 and 8;
- 16 concurrent callers embedding one query each, over and over (a search
  load), which the wrapper merges into model calls of up to the batch size.

Two sets of texts: the benchmark corpus (bench/corpus.py, every memory of about
the same length), and memories of mixed lengths (one to four corpus memories
joined, 17 to about 100 tokens), as agents write them.

    python bench/batch_order.py --rounds 30
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

from corpus import fresh_queries, memories, mixed_lengths

from memoryd.embed.batching import MicroBatchingEmbedder
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

SIZES = (32, 16, 8)
AS_SENT = 32  # the piece the wrapper sent unsorted before, its default batch size then
CALLERS = 16


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--call-size", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(_compare(args.rounds, args.call_size))


async def _compare(rounds: int, call_size: int) -> None:
    model = OnnxMiniLMEmbedder()
    wrappers = {size: MicroBatchingEmbedder(model, max_batch=size) for size in SIZES}
    await wrappers[AS_SENT].embed(memories(AS_SENT, seed=1))  # loads the model
    count = rounds * call_size
    sets = {"corpus (like lengths)": memories(count, seed=2), "mixed lengths": mixed_lengths(count)}
    ways: dict[str, Callable[[list[str]], Awaitable[object]]] = {"as sent": _as_sent(wrappers)}
    ways |= {f"by length, {size}": wrappers[size].embed for size in SIZES}
    print(f"a call of {call_size} distinct texts, ms (median of {rounds} rounds)\n")
    print("| texts | " + " | ".join(ways) + " | as sent / best |")
    print("|---|" + "---:|" * (len(ways) + 1))
    for name, texts in sets.items():
        times: dict[str, list[float]] = {way: [] for way in ways}
        for round_ in range(rounds):
            call = texts[round_ * call_size : (round_ + 1) * call_size]
            order = list(ways) if round_ % 2 == 0 else list(reversed(ways))
            for way in order:
                started = time.perf_counter()
                await ways[way](call)
                times[way].append((time.perf_counter() - started) * 1000)
        medians = {way: statistics.median(t) for way, t in times.items()}
        cells = " | ".join(f"{m:.0f}" for m in medians.values())
        best = min(m for way, m in medians.items() if way != "as sent")
        print(f"| {name} | {cells} | {medians['as sent'] / best:.2f}x |")
    queries = fresh_queries(rounds * CALLERS * 10)
    print(f"\n{CALLERS} concurrent callers, one query each per call: queries/s\n")
    print("| batch size | " + " | ".join(str(s) for s in SIZES) + " |")
    print("|---|" + "---:|" * len(SIZES))
    rates: dict[int, list[float]] = {size: [] for size in SIZES}
    per_round = CALLERS * 10
    for round_ in range(rounds):
        chunk = queries[round_ * per_round : (round_ + 1) * per_round]
        for size in SIZES if round_ % 2 == 0 else tuple(reversed(SIZES)):
            rates[size].append(await _concurrent_rate(wrappers[size], chunk))
    print(
        "| queries/s | " + " | ".join(f"{statistics.median(r):.0f}" for r in rates.values()) + " |"
    )
    for wrapper in wrappers.values():
        await wrapper.close()


def _as_sent(wrappers: dict[int, MicroBatchingEmbedder]) -> Callable[[list[str]], Awaitable[None]]:
    async def embed(call: list[str]) -> None:
        for start in range(0, len(call), AS_SENT):
            await wrappers[AS_SENT].embed(call[start : start + AS_SENT])

    return embed


async def _concurrent_rate(wrapper: MicroBatchingEmbedder, queries: list[str]) -> float:
    """Queries/s of CALLERS callers sharing ``queries``, one at a time each."""
    pending = iter(queries)

    async def caller() -> None:
        for query in pending:
            await wrapper.embed([query])

    started = time.perf_counter()
    await asyncio.gather(*(caller() for _ in range(CALLERS)))
    return len(queries) / (time.perf_counter() - started)


if __name__ == "__main__":
    main()
