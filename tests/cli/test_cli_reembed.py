"""memoryd reembed: moving a live store to another embedder, following its progress,
and what the command says when the server refuses or the job fails.

The second embedder is Gemini, unreachable here: the server runs in this process
with the real GeminiEmbedder talking to a fake of its HTTP API
(support.hooks.FakeGeminiApi), through the test seam; the command itself runs as
the console script, over loopback.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from command_line import MEMORYD, SHOW_PROGRESS, memoryd
from seeding import seed_shared, seed_user

from memoryd.config import Settings
from memoryd.server import Seams
from memoryd_client import MemorydClient

from support import InProcessServer, ServerProcess
from support.hooks import FakeGeminiApi, PageGate

GEMINI_ID = "gemini:gemini-embedding-001:64"


class RefusingGeminiApi(httpx2.AsyncBaseTransport):
    """A Gemini API that refuses every request: the key is not valid."""

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        error = {"code": 400, "message": "API key not valid", "status": "INVALID_ARGUMENT"}
        return httpx2.Response(400, json={"error": error})


def _serve(
    tmp_path: Path, gemini: httpx2.AsyncBaseTransport, gate: PageGate | None = None
) -> InProcessServer:
    """An in-process server on the local model, with Gemini behind ``gemini`` as the
    second embedder, holding four memories of user ann and two shared ones."""
    settings = Settings(
        data_dir=tmp_path / "data",
        port=0,
        gemini_api_key="fake-key-for-the-fake-api",
        gemini_dimension=64,
        reembed_page_size=3,
    )
    server = InProcessServer(
        settings, seams=Seams(gemini_transport=gemini, reembed_after_page=gate)
    )
    server.start()
    with MemorydClient(server.address) as client:
        seed_user(client, "ann")
        seed_shared(client, "bot", "shop")
    return server


@pytest.fixture
def gemini_server(tmp_path: Path) -> Iterator[InProcessServer]:
    server = _serve(tmp_path, FakeGeminiApi())
    yield server
    server.stop()


def test_reembed_follows_the_job_until_the_server_switches(gemini_server: InProcessServer) -> None:
    address = gemini_server.address
    run = memoryd("reembed", "--to", "gemini", "--json", "--address", address)

    assert run.code == 0, run.err
    status = json.loads(run.out)
    assert status["state"] == "REEMBED_STATE_SWITCHED"
    assert status["to_embedder_id"] == GEMINI_ID
    assert status["done_count"] == status["total_count"] == 6
    assert status["start_time"] and status["end_time"]
    stats = json.loads(memoryd("stats", "--json", "--address", address).out)
    assert (stats["embedder_id"], stats["dimension"]) == (GEMINI_ID, 64)
    assert stats["reembed"]["state"] == "REEMBED_STATE_SWITCHED"


def test_an_export_after_the_switch_names_the_new_embedder(gemini_server: InProcessServer) -> None:
    address = gemini_server.address
    assert memoryd("reembed", "--to", "gemini", "--address", address).code == 0
    exported = memoryd("export", "--user", "ann", "--address", address)
    assert exported.code == 0, exported.err
    records = [json.loads(line) for line in exported.out.splitlines()]
    assert {(r["embedderId"], len(r["vector"])) for r in records} == {(GEMINI_ID, 64)}


def test_no_wait_returns_while_running_and_a_second_run_follows_it(tmp_path: Path) -> None:
    gate = PageGate(hold_at=1)
    server = _serve(tmp_path, FakeGeminiApi(), gate)
    try:
        started = memoryd("reembed", "--to", "gemini", "--no-wait", "--address", server.address)
        assert started.code == 0, started.err
        assert "-> gemini" in started.err and "running" in started.err
        assert gate.reached.wait(60)

        follow = subprocess.Popen(
            [str(MEMORYD), "reembed", "--to", "gemini", "--address", server.address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**_environment(), **SHOW_PROGRESS},
        )
        assert follow.stderr is not None
        bar = ""
        while f"re-embedding to {GEMINI_ID}" not in bar:  # it follows the held job
            bar = follow.stderr.readline()
            assert bar, "the command ended before it showed its progress bar"
        gate.release()
        out, err = follow.communicate(timeout=120)
        assert follow.returncode == 0, err
        assert "memories/s" in bar and "eta" in bar  # a count, a rate and an ETA
        assert err.rstrip().endswith("6 of 6 re-embedded, switched"), err
        assert out == ""
    finally:
        server.stop()


def test_a_failed_job_exits_1_with_its_error(tmp_path: Path) -> None:
    server = _serve(tmp_path, RefusingGeminiApi())
    try:
        run = memoryd("reembed", "--to", "gemini", "--address", server.address)
        assert run.code == 1
        assert run.err.startswith("memoryd reembed: failed: "), run.err
        assert len(run.err.strip().splitlines()) == 1
        json_run = memoryd("reembed", "--to", "gemini", "--json", "--address", server.address)
        assert json_run.code == 1
        assert json.loads(json_run.out)["state"] == "REEMBED_STATE_FAILED"
    finally:
        server.stop()


def _environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("MEMORYD_")}


def test_reembedding_to_the_embedder_in_use_is_invalid(server: ServerProcess) -> None:
    run = memoryd("reembed", "--to", "local", "--address", server.address)
    assert run.code == 1
    assert run.err.startswith("memoryd reembed: INVALID_ARGUMENT (INVALID_ARGUMENT): "), run.err
    assert len(run.err.strip().splitlines()) == 1


def test_reembedding_to_an_unknown_embedder_is_invalid(server: ServerProcess) -> None:
    run = memoryd("reembed", "--to", "word2vec", "--no-wait", "--json", "--address", server.address)
    assert run.code == 1
    assert run.err.startswith("memoryd reembed: INVALID_ARGUMENT (INVALID_ARGUMENT): "), run.err
    assert run.out == ""
