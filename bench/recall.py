"""Recall of DENSE against HYBRID retrieval on a paraphrase recall set (bench/recall_set.py).

Runs a real server, stores the set, and reports recall@1, recall@5 and MRR
(over the top 10) per retrieval mode.
"""

from __future__ import annotations

import argparse

import grpc
from harness import on_scratch_server, store
from recall_set import recall_set

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

MODES = {"DENSE": svc.RETRIEVAL_MODE_DENSE, "HYBRID": svc.RETRIEVAL_MODE_HYBRID}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--targets", type=int, default=15, help="target memories per user")
    parser.add_argument("--distractors", type=int, default=15, help="distractors per user")
    args = parser.parse_args()
    on_scratch_server(run, args)


def run(channel: grpc.Channel, args: argparse.Namespace) -> None:
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    cases, stored = recall_set(args.users, args.targets, args.distractors)
    store(stub, stored)
    total = sum(len(t) for t in stored.values())
    print(f"{len(cases)} queries over {total} memories of {len(stored)} users\n")
    print("| mode | recall@1 | recall@5 | MRR@10 |")
    print("|---|---:|---:|---:|")
    for name, mode in MODES.items():
        ranks = []
        for case in cases:
            response = stub.SearchMemories(
                svc.SearchMemoriesRequest(
                    query=case.query,
                    scope=pb.Scope(user_id=case.user),
                    limit=10,
                    retrieval_mode=mode,
                )
            )
            found = [r.memory.content for r in response.results]
            ranks.append(found.index(case.memory) + 1 if case.memory in found else 0)
        n = len(ranks)
        at1 = sum(r == 1 for r in ranks) / n
        at5 = sum(1 <= r <= 5 for r in ranks) / n
        mrr = sum(1 / r for r in ranks if r) / n
        print(f"| {name} | {at1:.3f} | {at5:.3f} | {mrr:.3f} |")


if __name__ == "__main__":
    main()
