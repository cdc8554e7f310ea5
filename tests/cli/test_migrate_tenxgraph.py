"""`memoryd import --from tenxgraph`: a real 10xgraph QdrantStore, written and
searched through 10xgraph's own API, read by the reader and imported into a
real memoryd server, which must rank the same memory first.

10xgraph runs in .venv-peers/tenxgraph (`make peers`), through
bench/peers/tenxgraph/tenxgraph_peer.py: its QdrantStore.asearch calls
qdrant-client's ``search``, removed in 1.16, so it runs beside qdrant-client
1.15 there (what 10xgraph users run), while the reader uses the server's 1.20
on the same directory. It embeds with memoryd's own MiniLM model.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from google.protobuf.json_format import MessageToDict
from migrate_support import (
    AGENT,
    CASES,
    OWNERLESS_TEXT,
    Case,
    cli_import,
    import_source,
    run_peer,
    top_hit,
)
from qdrant_client import QdrantClient
from qdrant_client.models import Distance, PointStruct, VectorParams

from memoryd.cli.sources.base import SourceError
from memoryd.cli.sources.tenxgraph import open_tenxgraph
from memoryd.embed.onnx_local import MODEL_ID, OnnxMiniLMEmbedder
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

COLLECTION = "team_memories"


@dataclass(frozen=True)
class Store:
    path: Path
    ids: dict[str, str]  # text -> the id QdrantStore gave it
    tenxgraph_top: dict[tuple[str, str], str]  # (query, user) -> 10xgraph's best match
    written_from: datetime
    written_until: datetime


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The cases written by QdrantStore.astore, as 10xgraph's memory tools write
    them (user memory with user_id; agent memory with the agent id in
    thread_id), one memory with no owner at all, and 10xgraph's own ranking for
    each user query. (QdrantStore.asearch cannot scope agent memory: without a
    user_id it searches every memory, so agent queries have no 10xgraph answer.)"""
    path = tmp_path_factory.mktemp("tenxgraph") / "qdrant"
    request = {
        "path": str(path),
        "collection": COLLECTION,
        "memories": [
            {
                "text": case.text,
                "config": {"user_id": case.user_id}
                if case.user_id
                else {"thread_id": case.agent_id},
                "memory_type": "semantic" if case.user_id else "procedural",
                "category": "preferences" if case.user_id else "runbook",
                "metadata": case.metadata,
            }
            for case in CASES
        ]
        + [{"text": OWNERLESS_TEXT, "config": {}}],
        "queries": [{"query": c.query, "user_id": c.user_id} for c in CASES if c.user_id],
    }
    report = run_peer("tenxgraph", request)
    tenxgraph_top = {}
    for search in report["searches"]:
        assert search["results"], f"10xgraph found nothing for {search['query']!r}"
        tenxgraph_top[(search["query"], search["user_id"])] = search["results"][0]["content"]
    return Store(
        path,
        {entry["text"]: entry["id"] for entry in report["added"]},
        tenxgraph_top,
        datetime.fromisoformat(report["written_from"]),
        datetime.fromisoformat(report["written_until"]),
    )


@pytest.fixture(scope="module")
def model() -> Iterator[OnnxMiniLMEmbedder]:
    model = OnnxMiniLMEmbedder()
    yield model
    asyncio.run(model.close())


def test_tenxgraph_ranks_each_memory_first_for_its_own_query(store: Store) -> None:
    """The baseline the migration must keep: 10xgraph's own answers."""
    for case in CASES:
        if case.user_id:
            assert store.tenxgraph_top[(case.query, case.user_id)] == case.text


def test_reader_maps_every_owned_memory_with_its_vector(
    store: Store, model: OnnxMiniLMEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    source = open_tenxgraph(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=MODEL_ID
    )
    assert source.total == len(CASES) + 1
    assert COLLECTION in source.description and str(store.path) in source.description
    with caplog.at_level(logging.WARNING):
        records = {r.memory.id: r for r in source.records}

    assert set(records) == {store.ids[c.text] for c in CASES}
    skip_warnings = [
        r.getMessage() for r in caplog.records if r.name == "memoryd.cli.sources._qdrant"
    ]
    assert skip_warnings == [  # the memory with no owner has none in memoryd either
        f"{source.description}: skipped 1 point(s) with no user_id, agent_id, app_id or "
        f"thread_id: {store.ids[OWNERLESS_TEXT]}"
    ]
    vectors = model.embed_sync([case.text for case in CASES])
    for case, vector in zip(CASES, vectors, strict=True):
        record = records[store.ids[case.text]]
        memory = record.memory
        assert memory.content == case.text
        if case.user_id:
            assert memory.scope == pb.Scope(user_id=case.user_id)
            assert (memory.memory_type, memory.category) == (
                pb.MEMORY_TYPE_SEMANTIC,
                "preferences",
            )
        else:
            assert memory.scope == pb.Scope(agent_id=AGENT)
            assert (memory.memory_type, memory.category) == (pb.MEMORY_TYPE_PROCEDURAL, "runbook")
        assert memory.memory_key == case.metadata.get("memory_key", "")
        assert memory.version == 1
        assert memory.create_time == memory.update_time
        # 10xgraph writes a naive local time; read in this machine's zone, it is
        # the moment astore ran
        written = memory.create_time.ToDatetime(tzinfo=UTC)
        assert store.written_from <= written <= store.written_until
        assert record.embedder_id == MODEL_ID
        np.testing.assert_allclose(record.vector, vector, atol=1e-6)

    timezone = records[store.ids[CASES[0].text]].memory
    assert MessageToDict(timezone.metadata) == {"source": "user_memory_tool", "confidence": 0.9}
    allergy = records[store.ids[CASES[1].text]].memory
    assert MessageToDict(allergy.metadata) == {
        "tags": ["health", "food"],
        "source_app": "onboarding",  # memoryd's keys have no dots
    }
    marathon = records[store.ids[CASES[5].text]].memory
    assert MessageToDict(marathon.metadata) == {"nested": {"level": 2, "ok": True}}


def test_reader_sends_no_vectors_without_an_embedder(store: Store) -> None:
    source = open_tenxgraph(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=""
    )
    records = list(source.records)
    assert len(records) == len(CASES)
    assert all(not r.vector and not r.embedder_id for r in records)


def test_a_missing_collection_is_named_with_the_ones_there_are(store: Store) -> None:
    with pytest.raises(SourceError, match=f"no collection 'memories'.*{COLLECTION}"):
        open_tenxgraph(
            path=store.path, url=None, api_key=None, collection="memories", vectors_embedder=""
        )


def test_a_directory_without_a_store_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="holds no local Qdrant store"):
        open_tenxgraph(path=tmp_path, url=None, api_key=None, collection="", vectors_embedder="")
    assert list(tmp_path.iterdir()) == []  # nothing was created there


