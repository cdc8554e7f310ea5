"""What both migration tests share: the memories they store in a peer, and
importing a source into a real memoryd server and searching it there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import batched
from pathlib import Path
from typing import Any

from memoryd.cli.sources.base import Source
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

REPO = Path(__file__).resolve().parents[2]
ALICE = "alice"
BOB = "bob"
AGENT = "support-bot"


@dataclass(frozen=True)
class Case:
    """One memory a peer stores, and a query written to find it (within its owner)."""

    text: str
    query: str
    user_id: str = ""
    agent_id: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def scope(self) -> pb.Scope:
        return pb.Scope(user_id=self.user_id, agent_id=self.agent_id)


#: Two users on overlapping topics (both have a timezone, asked the same way),
#: so a search that ignored the owner would find the other user's memory.
CASES = [
    Case(
        "I live in Lisbon, so my timezone is UTC+0",
        "Which timezone is the user in?",
        user_id=ALICE,
        metadata={"memory_key": "timezone", "source": "user_memory_tool", "confidence": 0.9},
    ),
    Case(
        "I am allergic to peanuts",
        "Does the user have any food allergies?",
        user_id=ALICE,
        metadata={"tags": ["health", "food"], "source.app": "onboarding"},
    ),
    Case(
        "My favourite programming language is Rust",
        "What language does the user like to code in?",
        user_id=ALICE,
    ),
    Case(
        "My timezone is Pacific Time, UTC-8",
        "Which timezone is the user in?",
        user_id=BOB,
        metadata={"memory_key": "timezone"},
    ),
    Case("I have two cats named Miso and Tofu", "What pets does the user have?", user_id=BOB),
    Case(
        "I am training for a marathon in April",
        "What sport is the user preparing for?",
        user_id=BOB,
        metadata={"nested": {"level": 2, "ok": True}},
    ),
    Case(
        "Escalate billing disputes to the finance team",
        "Who handles billing problems?",
        agent_id=AGENT,
    ),
]
#: A memory with no user and no agent: no owner in memoryd, so it is skipped.
OWNERLESS_TEXT = "A scratch note that belongs to nobody"


def run_peer(peer: str, request: dict[str, Any]) -> dict[str, Any]:
    """Runs bench/peers/<peer>/<peer>_peer.py under the peer's own virtualenv
    (.venv-peers/<peer>, built by `make peers`) and returns its JSON report."""
    python = REPO / ".venv-peers" / peer / "bin" / "python"
    if not python.exists():
        raise AssertionError(f"the {peer} peer environment is missing: run `make peers`")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    done = subprocess.run(
        [str(python), str(REPO / "bench" / "peers" / peer / f"{peer}_peer.py")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def import_source(
    stub: memory_service_pb2_grpc.MemoryServiceStub, source: Source, batch_size: int = 3
) -> svc.ImportMemoriesResponse:
    """Streams the source's records to ImportMemories, a few per message (so
    several messages are sent), as `memoryd import` does."""

    def requests(records: Iterable[svc.ExportedMemory]) -> Iterator[svc.ImportMemoriesRequest]:
        for batch in batched(records, batch_size):
            yield svc.ImportMemoriesRequest(memories=batch)

    try:
        response: svc.ImportMemoriesResponse = stub.ImportMemories(
            requests(source.records), timeout=120
        )
    finally:
        # the reader holds the local store's lock until its scroll ends or is closed
        close = getattr(source.records, "close", None)
        if close is not None:
            close()
    return response


def cli_import(address: str, peer: str, path: Path, collection: str) -> dict[str, Any]:
    """`memoryd import --from <peer> --path ... --same-embedder --json`, as an
    operator runs it (the console script, in a subprocess); its JSON summary."""
    memoryd = Path(sys.executable).with_name("memoryd")
    done = subprocess.run(
        [str(memoryd), "import", "--from", peer, "--path", str(path)]
        + ["--collection", collection, "--same-embedder", "--address", address, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def top_hit(
    stub: memory_service_pb2_grpc.MemoryServiceStub, query: str, scope: pb.Scope, token: str
) -> str:
    """The content of memoryd's best match for the query in the scope."""
    response = stub.SearchMemories(
        svc.SearchMemoriesRequest(query=query, scope=scope, limit=3, consistency_token=token),
        timeout=30,
    )
    assert response.results, f"memoryd found nothing for {query!r} in {scope}"
    content: str = response.results[0].memory.content
    return content
