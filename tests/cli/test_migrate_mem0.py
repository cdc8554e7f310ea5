"""`memoryd import --from mem0`: a real mem0 OSS store (mem0ai 2.2.1, infer=False),
built and searched by mem0 itself in its own environment, read by the reader
and imported into a real memoryd server, which must rank the same memory first.

mem0 runs in .venv-peers/mem0 (`make peers`; its protobuf pin conflicts with
the server's), through bench/peers/mem0/mem0_peer.py, embedding with memoryd's
own MiniLM model; it ranks by dense similarity only (its keyword and entity
boosts need model downloads that are unreachable here).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from google.protobuf.json_format import MessageToDict
from migrate_support import (
    BOB,
    CASES,
    OWNERLESS_TEXT,
    Case,
    cli_import,
    import_source,
    run_peer,
    top_hit,
)
from qdrant_client import QdrantClient
from qdrant_client.models import (
    Distance,
    Modifier,
    PointStruct,
    SparseVector,
    SparseVectorParams,
    VectorParams,
)

from memoryd.cli.sources.base import SourceError
from memoryd.cli.sources.mem0 import open_mem0
from memoryd.embed.onnx_local import MODEL_ID, OnnxMiniLMEmbedder
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

COLLECTION = "team_memories"
RUN_ONLY = "run-42"
#: A mem0-only memory with what 10xgraph lacks: a run id, an expiration date
#: (mem0 shows it through 2098-12-31, UTC) and a category in its metadata.
TRAVEL = Case(
    "I will be travelling in Japan until the end of 2098",
    "Where is the user travelling?",
    user_id=BOB,
    metadata={"category": "travel"},
)
TRAVEL_RUN = "session-7"
TRAVEL_EXPIRY = "2098-12-31"
ALL = [*CASES, TRAVEL]


@dataclass(frozen=True)
class Store:
    path: Path
    ids: dict[str, str]  # text -> the id mem0 gave it
    payloads: dict[str, dict[str, Any]]  # id -> the payload mem0 stored
    mem0_top: dict[tuple[str, str], str]  # (query, owner) -> mem0's best match


def _owner(case: Case) -> str:
    return case.user_id or case.agent_id


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """mem0 adds every case (and a memory scoped only by a run id), then searches
    for each case's query in its owner's scope and reports its own ranking."""
    path = tmp_path_factory.mktemp("mem0") / "qdrant"
    request = {
        "path": str(path),
        "collection": COLLECTION,
        "memories": [
            {
                "text": c.text,
                "user_id": c.user_id,
                "agent_id": c.agent_id,
                "metadata": c.metadata,
            }
            for c in CASES
        ]
        + [
            {
                "text": TRAVEL.text,
                "user_id": BOB,
                "run_id": TRAVEL_RUN,
                "metadata": TRAVEL.metadata,
                "expiration_date": TRAVEL_EXPIRY,
            },
            {"text": OWNERLESS_TEXT, "run_id": RUN_ONLY},
        ],
        "queries": [{"query": c.query, "user_id": c.user_id, "agent_id": c.agent_id} for c in ALL],
    }
    report = run_peer("mem0", request)
    ids = {entry["text"]: entry["id"] for entry in report["added"]}
    mem0_top = {}
    for search in report["searches"]:
        assert search["results"], f"mem0 found nothing for {search['query']!r}"
        owner = search["user_id"] or search["agent_id"]
        mem0_top[(search["query"], owner)] = search["results"][0]["memory"]
    return Store(path, ids, _payloads(path), mem0_top)


def _payloads(path: Path) -> dict[str, dict[str, Any]]:
    client = QdrantClient(path=str(path))
    try:
        points, _ = client.scroll(COLLECTION, limit=100, with_payload=True)
    finally:
        client.close()
    return {str(p.id): dict(p.payload or {}) for p in points}


def test_mem0_ranks_each_memory_first_for_its_own_query(store: Store) -> None:
    """The baseline the migration must keep: mem0's own answers."""
    for case in ALL:
        assert store.mem0_top[(case.query, _owner(case))] == case.text


def test_reader_maps_every_owned_memory_with_the_vector_mem0_stored(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    source = open_mem0(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=MODEL_ID
    )
    assert source.total == len(ALL) + 1
    with caplog.at_level(logging.WARNING):
        records = {r.memory.id: r for r in source.records}

    assert set(records) == {store.ids[c.text] for c in ALL}
    assert _skip_warnings(caplog) == [  # the run-only memory has no owner in memoryd
        f"{source.description}: skipped 1 point(s) with neither user_id nor agent_id: "
        f"{store.ids[OWNERLESS_TEXT]}"
    ]
    model = OnnxMiniLMEmbedder()
    try:
        vectors = model.embed_sync([case.text for case in CASES])
    finally:
        asyncio.run(model.close())
    for case, vector in zip(CASES, vectors, strict=True):
        record = records[store.ids[case.text]]
        memory = record.memory
        payload = store.payloads[memory.id]
        assert memory.content == case.text
        assert memory.scope == pb.Scope(user_id=case.user_id, agent_id=case.agent_id)
        assert (memory.memory_type, memory.category) == (pb.MEMORY_TYPE_SEMANTIC, "general")
        assert memory.memory_key == case.metadata.get("memory_key", "")
        assert memory.version == 1
        assert memory.create_time.ToDatetime().isoformat() == _utc_naive(payload["created_at"])
        assert memory.update_time == memory.create_time
        assert not memory.HasField("expire_time")
        assert record.embedder_id == MODEL_ID
        np.testing.assert_allclose(record.vector, vector, atol=1e-6)
        expected = {k: v for k, v in case.metadata.items() if k != "memory_key"}
        expected = {k.replace(".", "_"): v for k, v in expected.items()}
        assert MessageToDict(memory.metadata) == {**expected, "role": "user"}

    travel = records[store.ids[TRAVEL.text]].memory
    assert travel.scope == pb.Scope(user_id=BOB, thread_id=TRAVEL_RUN)
    assert travel.category == "travel"
    assert travel.expire_time.ToJsonString() == "2099-01-01T00:00:00Z"
    assert MessageToDict(travel.metadata) == {"role": "user"}


def _skip_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "memoryd.cli.sources._qdrant"]


