"""10xgraph's own preload node on MemorydStore vs memoryd_client's streaming node (p50/p95).

Loads --memories memories (100 per user by default) into a scratch server, then
for each sample runs both nodes on the same state and config, in alternating
order, in one event loop, and times each node call end to end (what a graph
waits for before the model call). The server's embedding cache is off, so both
nodes embed the sample's new query. The streaming node is timed twice: on a new
query (a full Preload) and on a repeat of the previous request with no write
since (answered not_modified from its etag). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from corpus import fresh_queries, memories
from harness import ServerProcess, percentiles, spread, store
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import create_memory_preload_node as tenxgraph_node

from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc
from memoryd_client.tenxgraph import MemorydStore, create_memory_preload_node

Node = Callable[[AgentState, dict[str, Any]], Awaitable[list[Message]]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=1_000)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--limit", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        # Both nodes ask the same new text; without the embedding cache, each pays
        # for its embedding, whichever runs first.
        server = ServerProcess(Path(data_dir), env={"MEMORYD_EMBED_CACHE_SIZE": "0"}).start()
        try:
            run(server, args)
        finally:
            server.stop()


def state_asking(question: str) -> AgentState:
    state = AgentState()
    state.context = [Message.text_message("hello"), Message.text_message(question)]
    return state


async def timed_call(node: Node, state: AgentState, config: dict[str, Any]) -> tuple[float, str]:
    start = time.perf_counter()
    messages = await node(state, config)
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, messages[0].text() if messages else ""


async def measure(
    memoryd: MemorydStore, question: list[str], users: int, args: argparse.Namespace
) -> dict[str, list[float]]:
    done: list[svc.PreloadDone] = []
    preload = memoryd.aclient.preload

    async def recording(request: svc.PreloadRequest, **kwargs: Any) -> Any:
        async for event in preload(request, **kwargs):
            if isinstance(event, svc.PreloadDone):
                done.append(event)
            yield event

    memoryd.aclient.preload = recording  # type: ignore[method-assign]
    theirs = tenxgraph_node(memoryd, limit=args.limit)
    ours = create_memory_preload_node(memoryd, limit=args.limit)
    samples: dict[str, list[float]] = {"10xgraph": [], "streaming": [], "repeat": []}
    mismatches = 0
    for i in range(-20, args.samples):  # the first 20 warm up both paths
        sample = abs(i)
        state = state_asking(question[i + 20])  # the warm-up asks texts of its own
        config = {"user_id": f"user-{sample % users}", "thread_id": f"t{sample}"}
        order = [("10xgraph", theirs), ("streaming", ours)]
        if i % 2:
            order.reverse()
        texts = {}
        for name, node in order:
            elapsed, texts[name] = await timed_call(node, state, config)
            if i >= 0:
                samples[name].append(elapsed)
        elapsed, repeat_text = await timed_call(ours, state, config)
        if i >= 0:
            samples["repeat"].append(elapsed)
        mismatches += texts["10xgraph"] != texts["streaming"] or repeat_text != texts["streaming"]
    if mismatches:
        raise SystemExit(f"{mismatches} samples injected different messages")
    await memoryd.arelease()
    for part in ("embed", "search", "render"):
        samples[f"server {part}"] = [
            getattr(d, f"{part}_duration").ToTimedelta().total_seconds() * 1000 for d in done
        ]
    return samples


def run(server: ServerProcess, args: argparse.Namespace) -> None:
    texts = memories(args.memories)
    users = max(1, args.memories // args.per_user)
    with server.channel() as channel:
        store(memory_service_pb2_grpc.MemoryServiceStub(channel), spread(texts, users))
    question = fresh_queries(args.samples + 20)
    memoryd = MemorydStore(server.address)
    samples = asyncio.run(measure(memoryd, question, users, args))

    rows = [
        ("10xgraph `create_memory_preload_node` on MemorydStore", samples["10xgraph"]),
        ("memoryd_client streaming node, new query", samples["streaming"]),
        ("memoryd_client streaming node, repeat (not_modified)", samples["repeat"]),
    ]
    base_p50, base_p95 = percentiles(samples["10xgraph"])
    print(
        f"{args.memories} memories, {users} users, {args.samples} samples, "
        f"limit {args.limit}; identical messages in every sample\n"
    )
    print("| node | p50 ms | p95 ms | p50 vs 10xgraph |")
    print("|---|---:|---:|---:|")
    for name, values in rows:
        p50, p95 = percentiles(values)
        print(f"| {name} | {p50:.2f} | {p95:.2f} | {base_p50 / p50:.2f}x |")
    parts = ", ".join(
        "{} p50 {:.2f} ms".format(part, percentiles(samples[f"server {part}"])[0])
        for part in ("embed", "search", "render")
    )
    print(f"\nInside the full Preloads (from their done events): {parts}.")


if __name__ == "__main__":
    main()
