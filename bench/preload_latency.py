"""Preload time to first event against a unary SearchMemories of the same query (p50/p95).

Runs a real server with --memories memories (100 per user by default), then
for each sample user asks the same query both ways: SearchMemories until its
response, and Preload (user scope plus an agent scope) until its first event
and until its done event.
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable

import grpc
from corpus import fresh_queries, memories
from harness import on_scratch_server, percentiles, spread, store

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
    texts = memories(args.memories)
    users = max(1, args.memories // args.per_user)
    store(stub, spread(texts, users))
    for i in range(20):
        stub.CreateMemory(
            svc.CreateMemoryRequest(
                memory=pb.Memory(content=texts[i], scope=pb.Scope(agent_id="bench-agent")),
                mode=svc.WRITE_MODE_SYNC,
            )
        )
    question = fresh_queries(args.samples)

    def search(i: int) -> None:
        stub.SearchMemories(
            svc.SearchMemoriesRequest(
                query=question[i], scope=pb.Scope(user_id=f"user-{i % users}")
            )
        )

    def preload_request(i: int) -> svc.PreloadRequest:
        return svc.PreloadRequest(
            query=question[i],
            user_scope=pb.Scope(user_id=f"user-{i % users}"),
            agent_scope=pb.Scope(agent_id="bench-agent"),
        )

    first: list[float] = []
    whole: list[float] = []
    unary: list[float] = []
    for i in range(args.samples):
        # The second call of a pair finds the query's embedding cached, so
        # which call goes first alternates.
        if i % 2 == 0:
            unary.append(timed(functools.partial(search, i)))
        start = time.perf_counter()
        stream = stub.Preload(preload_request(i))
        next(stream)
        first.append((time.perf_counter() - start) * 1000)
        for _ in stream:
            pass
        whole.append((time.perf_counter() - start) * 1000)
        if i % 2 == 1:
            unary.append(timed(functools.partial(search, i)))
    print(f"{args.memories} memories, {users} users, {args.samples} samples, loopback gRPC\n")
    print("| call | p50 ms | p95 ms |")
    print("|---|---:|---:|")
    for name, samples in (
        ("SearchMemories (unary, user scope, limit 5)", unary),
        ("Preload: first event (user + agent scopes)", first),
        ("Preload: whole stream to done", whole),
    ):
        p50, p95 = percentiles(samples)
        print(f"| {name} | {p50:.2f} | {p95:.2f} |")


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


if __name__ == "__main__":
    main()
