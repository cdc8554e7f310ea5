"""Where each millisecond of a hot-path RPC goes: the server under py-spy, one call kind at a time.

Starts ``memoryd serve``, loads --memories memories, warms up, then attaches
``py-spy record`` (only threads holding the GIL) while one client repeats one
kind of call --calls times, and prints the functions that hold the most samples: by self time
and by inclusive time, as a share of the samples taken while calls ran.

    python bench/profile_hot_path.py --call cached-search
    python bench/profile_hot_path.py --call create-async --calls 2000

Kinds: empty, cached-search, cold-search, create-async, create-sync, batch-create,
preload-etag (a Preload of a user and an agent scope repeated with the etag its
first run ended with: goal 5's not_modified answer).
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import grpc
from corpus import fresh_queries, memories
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import ServerProcess, spread, store

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

KINDS = (
    "empty",
    "cached-search",
    "cold-search",
    "create-async",
    "create-sync",
    "batch-create",
    "preload-etag",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--call", choices=KINDS, default="cached-search")
    parser.add_argument("--calls", type=int, default=1500)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--rate", type=int, default=400, help="py-spy samples per second")
    args = parser.parse_args()
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    with tempfile.TemporaryDirectory() as scratch:
        profile = Path(scratch) / "profile.txt"
        server = ServerProcess(Path(scratch) / "data").start()
        try:
            with server.channel() as channel:
                call = _prepare(channel, args)
                warm_up = min(200, args.calls)
                for i in range(warm_up):  # before the measured calls, with texts of its own
                    call(i)
                assert server.process is not None
                sampler = subprocess.Popen(
                    [
                        py_spy,
                        "record",
                        "--pid",
                        str(server.process.pid),
                        "--gil",
                        "--nonblocking",
                        "--format",
                        "raw",
                        "--rate",
                        str(args.rate),
                        "-o",
                        str(profile),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(1)  # py-spy attaches before the first measured call
                start = time.perf_counter()
                for i in range(warm_up, warm_up + args.calls):
                    call(i)
                elapsed = time.perf_counter() - start
                sampler.send_signal(signal.SIGINT)
                sampler.wait(60)
        finally:
            server.stop()
        print(f"{args.calls} x {args.call}: {1000 * elapsed / args.calls:.2f} ms per call\n")
        _report(profile.read_text(), args.top)


def _prepare(channel: grpc.Channel, args: argparse.Namespace) -> Callable[[int], object]:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    users = max(1, args.memories // 100)
    texts = memories(args.memories + 200 * args.calls + 400, seed=5)
    store(stub, spread(texts[: args.memories], users))
    fresh = iter(texts[args.memories :])
    asked = fresh_queries(args.calls + 200)

    def scope(i: int) -> pb.Scope:
        return pb.Scope(user_id=f"user-{i % users}")

    def create(i: int, mode: int) -> object:
        memory = pb.Memory(content=next(fresh), scope=scope(i))
        return stub.CreateMemory(svc.CreateMemoryRequest(memory=memory, mode=mode))

    def preload(etag: str = "") -> list[svc.PreloadResponse]:
        request = svc.PreloadRequest(
            query=asked[0],
            user_scope=scope(0),
            agent_scope=pb.Scope(agent_id="profile-agent"),
            if_none_match=etag,
        )
        return list(stub.Preload(request))

    calls: dict[str, Callable[[int], object]] = {
        "empty": lambda i: health.Check(health_pb2.HealthCheckRequest()),
        "cached-search": lambda i: stub.SearchMemories(
            svc.SearchMemoriesRequest(query=asked[0], scope=scope(i))
        ),
        "cold-search": lambda i: stub.SearchMemories(
            svc.SearchMemoriesRequest(query=asked[i], scope=scope(i))
        ),
        "create-async": lambda i: create(i, svc.WRITE_MODE_ASYNC),
        "create-sync": lambda i: create(i, svc.WRITE_MODE_SYNC),
        "batch-create": lambda i: stub.BatchCreateMemories(
            svc.BatchCreateMemoriesRequest(
                requests=[
                    svc.CreateMemoryRequest(memory=pb.Memory(content=next(fresh), scope=scope(i)))
                    for _ in range(100)
                ],
                mode=svc.WRITE_MODE_SYNC,
            )
        ),
    }
    if args.call == "preload-etag":
        etag = preload()[-1].done.etag
        if not preload(etag)[0].HasField("not_modified"):
            raise RuntimeError(f"a repeat with etag {etag} was searched again")
        calls["preload-etag"] = lambda i: preload(etag)
    return calls[args.call]


def _report(raw: str, top: int) -> None:
    self_counts: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or "MainThread" in stack.split(";")[0] and "select" in stack[-40:]:
            continue
        count = int(count_text)
        frames = stack.split(";")
        total += count
        self_counts[_short(frames[-1])] += count
        for frame in set(map(_short, frames)):
            inclusive[frame] += count
    print(f"{total} samples\n\nself time:")
    for frame, count in self_counts.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {frame}")
    print("\ninclusive time:")
    for frame, count in inclusive.most_common(top):
        print(f"  {100 * count / total:5.1f}%  {frame}")


def _short(frame: str) -> str:
    return re.sub(r"\s*\(/[^)]*/(site-packages|server|lib/python[\d.]+)/", " (", frame)


if __name__ == "__main__":
    main()