def test_path_and_url_together_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="either --path"):
        open_tenxgraph(
            path=tmp_path, url="http://q:6333", api_key=None, collection="", vectors_embedder=""
        )


def _expected_top(store: Store, case: Case) -> str:
    """10xgraph's best match for a user query; for agent memory, which 10xgraph
    cannot search by itself, the memory the query was written for."""
    if case.user_id:
        return store.tenxgraph_top[(case.query, case.user_id)]
    return case.text


def test_memoryd_import_with_the_same_embedder_keeps_every_vector_and_ranks_the_same(
    store: Store, fresh_server: Callable[[], ServerProcess]
) -> None:
    server = fresh_server()
    summary = cli_import(server.address, "tenxgraph", store.path, COLLECTION)

    assert COLLECTION in summary["source"]
    assert (summary["received_count"], summary["created_count"]) == (len(CASES), len(CASES))
    assert summary["embedded_count"] == 0  # the model matches: every vector was kept
    with server.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        for case in CASES:
            found = top_hit(stub, case.query, case.scope, summary["write_token"])
            assert found == _expected_top(store, case)

    rerun = cli_import(server.address, "tenxgraph", store.path, COLLECTION)
    assert (rerun["created_count"], rerun["updated_count"]) == (0, 0)
    assert rerun["unchanged_count"] == len(CASES)


def test_without_the_vectors_the_server_embeds_every_memory_and_ranks_the_same(
    store: Store, fresh_server: Callable[[], ServerProcess]
) -> None:
    source = open_tenxgraph(
        path=store.path, url=None, api_key=None, collection=COLLECTION, vectors_embedder=""
    )
    with fresh_server().channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        response = import_source(stub, source)

        assert response.created_count == len(CASES)
        assert response.embedded_count == len(CASES)
        for case in CASES:
            found = top_hit(stub, case.query, case.scope, response.write_token)
            assert found == _expected_top(store, case)


def test_odd_payloads_are_kept_in_metadata_or_skipped_with_a_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Payloads 10xgraph's API would not write but a hand-fed collection may hold."""
    path = tmp_path / "qdrant"
    client = QdrantClient(path=str(path))
    client.create_collection("odd", vectors_config=VectorParams(size=2, distance=Distance.COSINE))
    base = {"content": "something", "user_id": "u1"}
    client.upsert(
        "odd",
        [
            PointStruct(id=7, vector=[1, 0], payload={**base, "memory_type": "dream"}),
            PointStruct(
                id=8, vector=[1, 0], payload={**base, "category": "c" * 200, "a.b": 1, "a_b": 2}
            ),
            PointStruct(id=9, vector=[1, 0], payload={**base, "timestamp": "2026-01-02T03:04:05"}),
            PointStruct(id=10, vector=[1, 0], payload={**base, "timestamp": "yesterday"}),
            PointStruct(id=11, vector=[1, 0], payload={**base, "user_id": "u" * 200}),
            PointStruct(id=12, vector=[1, 0], payload={**base, "content": "  "}),
        ],
    )
    client.close()
    before = datetime.now(UTC)
    source = open_tenxgraph(
        path=path, url=None, api_key=None, collection="odd", vectors_embedder=""
    )
    with caplog.at_level(logging.WARNING):
        memories = {r.memory.id: r.memory for r in source.records}
    after = datetime.now(UTC)

    assert set(memories) == {"7", "8", "9", "10"}
    assert memories["7"].memory_type == pb.MEMORY_TYPE_CUSTOM
    assert MessageToDict(memories["7"].metadata) == {"memory_type": "dream"}
    assert memories["8"].category == "general"
    assert MessageToDict(memories["8"].metadata) == {
        "category": "c" * 200,
        "a_b": 2,  # a valid key keeps its name
        "a_b_2": 1,  # "a.b", rewritten
    }
    naive = datetime(2026, 1, 2, 3, 4, 5).astimezone()  # read in this machine's zone
    assert memories["9"].create_time.ToDatetime(tzinfo=UTC) == naive
    assert before <= memories["10"].create_time.ToDatetime(tzinfo=UTC) <= after
    assert MessageToDict(memories["10"].metadata) == {"timestamp": "yesterday"}
    assert [r.getMessage() for r in caplog.records if r.name == "memoryd.cli.sources._qdrant"] == [
        f"{source.description}: skipped 1 point(s) with a user_id memoryd cannot take "
        "(1-128 printable characters): 11",
        f"{source.description}: skipped 1 point(s) with no content: 12",
    ]
