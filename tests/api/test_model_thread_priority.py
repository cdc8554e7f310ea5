"""The local model's threads run at a lower priority than the server's own
(MEMORYD_EMBED_THREAD_NICENESS): Linux keeps a nice value per thread; none of
them is tied to one core, and none runs on a CPU the process may not use."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memoryd.embed.cpu_cores import usable_cores
from memoryd.embed.onnx_local import DIMENSION, OnnxMiniLMEmbedder
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="per-thread nice values are Linux's (/proc/<pid>/task)"
)


def nice_values(pid: int | str = "self") -> dict[int, int]:
    """Each thread's nice value, by thread id (field 19 of /proc/<pid>/task/<tid>/stat)."""
    values = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        # Fields after the command name (which may hold spaces) start at field 3.
        values[int(task.name)] = int(stat.rsplit(")", 1)[1].split()[19 - 3])
    return values


def embed_one(model: OnnxMiniLMEmbedder) -> list[float]:
    (vector,) = asyncio.run(model.embed(["the user lives in Lisbon"]))
    return vector


@pytest.mark.parametrize("niceness", [0, 7])
def test_the_model_and_its_thread_pool_run_at_the_given_niceness(niceness):
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    before = nice_values()
    # Two intra-op threads: the inference thread and one the session starts.
    model = OnnxMiniLMEmbedder(intra_op_threads=2, thread_niceness=niceness)
    try:
        assert len(embed_one(model)) == DIMENSION
        started = {tid: nice for tid, nice in nice_values().items() if tid not in before}
    finally:
        asyncio.run(model.close())
    assert len(started) >= 2, started
    if niceness:
        lowered = [tid for tid, nice in started.items() if nice == own + niceness]
        assert len(lowered) >= 2, started
    else:
        assert set(started.values()) == {own}
    # The caller's thread keeps its priority.
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == own


def test_no_thread_of_the_model_is_pinned_to_a_core():
    # Left to pick its thread count, onnxruntime pins each thread of its pool to one
    # core: on 2 cores one thread then waited for its core while the other idled, and
    # every model call with it.
    allowed = os.sched_getaffinity(0)
    before = set(nice_values())
    model = OnnxMiniLMEmbedder()  # the server's default thread count
    try:
        assert len(embed_one(model)) == DIMENSION
        started = set(nice_values()) - before
        pinned = {}
        for tid in started:
            with contextlib.suppress(ProcessLookupError):  # the thread ended meanwhile
                if (cpus := os.sched_getaffinity(tid)) != allowed:
                    pinned[tid] = cpus
    finally:
        asyncio.run(model.close())
    # The inference thread and one more per further core, all free to run anywhere.
    assert len(started) >= usable_cores(), started
    assert pinned == {}, f"pinned to {pinned}, the process may run on {allowed}"


def test_the_server_lowers_only_the_model_threads(tmp_path: Path):
    server = ServerProcess(tmp_path, env={"MEMORYD_EMBED_THREAD_NICENESS": "5"}).start()
    try:
        with server.channel() as channel:
            # A search with a new text runs the model: its session is loaded by then.
            memory_service_pb2_grpc.MemoryServiceStub(channel).SearchMemories(
                svc.SearchMemoriesRequest(
                    query="where does the user live", scope=pb.Scope(user_id="u")
                )
            )
        assert server.process is not None
        values = nice_values(server.process.pid)
        main = values[server.process.pid]
        assert main == os.getpriority(os.PRIO_PROCESS, 0)
        assert any(nice == main + 5 for nice in values.values()), values
        assert any(tid != server.process.pid and nice == main for tid, nice in values.items())
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_a_sandbox_that_forbids_lowering_priority_leaves_the_model_working(monkeypatch, caplog):
    # Stands in for a seccomp profile that refuses setpriority: the model must still load.
    def refuse(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "setpriority", refuse)
    model = OnnxMiniLMEmbedder(intra_op_threads=1, thread_niceness=10)
    try:
        assert len(embed_one(model)) == DIMENSION
    finally:
        asyncio.run(model.close())
    assert "could not lower the model threads' priority" in caplog.text


CONFINED_MODEL = """
import asyncio, json, os, sys
os.sched_setaffinity(0, {int(sys.argv[1])})  # as `taskset -c N` would, before any thread
from memoryd.embed.cpu_cores import usable_cores
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
before = set(os.listdir("/proc/self/task"))
model = OnnxMiniLMEmbedder()
asyncio.run(model.embed(["the user lives in Lisbon"]))
started = set(os.listdir("/proc/self/task")) - before
affinities = {tid: sorted(os.sched_getaffinity(int(tid))) for tid in started}
json.dump({"cores": usable_cores(), "threads": affinities}, sys.stdout)
asyncio.run(model.close())
"""


def test_a_model_confined_to_one_cpu_keeps_to_it():
    # onnxruntime's own default ignores the process's affinity mask: under
    # `taskset -c 0` on 2 cores it still started a pool thread, pinned to CPU 1.
    cpu = min(os.sched_getaffinity(0))
    run = subprocess.run(
        [sys.executable, "-c", CONFINED_MODEL, str(cpu)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    confined = json.loads(run.stdout)
    assert confined["cores"] == 1  # one thread for the model: no pool beside it
    assert confined["threads"], "the model started no thread"
    assert all(cpus == [cpu] for cpus in confined["threads"].values()), confined
