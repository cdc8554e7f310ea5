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


def preload_samples(
    client: MemorydClient, workload: Workload, count: int, budget_s: float
) -> dict[str, Any]:
    say("memoryd", "preload")
    for text in workload.fresh_texts("agent", 20):
        _create_agent_memory(client, text)
    first: list[float] = []
    etags: list[str] = []
    not_modified = 0

    def request(i: int, etag: str = "") -> svc.PreloadRequest:
        return svc.PreloadRequest(
            query=cold_query("preload", i),
            user_scope=pb.Scope(user_id=workload.user_of(i)),
            agent_scope=pb.Scope(agent_id=AGENT),
            if_none_match=etag,
            # As the unary search it is compared with: DENSE, recency off.
            retrieval_mode=svc.RETRIEVAL_MODE_DENSE,
            recency_half_life=Duration(),
        )

    def fresh(i: int) -> None:
        start = time.perf_counter()
        for n, event in enumerate(client.preload(request(i))):
            if n == 0:
                first.append((time.perf_counter() - start) * 1000)
            if isinstance(event, svc.PreloadDone):
                etags.append(event.etag)

    def repeat(i: int) -> None:
        nonlocal not_modified
        for event in client.preload(request(i, etags[i])):
            not_modified += isinstance(event, svc.PreloadNotModified)

    whole = sample(fresh, count, budget_s)
    repeats = sample(repeat, len(etags), budget_s)
    return {
        "first_event": summary(first),
        "whole_stream": summary(whole),
        "etag_repeat": summary(repeats),
        "etag_not_modified": not_modified,
    }


def _create_agent_memory(client: MemorydClient, text: str) -> None:
    memory = pb.Memory(content=text, scope=pb.Scope(agent_id=AGENT))
    client.create_memory(svc.CreateMemoryRequest(memory=memory, mode=SYNC))
