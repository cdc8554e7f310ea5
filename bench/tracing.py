"""Throughput with tracing off and on, side by side in one run.

Two memoryd servers on scratch data directories: one with telemetry off, one
exporting every span and metric over OTLP/gRPC (batch span processor) to an
in-process receiver. Each gets the same load: concurrent SearchMemories of a
repeated query (so the embedding cache leaves RPC, engine and telemetry
costs) and concurrent SYNC CreateMemory calls.

    python bench/tracing.py
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
from corpus import memories
from harness import ServerProcess, otlp_receiver

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc


def throughput(
    address: str, calls: int, workers: int, make: Callable[[int], object], rpc: str
) -> float:
    def work(worker: int) -> None:
        with grpc.insecure_channel(address) as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            method = getattr(stub, rpc)
            for i in range(worker, calls, workers):
                method(make(i))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return calls / (time.perf_counter() - start)


def measure(address: str, args: argparse.Namespace, seed: int) -> tuple[float, float]:
    texts = memories(args.creates, seed=seed)
    scope = pb.Scope(user_id="bench")

    def create(i: int) -> svc.CreateMemoryRequest:
        memory = pb.Memory(content=texts[i], scope=scope)
        return svc.CreateMemoryRequest(memory=memory, mode=svc.WRITE_MODE_SYNC)

    def search(i: int) -> svc.SearchMemoriesRequest:
        return svc.SearchMemoriesRequest(query="What does the user like?", scope=scope)

    creates = throughput(address, args.creates, args.workers, create, "CreateMemory")
    searches = throughput(address, args.searches, args.workers, search, "SearchMemories")
    return creates, searches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creates", type=int, default=600)
    parser.add_argument("--searches", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="alternating off/on rounds")
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
    with otlp_receiver() as (receiver, port), tempfile.TemporaryDirectory() as scratch:
        environments = {
            "off": {"MEMORYD_TELEMETRY": "off"},
            "on": {
                "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
                "OTEL_EXPORTER_OTLP_INSECURE": "true",
            },
        }
        for round_ in range(args.rounds):
            for label, env in environments.items():
                server = ServerProcess(Path(scratch) / f"{label}-{round_}", env=env).start()
                try:
                    results[label].append(
                        measure(server.address, args, seed=round_ * 10 + len(label))
                    )
                finally:
                    server.stop()
        exported = len(receiver.spans)
    rounds = f"best of {args.rounds} rounds each, servers alternating"
    print(f"{args.workers} concurrent clients, {rounds}\n")
    print(
        "| load | tracing off (calls/s) | tracing on (calls/s) | on / off |\n|---|---:|---:|---:|"
    )
    for index, name in ((0, "CreateMemory SYNC"), (1, "SearchMemories (cached query)")):
        off = max(r[index] for r in results["off"])
        on = max(r[index] for r in results["on"])
        print(f"| {name} | {off:.0f} | {on:.0f} | {on / off:.2f} |")
    print(f"\nspans received by the OTLP receiver: {exported}")


if __name__ == "__main__":
    main()
