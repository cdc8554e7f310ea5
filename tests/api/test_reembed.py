"""Re-embedding a live store (StartReembed, GetReembedStatus) over real gRPC.

The server starts on the real local model; the second embedder is Gemini,
whose API is unreachable here, so the real GeminiEmbedder talks to a fake of
its HTTP API (support.hooks.FakeGeminiApi, a hashed bag of words in 64
dimensions) through a test seam. The way back to "local" runs the real model.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from memoryd.config import Settings
from memoryd.core.errors import IncompatibleIndex
from memoryd.server import Seams
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, expect_error, field_violations, list_all, rich_status, search, unpack
from support import InProcessServer, ServerProcess
from support.hooks import FakeGeminiApi, PageGate
from support.process import TESTS_DIR

LOCAL_ID = "all-MiniLM-L6-v2-onnx-int8"
GEMINI_ID = "gemini:gemini-embedding-001:64"
USER = "reembed-user"
FACTS = [
    "I am in the UTC-5 timezone",
    "My favourite breakfast is toast with orange marmalade",
    "I am allergic to peanuts",
    "The deploy script lives in the ops repository",
    "My daughter plays the violin on Saturdays",
    "I prefer answers in French",
    "The VPN password rotates every month",
]


def settings_for(data_dir: Path, page_size: int = 3) -> Settings:
    return Settings(
        data_dir=data_dir,
        port=0,
        gemini_api_key="fake-key-for-the-fake-api",
        gemini_dimension=64,
        reembed_page_size=page_size,
    )


@pytest.fixture
def fake_gemini() -> FakeGeminiApi:
    return FakeGeminiApi()


def serve(settings: Settings, gemini: FakeGeminiApi, gate: PageGate | None) -> InProcessServer:
    seams = Seams(gemini_transport=gemini, reembed_after_page=gate)
    return InProcessServer(settings, seams=seams).start()


memoryd_stub = memory_service_pb2_grpc.MemoryServiceStub


def connect(server: InProcessServer) -> memoryd_stub:
    return memory_service_pb2_grpc.MemoryServiceStub(server.channel())


def wait_until_done(stub: memoryd_stub, timeout: float = 120.0) -> svc.ReembedStatus:
    """Polls GetReembedStatus until the job leaves RUNNING (the job runs on the
    server's own schedule; there is nothing else to wait on from a client)."""
    deadline = time.monotonic() + timeout
    while True:
        status = stub.GetReembedStatus(svc.GetReembedStatusRequest()).status
        if status.state != svc.REEMBED_STATE_RUNNING:
            return status
        assert time.monotonic() < deadline, f"re-embedding still running: {status}"
        time.sleep(0.05)


def contents(stub: memoryd_stub, user: str = USER) -> list[str]:
    return sorted(m.content for m in list_all(stub, pb.Scope(user_id=user)))


def shard_dirs(data_dir: Path) -> list[str]:
    return sorted(p.name for p in data_dir.glob("shard*") if p.is_dir())


def test_reembeds_while_serving_then_switches_and_back(
    tmp_path: Path, fake_gemini: FakeGeminiApi
) -> None:
    gate = PageGate(hold_at=1)
    server = serve(settings_for(tmp_path), fake_gemini, gate)
    try:
        stub = connect(server)
        ids = {fact: create(stub, fact, user=USER).memory for fact in FACTS}

        started = stub.StartReembed(svc.StartReembedRequest(embedder="gemini")).status
        assert started.state == svc.REEMBED_STATE_RUNNING
        assert (started.from_embedder_id, started.to_embedder_id) == (LOCAL_ID, GEMINI_ID)
        assert gate.reached.wait(60)

        # The job holds after its first page: the server serves meanwhile, on the old model.
        running = stub.GetReembedStatus(svc.GetReembedStatusRequest()).status
        assert running.state == svc.REEMBED_STATE_RUNNING
        assert running.done_count == 3 and running.total_count == len(FACTS)
        assert stub.GetStats(svc.GetStatsRequest()).embedder_id == LOCAL_ID
        hits = search(stub, "What timezone is the user in?", user=USER)
        assert hits[0].memory.content == FACTS[0]
        again = stub.StartReembed(svc.StartReembedRequest(embedder="gemini")).status
        assert again.to_embedder_id == GEMINI_ID and again.start_time == started.start_time
        error = expect_error(
            grpc.StatusCode.FAILED_PRECONDITION,
            stub.StartReembed,
            svc.StartReembedRequest(embedder="gemini:text-embedding-004"),
        )
        assert _reason(error) == "REEMBED_IN_PROGRESS"

        # Writes while it runs: a create, an update of content, a delete.
        create(stub, "The spare key is under the blue flowerpot", user=USER)
        violin = ids[FACTS[4]]
        stub.UpdateMemory(
            svc.UpdateMemoryRequest(
                memory=pb.Memory(id=violin.id, scope=violin.scope, content="My son plays cello"),
                update_mask={"paths": ["content"]},
                mode=svc.WRITE_MODE_SYNC,
            )
        )
        vpn = ids[FACTS[6]]
        stub.DeleteMemory(
            svc.DeleteMemoryRequest(id=vpn.id, scope=vpn.scope, mode=svc.WRITE_MODE_SYNC)
        )
        gate.release()

        switched = wait_until_done(stub)
        assert switched.state == svc.REEMBED_STATE_SWITCHED, switched.error
        expected = sorted(
            [
                *FACTS[:4],
                FACTS[5],
                "My son plays cello",
                "The spare key is under the blue flowerpot",
            ]
        )
        assert contents(stub) == expected
        assert switched.done_count == switched.total_count == len(expected)
        stats = stub.GetStats(svc.GetStatsRequest())
        assert (stats.embedder_id, stats.dimension) == (GEMINI_ID, 64)
        assert stats.user_memory_count == len(expected)
        assert stats.reembed.state == svc.REEMBED_STATE_SWITCHED
        # Searches now embed with Gemini (the fake: shared words are near).
        embedded_before = fake_gemini.texts
        assert search(stub, "orange marmalade", user=USER)[0].memory.content == FACTS[1]
        assert search(stub, "cello", user=USER)[0].memory.content == "My son plays cello"
        assert fake_gemini.texts > embedded_before
        # A write after the switch is embedded by Gemini and found.
        create(stub, "The wifi router is in the attic", user=USER)
        assert search(stub, "wifi router", user=USER)[0].memory.content.startswith("The wifi")
        # The old shard is gone; the manifest names the new one.
        (active,) = shard_dirs(tmp_path)
        assert json.loads((tmp_path / "index.json").read_text())["shard"] == active != "shard"

        # Back to the real model: searches by meaning work again.
        back = stub.StartReembed(svc.StartReembedRequest(embedder="local")).status
        assert back.from_embedder_id == GEMINI_ID and back.to_embedder_id == LOCAL_ID
        gate.release()
        assert wait_until_done(stub).state == svc.REEMBED_STATE_SWITCHED
        stats = stub.GetStats(svc.GetStatsRequest())
        assert (stats.embedder_id, stats.dimension) == (LOCAL_ID, 384)
        for query, meant in (
            ("What time zone is the user in?", FACTS[0]),
            ("Does the user have a nut allergy?", FACTS[2]),
            ("Which musical instrument does the child learn?", "My son plays cello"),
            ("What language should replies use?", FACTS[5]),
        ):
            assert search(stub, query, user=USER)[0].memory.content == meant
        assert len(contents(stub)) == len(expected) + 1
        assert len(shard_dirs(tmp_path)) == 1
    finally:
        gate.release()
        server.stop()


def test_restart_mid_job_resumes_where_it_stopped(
    tmp_path: Path, fake_gemini: FakeGeminiApi
) -> None:
    settings = settings_for(tmp_path, page_size=2)
    first_gate = PageGate(hold_at=1)
    first = serve(settings, fake_gemini, first_gate)
    try:
        stub = connect(first)
        for fact in FACTS:
            create(stub, fact, user=USER)
        stub.StartReembed(svc.StartReembedRequest(embedder="gemini"))
        assert first_gate.reached.wait(60)
    finally:
        first.stop()  # the job stops after its first page; its progress is saved
        first_gate.release()
    saved = json.loads((tmp_path / "reembed.json").read_text())
    assert (saved["state"], saved["done"]) == ("running", 2)

    second_gate = PageGate(hold_at=1)
    second = serve(settings, fake_gemini, second_gate)
    try:
        stub = connect(second)
        assert second_gate.reached.wait(60)
        # It resumed at the second page: 2 saved before the restart, 2 now.
        assert second_gate.statuses[0].done == 4
        create(stub, "The spare key is under the blue flowerpot", user=USER)
        second_gate.release()
        switched = wait_until_done(stub)
        assert switched.state == svc.REEMBED_STATE_SWITCHED, switched.error
        memories = list_all(stub, pb.Scope(user_id=USER))
        assert len({m.id for m in memories}) == len(memories) == len(FACTS) + 1
        assert stub.GetStats(svc.GetStatsRequest()).embedder_id == GEMINI_ID
        hit = search(stub, "blue flowerpot", user=USER)[0]
        assert hit.memory.content == "The spare key is under the blue flowerpot"
    finally:
        second_gate.release()
        second.stop()


def test_unknown_or_current_embedder_is_invalid(tmp_path: Path, fake_gemini: FakeGeminiApi) -> None:
    server = serve(settings_for(tmp_path), fake_gemini, None)
    try:
        stub = connect(server)
        for target in ("openai", "local", "local:other", ""):
            error = expect_error(
                grpc.StatusCode.INVALID_ARGUMENT,
                stub.StartReembed,
                svc.StartReembedRequest(embedder=target),
            )
            assert field_violations(error) == ["embedder"]
        status = stub.GetReembedStatus(svc.GetReembedStatusRequest()).status
        assert status.state == svc.REEMBED_STATE_UNSPECIFIED
    finally:
        server.stop()


def test_start_with_a_mismatched_embedder_names_the_reembed_command(
    tmp_path: Path, fake_gemini: FakeGeminiApi
) -> None:
    serve(settings_for(tmp_path), fake_gemini, None).stop()
    gemini = settings_for(tmp_path).model_copy(update={"embedder": "gemini"})
    server = InProcessServer(gemini, seams=Seams(gemini_transport=fake_gemini))
    with pytest.raises(IncompatibleIndex) as raised:
        server.start()
    server.stop()
    message = str(raised.value)
    assert LOCAL_ID in message and GEMINI_ID in message
    assert "memoryd reembed --to <embedder>" in message


def _reason(error: grpc.RpcError) -> str:
    from google.rpc import error_details_pb2

    (info,) = [
        unpack(d, error_details_pb2.ErrorInfo)
        for d in rich_status(error).details
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)
    ]
    return str(info.reason)