def _utc_naive(iso: str) -> str:
    return datetime.fromisoformat(iso).replace(tzinfo=None).isoformat()


def test_reader_sends_no_vectors_without_an_embedder(store: Store) -> None:
    source = open_mem0(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=""
    )
    records = list(source.records)
    assert len(records) == len(ALL)
    assert all(not r.vector and not r.embedder_id for r in records)


def test_a_missing_collection_is_named_with_the_ones_there_are(store: Store) -> None:
    with pytest.raises(SourceError, match=f"no collection 'mem0'.*{COLLECTION}"):
        open_mem0(path=store.path, url=None, api_key=None, collection="", vectors_embedder="")


def test_memoryd_import_with_the_same_embedder_keeps_every_vector_and_ranks_the_same(
    store: Store, fresh_server: Callable[[], ServerProcess]
) -> None:
    server = fresh_server()
    summary = cli_import(server.address, "mem0", store.path, COLLECTION)

    assert COLLECTION in summary["source"]
    assert (summary["received_count"], summary["created_count"]) == (len(ALL), len(ALL))
    assert summary["embedded_count"] == 0  # the model matches: every vector was kept
    with server.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        for case in ALL:
            found = top_hit(stub, case.query, case.scope, summary["write_token"])
            assert found == store.mem0_top[(case.query, _owner(case))]

    rerun = cli_import(server.address, "mem0", store.path, COLLECTION)
    assert (rerun["created_count"], rerun["updated_count"]) == (0, 0)
    assert rerun["unchanged_count"] == len(ALL)


def test_without_the_vectors_the_server_embeds_every_memory_and_ranks_the_same(
    store: Store, fresh_server: Callable[[], ServerProcess]
) -> None:
    source = open_mem0(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=""
    )
    with fresh_server().channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        response = import_source(stub, source)

        assert response.created_count == len(ALL)
        assert response.embedded_count == len(ALL)
        for case in ALL:
            found = top_hit(stub, case.query, case.scope, response.write_token)
            assert found == store.mem0_top[(case.query, _owner(case))]


def test_odd_payloads_and_a_bm25_slot_are_mapped(tmp_path: Path) -> None:
    """Payloads mem0's API writes in other setups (a sparse bm25 vector beside
    the dense one, when fastembed is installed) or a hand-fed collection holds."""
    path = tmp_path / "qdrant"
    client = QdrantClient(path=str(path))
    client.create_collection(
        "odd",
        vectors_config=VectorParams(size=2, distance=Distance.COSINE),
        sparse_vectors_config={"bm25": SparseVectorParams(modifier=Modifier.IDF)},
    )
    both = {"": [0.6, 0.8], "bm25": SparseVector(indices=[3], values=[1.0])}
    client.upsert(
        "odd",
        [
            PointStruct(
                id=1,
                vector=both,
                payload={"data": "x", "user_id": "u1", "memory_type": "weird"}
                | {"expiration_date": "soon"},
            ),
            PointStruct(
                id=2,
                vector=both,
                payload={"data": "x", "agent_id": "a1", "run_id": "r1"}
                | {"created_at": "2026-01-02T03:04:05-05:00"},
            ),
            PointStruct(id=3, vector=both, payload={"data": "x", "user_id": 42, "run_id": 5}),
        ],
    )
    client.close()
    source = open_mem0(path=path, url=None, api_key=None, collection="odd", vectors_embedder="e")
    records = {r.memory.id: r for r in source.records}

    assert all(list(r.vector) == pytest.approx([0.6, 0.8]) for r in records.values())
    weird = records["1"].memory
    assert weird.memory_type == pb.MEMORY_TYPE_CUSTOM and not weird.HasField("expire_time")
    assert MessageToDict(weird.metadata) == {"memory_type": "weird", "expiration_date": "soon"}
    shared = records["2"].memory
    assert shared.scope == pb.Scope(agent_id="a1", thread_id="r1")
    assert shared.create_time.ToJsonString() == "2026-01-02T08:04:05Z"
    assert shared.update_time == shared.create_time
    assert records["3"].memory.scope == pb.Scope(user_id="42", thread_id="5")
