"""Write acknowledgement latency (ASYNC vs SYNC) and sustained write throughput.

Runs a real memoryd server on a scratch data directory. Latency: sequential
CreateMemory calls in each mode, against an empty RPC in the same run.
Throughput: concurrent ASYNC writers for a fixed count, timed until every
write is indexed (a read waits for the writers' own writes), once with single
creates and once with BatchCreateMemories of 100.

    python bench/writes.py
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import grpc
from corpus import memories
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import ServerProcess, percentiles, timed

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

ASYNC, SYNC = svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--writes", type=int, default=4000, help="writes per throughput run")
    parser.add_argument("--writers", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        server = ServerProcess(Path(data_dir)).start()
        try:
            with server.channel() as channel:
                latency(channel, args.samples)
                throughput(server.address, channel, args)
        finally:
            server.stop()


def latency(channel: grpc.Channel, samples: int) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    texts = iter(memories(2 * samples, seed=21))

    def create(mode: int) -> object:
        memory = pb.Memory(content=next(texts), scope=pb.Scope(user_id="latency"))
        return stub.CreateMemory(svc.CreateMemoryRequest(memory=memory, mode=mode))

    rows = {
        "empty RPC (health Check)": timed(
            lambda i: health.Check(health_pb2.HealthCheckRequest()), samples
        ),
        "CreateMemory ASYNC (acknowledged when journaled)": timed(lambda i: create(ASYNC), samples),
        "CreateMemory SYNC (acknowledged when indexed)": timed(lambda i: create(SYNC), samples),
    }
    baseline = percentiles(rows["empty RPC (health Check)"])[0]
    print(f"write acknowledgement, {samples} sequential calls each\n")
    print("| call | p50 ms | p95 ms | p50 / empty RPC |\n|---|---:|---:|---:|")
    for name, values in rows.items():
        p50, p95 = percentiles(values)
        print(f"| {name} | {p50:.2f} | {p95:.2f} | {p50 / baseline:.1f}x |")


def throughput(address: str, channel: grpc.Channel, args: argparse.Namespace) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    shape = f"{args.writers} writers, {args.writes} writes"
    print(f"\nsustained ASYNC writes, {shape}, timed until indexed\n")
    print("| how | acknowledged/s | indexed/s |\n|---|---:|---:|")
    for label, batch in (("CreateMemory", 1), ("BatchCreateMemories x100", 100)):
        texts = memories(args.writes, seed=100 + batch)
        users = [f"load-{batch}-{w}" for w in range(args.writers)]
        start = time.perf_counter()
        _run_writers(address, texts, users, batch)
        acknowledged = time.perf_counter() - start
        for user in users:  # each read waits until that writer's writes are indexed
            stub.ListMemories(
                svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), page_size=1), timeout=600
            )
        indexed = time.perf_counter() - start
        print(f"| {label} | {args.writes / acknowledged:.0f} | {args.writes / indexed:.0f} |")


def _run_writers(address: str, texts: list[str], users: list[str], batch: int) -> None:
    share = len(texts) // len(users)

    def write(worker: int) -> None:
        mine = texts[worker * share : (worker + 1) * share]
        scope = pb.Scope(user_id=users[worker])
        with grpc.insecure_channel(address) as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            for offset in range(0, len(mine), batch):
                requests = [
                    svc.CreateMemoryRequest(memory=pb.Memory(content=t, scope=scope))
                    for t in mine[offset : offset + batch]
                ]
                if batch == 1:
                    stub.CreateMemory(requests[0])
                else:
                    stub.BatchCreateMemories(svc.BatchCreateMemoriesRequest(requests=requests))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(len(users))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