@dataclass
class HookedServer(ServerProcess):
    """The tests' entry point (support/serve.py) with the fake Gemini API and,
    with ``hold_at``, a re-embedding held at that page for good."""

    hold_at: int = 0

    def _entry_point(self, env: dict[str, str]) -> list[str]:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS_DIR), env.get("PYTHONPATH")]))
        hooks = ["--fake-gemini"] + (
            ["--reembed-hold-at", str(self.hold_at)] if self.hold_at else []
        )
        return [sys.executable, "-m", "support.serve", *hooks]


def test_kill_mid_job_then_restart_completes_it_with_every_memory_once(tmp_path: Path) -> None:
    env = {
        "MEMORYD_GEMINI_API_KEY": "fake-key-for-the-fake-api",
        "MEMORYD_GEMINI_DIMENSION": "64",
        "MEMORYD_REEMBED_PAGE_SIZE": "2",
    }
    first = HookedServer(tmp_path / "data", env=env, hold_at=2).start()
    try:
        with first.channel() as channel:
            stub = memoryd_stub(channel)
            for fact in FACTS:
                create(stub, fact, user=USER)
            stub.StartReembed(svc.StartReembedRequest(embedder="gemini"))
            deadline = time.monotonic() + 60
            assert first.process is not None
            while not any("re-embedding held after page 2" in line for line in first.log):
                assert first.process.poll() is None, "".join(first.log)
                assert time.monotonic() < deadline, "the job never reached page 2"
                time.sleep(0.05)
    finally:
        first.stop(signal.SIGKILL)
    saved = json.loads((tmp_path / "data" / "reembed.json").read_text())
    assert (saved["state"], saved["phase"], saved["done"]) == ("running", "copy", 4)

    second = HookedServer(tmp_path / "data", env=env).start()
    try:
        with second.channel() as channel:
            stub = memoryd_stub(channel)
            switched = wait_until_done(stub)
            assert switched.state == svc.REEMBED_STATE_SWITCHED, switched.error
            memories = list_all(stub, pb.Scope(user_id=USER))
            assert sorted(m.content for m in memories) == sorted(FACTS)
            assert len({m.id for m in memories}) == len(FACTS)
            stats = stub.GetStats(svc.GetStatsRequest())
            assert (stats.embedder_id, stats.user_memory_count) == (GEMINI_ID, len(FACTS))
            assert search(stub, "orange marmalade", user=USER)[0].memory.content == FACTS[1]
    finally:
        assert second.stop() == 0, "".join(second.log)
    assert len(shard_dirs(tmp_path / "data")) == 1
