"""Preload over a user and an agent scope: first event, whole stream, and an etag repeat.

As bench/preload_latency.py sets it up: 20 agent memories beside the users'.
Each sample asks with a new query text; the repeat sends the answer's etag
back as ``if_none_match`` and gets the single not_modified event.
"""

from __future__ import annotations

import time
from typing import Any

from google.protobuf.duration_pb2 import Duration

from compare.memoryd_client_calls import SYNC
from compare.progress import say
from compare.stats import sample, summary
from compare.workload import Workload, cold_query
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient

AGENT = "bench-agent"
AGENT_MEMORIES = 20


def preload_samples(
    client: MemorydClient, workload: Workload, count: int, budget_s: float
) -> dict[str, Any]:
    say("memoryd", "preload")
    add_agent_memories(client, workload)
    first: list[float] = []
    etags: list[str] = []
    not_modified = 0

    def fresh(i: int) -> None:
        first_ms, etag = timed_preload(client, preload_request(workload, "preload", i))
        first.append(first_ms)
        etags.append(etag)

    def repeat(i: int) -> None:
        nonlocal not_modified
        request = preload_request(workload, "preload", i, etags[i])
        for event in client.preload(request):
            not_modified += isinstance(event, svc.PreloadNotModified)

    whole = sample(fresh, count, budget_s)
    repeats = sample(repeat, len(etags), budget_s)
    return {
        "first_event": summary(first),
        "whole_stream": summary(whole),
        "etag_repeat": summary(repeats),
        "etag_not_modified": not_modified,
    }


def add_agent_memories(client: MemorydClient, workload: Workload) -> None:
    """The agent scope every Preload here reads beside its user's."""
    for text in workload.fresh_texts("agent", AGENT_MEMORIES):
        memory = pb.Memory(content=text, scope=pb.Scope(agent_id=AGENT))
        client.create_memory(svc.CreateMemoryRequest(memory=memory, mode=SYNC))


def preload_request(workload: Workload, tag: str, i: int, etag: str = "") -> svc.PreloadRequest:
    """The i-th Preload of a series: a new query text (cold_query(tag, i)), the
    i-th user's scope and the agent's."""
    return svc.PreloadRequest(
        query=cold_query(tag, i),
        user_scope=pb.Scope(user_id=workload.user_of(i)),
        agent_scope=pb.Scope(agent_id=AGENT),
        if_none_match=etag,
        # As the unary search it is compared with: DENSE, recency off.
        retrieval_mode=svc.RETRIEVAL_MODE_DENSE,
        recency_half_life=Duration(),
    )


def timed_preload(client: MemorydClient, request: svc.PreloadRequest) -> tuple[float, str]:
    """Runs the stream to its end: (milliseconds to its first event, the etag it ends with)."""
    start = time.perf_counter()
    first_ms = 0.0
    etag = ""
    for n, event in enumerate(client.preload(request)):
        if n == 0:
            first_ms = (time.perf_counter() - start) * 1000
        if isinstance(event, svc.PreloadDone):
            etag = event.etag
    return first_ms, etag
