"""Store and search latency through a real memoryd server, end to end over gRPC.

Loads --memories memories (100 per user by default) with BatchCreateMemories,
then times single CreateMemory and SearchMemories calls against an empty RPC
(grpc health Check) measured in the same run, since absolute figures on a
shared machine are noise and ratios are not.

    python bench/latency.py --memories 10000
"""

from __future__ import annotations

import argparse

import grpc
from corpus import fresh_queries, memories
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import on_scratch_server, percentiles, spread, store, timed

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()

    on_scratch_server(run, args)


def run(channel: grpc.Channel, args: argparse.Namespace) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    texts = memories(args.memories + args.samples)
    users = max(1, args.memories // args.per_user)

    load_seconds = store(stub, spread(texts[: args.memories], users))
    print(
        f"loaded {args.memories} memories for {users} users in {load_seconds:.1f} s "
        f"({args.memories / load_seconds:.0f} memories/s indexed through SYNC BatchCreateMemories)"
    )

    fresh = texts[args.memories :]
    question = fresh_queries(args.samples)
    rows = {
        "empty RPC (health Check)": timed(
            lambda i: health.Check(health_pb2.HealthCheckRequest()), args.samples
        ),
        "CreateMemory, ASYNC (new text)": timed(
            lambda i: stub.CreateMemory(
                svc.CreateMemoryRequest(
                    memory=pb.Memory(content=fresh[i], scope=pb.Scope(user_id=f"user-{i % users}"))
                )
            ),
            args.samples,
        ),
        "SearchMemories (limit 5)": timed(
            lambda i: stub.SearchMemories(
                svc.SearchMemoriesRequest(
                    query=question[i], scope=pb.Scope(user_id=f"user-{i % users}")
                )
            ),
            args.samples,
        ),
        "SearchMemories (repeated query, cached embedding)": timed(
            lambda i: stub.SearchMemories(
                svc.SearchMemoriesRequest(
                    query=question[0], scope=pb.Scope(user_id=f"user-{i % users}")
                )
            ),
            args.samples,
        ),
    }
    baseline = percentiles(rows["empty RPC (health Check)"])[0]
    shape = f"{args.memories} memories, {args.per_user} per user"
    print(f"\n{args.samples} sequential calls each, {shape}\n")
    print("| call | p50 ms | p95 ms | p50 / empty RPC |\n|---|---:|---:|---:|")
    for name, samples in rows.items():
        p50, p95 = percentiles(samples)
        print(f"| {name} | {p50:.2f} | {p95:.2f} | {p50 / baseline:.1f}x |")


if __name__ == "__main__":
    main()
