"""What a server-streaming call costs in grpc.aio against a unary one, with nothing else.

The floor under Preload's etag repeat (issue 14, goal 5): one not_modified event
on a stream, against the empty unary RPC the goal measures from. A bare
grpc.aio server in a child process answers three methods with the same
message: unary, a stream yielding it from an async generator (as memoryd's
Preload does), and a stream writing it with context.write. One client channel
(reading streams on the calling thread, as memoryd_client's does) calls them
call by call in turn, --calls each per round, and prints each p50 (milliseconds)
per round.

A fourth method is the floor under a cached search (goal 2): a unary call that
takes a SearchMemoriesRequest and answers a SearchMemoriesResponse of 5 hits
built beforehand (corpus texts, scope, metadata, timestamps), so what grpc.aio
itself adds for a search's messages shows apart from the server's own work.
A fifth streams that reply four times, as many messages as a Preload over a
user and an agent scope sends (two scopes' hits, the context block, done): the
floor under goal 5's whole stream against the unary search.

    python bench/grpc_stream_floor.py
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Callable

import grpc
from corpus import memories
from google.protobuf import struct_pb2, timestamp_pb2
from grpc.experimental import ChannelOptions
from grpc_health.v1 import health_pb2
from harness import alternating, percentiles, timed

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

Request = health_pb2.HealthCheckRequest
Reply = health_pb2.HealthCheckResponse
SERVICE = "bench.Floor"


async def _unary(request: Request, context: grpc.aio.ServicerContext) -> Reply:
    return Reply(status=Reply.SERVING)


async def _yielded(request: Request, context: grpc.aio.ServicerContext) -> AsyncIterator[Reply]:
    yield Reply(status=Reply.SERVING)


async def _written(request: Request, context: grpc.aio.ServicerContext) -> None:
    await context.write(Reply(status=Reply.SERVING))


def _five_hits() -> svc.SearchMemoriesResponse:
    """A reply the size and shape of memoryd's to a limit-5 user search."""
    now = timestamp_pb2.Timestamp(seconds=1_764_000_000, nanos=123_456_000)
    metadata = struct_pb2.Struct()
    metadata.update({"source": "chat", "turn": 12})
    return svc.SearchMemoriesResponse(
        results=[
            svc.SearchResult(
                memory=pb.Memory(
                    id=f"memories/0198f3c2-7d7e-7c1a-9b1e-00000000000{rank}",
                    content=text,
                    scope=pb.Scope(user_id="user-3", agent_id="assistant"),
                    category="preferences",
                    metadata=metadata,
                    create_time=now,
                    update_time=now,
                    version=1,
                ),
                score=0.8 - rank / 20,
            )
            for rank, text in enumerate(memories(5, seed=7))
        ]
    )


FIVE_HITS = _five_hits()
#: The messages of a Preload over a user and an agent scope.
PRELOAD_EVENTS = 4


async def _searched(
    request: svc.SearchMemoriesRequest, context: grpc.aio.ServicerContext
) -> svc.SearchMemoriesResponse:
    return FIVE_HITS


async def _searched_four_times(
    request: svc.SearchMemoriesRequest, context: grpc.aio.ServicerContext
) -> AsyncIterator[svc.SearchMemoriesResponse]:
    for _ in range(PRELOAD_EVENTS):
        yield FIVE_HITS


async def _serve() -> None:
    server = grpc.aio.server()
    decode, encode = Request.FromString, Reply.SerializeToString
    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(_unary, decode, encode),
        "Yielded": grpc.unary_stream_rpc_method_handler(_yielded, decode, encode),
        "Written": grpc.unary_stream_rpc_method_handler(_written, decode, encode),
        "Search": grpc.unary_unary_rpc_method_handler(
            _searched,
            svc.SearchMemoriesRequest.FromString,
            svc.SearchMemoriesResponse.SerializeToString,
        ),
        "SearchStream": grpc.unary_stream_rpc_method_handler(
            _searched_four_times,
            svc.SearchMemoriesRequest.FromString,
            svc.SearchMemoriesResponse.SerializeToString,
        ),
    }
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, handlers)])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


def main(args: argparse.Namespace) -> None:
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        # Streams read on the calling thread, as memoryd_client's channel reads them.
        channel = grpc.insecure_channel(
            f"127.0.0.1:{int(server.stdout.readline())}",
            options=[(ChannelOptions.SingleThreadedUnaryStream, 1)],
        )
        encode, decode = Request.SerializeToString, Reply.FromString
        unary = channel.unary_unary(f"/{SERVICE}/Unary", encode, decode)
        yielded = channel.unary_stream(f"/{SERVICE}/Yielded", encode, decode)
        written = channel.unary_stream(f"/{SERVICE}/Written", encode, decode)
        search = channel.unary_unary(
            f"/{SERVICE}/Search",
            svc.SearchMemoriesRequest.SerializeToString,
            svc.SearchMemoriesResponse.FromString,
        )
        search_stream = channel.unary_stream(
            f"/{SERVICE}/SearchStream",
            svc.SearchMemoriesRequest.SerializeToString,
            svc.SearchMemoriesResponse.FromString,
        )
        asked = svc.SearchMemoriesRequest(
            query="where does the user live", scope=pb.Scope(user_id="user-3"), limit=5
        )
        print(f"the search reply: {FIVE_HITS.ByteSize()} bytes\n")
        calls: dict[str, Callable[[int], object]] = {
            "unary": lambda i: unary(Request()),
            "stream, async generator": lambda i: list(yielded(Request())),
            "stream, context.write": lambda i: list(written(Request())),
            "unary, search request and 5-hit reply": lambda i: search(asked),
            f"stream of that reply x{PRELOAD_EVENTS}": lambda i: list(search_stream(asked)),
        }
        print(f"p50 ms of {args.calls} calls, per round\n")
        print("| call | " + " | ".join(f"round {r + 1}" for r in range(args.rounds)) + " |")
        print("|---|" + "---:|" * args.rounds)
        rows: dict[str, list[float]] = {name: [] for name in calls}
        for call in calls.values():
            timed(call, args.calls // 5)  # warm-up
        for _ in range(args.rounds):
            # Call by call in turn, so every kind meets the machine as it is then.
            samples = alternating(list(calls.values()), range(args.calls))
            for name, series in zip(calls, samples, strict=True):
                rows[name].append(percentiles(series)[0])
        for name, p50s in rows.items():
            print(f"| {name} | " + " | ".join(f"{p:.3f}" for p in p50s) + " |")
        channel.close()
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.serve:
        asyncio.run(_serve())
    else:
        main(parsed)
