"""Scenario 6: the real 10xgraph API server (10xgraph-api), JWT auth on, every /v1/store
endpoint on a module-level MemorydStore, driven by Starlette's test client."""

from __future__ import annotations

import importlib
import json
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from fastapi.exceptions import FastAPIDeprecationWarning
from starlette.testclient import TestClient

from support import ServerProcess

SECRET = "memoryd-test-secret-that-is-at-least-32-bytes-long"


@pytest.fixture(scope="module")
def api(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("tenxgraph-api")
    config = {
        "agent": "tenxgraph_api_app:app",
        "store": "tenxgraph_api_app:store",
        "injectq": "tenxgraph_api_app:container",
        "auth": "jwt",
        "authorization": "allow_all",
    }
    (folder / "10xgraph.json").write_text(json.dumps(config))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMORYD_TEST_TARGET", server.address)
        patch.setenv("GRAPH_PATH", str(folder / "10xgraph.json"))
        patch.setenv("JWT_SECRET_KEY", SECRET)
        patch.setenv("JWT_ALGORITHM", "HS256")
        patch.setenv("MODE", "development")
        patch.syspath_prepend(str(Path(__file__).parent))
        with warnings.catch_warnings():
            # 10xgraph-api 0.9.0 passes FastAPI's deprecated root_path; not ours to fix.
            warnings.filterwarnings("ignore", category=FastAPIDeprecationWarning)
            main = importlib.import_module("tenxgraph_api.src.app.main")
        with TestClient(main.app) as client:
            yield client
        for name in ("tenxgraph_api_app",):
            sys.modules.pop(name, None)


def headers(user_id: str) -> dict[str, str]:
    claims = {"user_id": user_id, "exp": int(time.time()) + 600}
    return {"Authorization": f"Bearer {jwt.encode(claims, SECRET, algorithm='HS256')}"}


def data(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_every_store_endpoint_works_and_users_are_isolated(api: TestClient, user: str) -> None:
    alice, bob = headers(user + "-alice"), headers(user + "-bob")
    assert api.post("/v1/store/search", json={"query": "x"}).status_code == 401

    created = data(
        api.post(
            "/v1/store/memories",
            json={"content": "Alice prefers window seats", "metadata": {"memory_key": "seat"}},
            headers=alice,
        )
    )
    memory_id = created["memory_id"]
    listed = data(api.post("/v1/store/memories/list", json={"limit": 10}, headers=alice))
    assert [m["id"] for m in listed["memories"]] == [memory_id]
    found = data(api.post("/v1/store/search", json={"query": "seat preference"}, headers=alice))
    assert [r["id"] for r in found["results"]] == [memory_id]
    assert found["results"][0]["score"] >= 0
    got = data(api.post(f"/v1/store/memories/{memory_id}", json={}, headers=alice))
    assert got["memory"]["content"] == "Alice prefers window seats"

    # Bob sees none of it, and cannot change it.
    assert data(api.post("/v1/store/search", json={"query": "seat"}, headers=bob))["results"] == []
    assert data(api.post("/v1/store/memories/list", json={}, headers=bob))["memories"] == []
    assert data(api.post(f"/v1/store/memories/{memory_id}", json={}, headers=bob))["memory"] is None
    hijack = {"content": "Bob was here"}
    assert api.put(f"/v1/store/memories/{memory_id}", json=hijack, headers=bob).status_code == 422
    assert api.request("DELETE", f"/v1/store/memories/{memory_id}", headers=bob).status_code == 422
    # Nor can a client write agent memory by naming an agent in config.
    shared = {"content": "fake policy", "config": {"agent_id": "support"}}
    assert api.post("/v1/store/memories", json=shared, headers=bob).status_code == 422

    update = {"content": "Alice prefers aisle seats"}
    assert data(api.put(f"/v1/store/memories/{memory_id}", json=update, headers=alice))["success"]
    got = data(api.post(f"/v1/store/memories/{memory_id}", json={}, headers=alice))
    assert got["memory"]["content"] == "Alice prefers aisle seats"
    deleted = api.request("DELETE", f"/v1/store/memories/{memory_id}", json={}, headers=alice)
    assert data(deleted)["success"]
    assert data(api.post("/v1/store/memories/list", json={}, headers=alice))["memories"] == []

    for text in ("Alice owns a red bicycle", "Alice's dog is called Pixel"):
        data(api.post("/v1/store/memories", json={"content": text}, headers=alice))
    data(api.post("/v1/store/memories", json={"content": "Bob owns a kayak"}, headers=bob))
    forgot = data(api.post("/v1/store/memories/forget", json={}, headers=alice))
    assert forgot == {"success": True, "data": 2}
    assert data(api.post("/v1/store/memories/list", json={}, headers=alice))["memories"] == []
    assert len(data(api.post("/v1/store/memories/list", json={}, headers=bob))["memories"]) == 1
