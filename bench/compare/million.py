"""memoryd at 1M memories, loaded through the import path, then restarted on that data.

ImportMemories with each memory's vector (compare/vectors.py: above 100k,
the 100k workload's model vectors tiled and perturbed), so the server stores
them without embedding again. Measures the import rate, cold search p50/p95, the
server's peak RSS, and start-up to SERVING (health Check) of a server
restarted on the same data directory. Prints one JSON object.

    python -m compare.million --size 1000000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import numpy as np
from grpc_health.v1 import health_pb2, health_pb2_grpc
from harness import ServerProcess

from compare.memoryd_client_calls import connect, search
from compare.progress import bar, say
from compare.stats import peak_rss_mb, rate, sample, summary
from compare.vectors import workload_vectors
from compare.workload import Workload, cold_query
from memoryd.embed.onnx_local import DIMENSION, MODEL_ID, OnnxMiniLMEmbedder
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

PEER = "memoryd-1M"
IMPORT_BATCH = 500
IMPORT_DEADLINE_S = 3600.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--budget", type=float, default=30.0)
    args = parser.parse_args()
    workload = Workload(args.size)
    model = OnnxMiniLMEmbedder()
    vectors = workload_vectors(workload, model, PEER)
    result: dict[str, Any] = {"peer": PEER, "size": args.size}
    with tempfile.TemporaryDirectory(prefix="bench-million-") as data_dir:
        server = ServerProcess(Path(data_dir)).start()
        try:
            client = connect(server.address)
            say(PEER, f"importing {args.size} memories with their vectors")
            start = time.perf_counter()
            answer = client.import_memories(
                bar(records(workload, vectors, model.model_id), PEER, "import", args.size),
                batch_size=IMPORT_BATCH,
                # The stream runs ahead of indexing, then waits for the rest to be
                # applied: without a deadline that wait is capped at the server's
                # read wait maximum (30 s), too short for a backlog of this size.
                timeout=IMPORT_DEADLINE_S,
            )
            result["import_per_s"] = rate(args.size, time.perf_counter() - start)
            # embedded_count 0: the server kept every vector it was sent.
            result["import_counts"] = {
                "created": answer.created_count,
                "embedded": answer.embedded_count,
            }
            say(PEER, "cold search")
            result["cold_search"] = cold_searches(client, workload, "cold", args)
            client.close()
            result["peak_rss_mb"] = peak_rss_mb(server.process.pid) if server.process else None
        finally:
            server.stop()
        say(PEER, "restart on the same data")
        start = time.perf_counter()
        server = ServerProcess(Path(data_dir)).start()
        try:
            wait_serving(server.address)
            result["startup_to_serving_s"] = time.perf_counter() - start
            client = connect(server.address)
            result["cold_search_after_restart"] = cold_searches(client, workload, "restart", args)
            client.close()
        finally:
            server.stop()
    json.dump(result, sys.stdout)


def records(
    workload: Workload, vectors: np.ndarray, embedder_id: str
) -> Iterator[svc.ExportedMemory]:
    for i, text in enumerate(workload.texts):
        memory = pb.Memory(
            id=str(uuid.UUID(int=i + 1)),
            content=text,
            scope=pb.Scope(user_id=workload.user_of(i)),
        )
        yield svc.ExportedMemory(memory=memory, vector=vectors[i].tolist(), embedder_id=embedder_id)


def import_random_vectors(client: Any, count: int, seed: int = 7) -> svc.ImportMemoriesResponse:
    """Imports the ``count`` workload's memories with seeded random unit vectors in
    place of the model's, for figures that do not depend on which vector a text has
    (start-up, the engine's log); answers once every record is applied."""
    vectors = np.random.default_rng(seed).standard_normal((count, DIMENSION), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    stream = records(Workload(count), vectors, MODEL_ID)
    answer: svc.ImportMemoriesResponse = client.import_memories(
        stream, batch_size=IMPORT_BATCH, timeout=IMPORT_DEADLINE_S
    )
    return answer


def cold_searches(client: Any, workload: Workload, tag: str, args: Any) -> dict[str, Any]:
    def one(i: int) -> None:
        search(client, workload.user_of(i), cold_query(tag, i))

    return summary(sample(one, args.samples, args.budget))


def wait_serving(address: str, timeout: float = 120.0) -> None:
    """Returns once the server's health Check answers SERVING."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                status = health.Check(health_pb2.HealthCheckRequest(), timeout=1.0).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.01)


if __name__ == "__main__":
    main()
