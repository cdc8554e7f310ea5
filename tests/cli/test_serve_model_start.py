"""``memoryd serve`` starts the local model before it imports the server, once.

onnxruntime builds the model's session on the model's own thread without the
GIL, so started first it loads while the server's modules import and the index
opens, and the first request after a start does not wait for it (measured in
bench/startup_compare.py; timings are no test's business). What a test can
check is the order that buys it, and that the server uses that model rather
than loading a second one: this runs the real ``memoryd serve`` with the
model's class watched, as a subclass that records what was imported when an
instance was made.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess

WATCHED_SERVE = """
import atexit, json, sys
import memoryd.embed.onnx_local as onnx_local

made = []

class Watched(onnx_local.OnnxMiniLMEmbedder):
    def __init__(self, *args, **kwargs):
        made.append({"server_imported": "memoryd.server" in sys.modules})
        super().__init__(*args, **kwargs)

onnx_local.OnnxMiniLMEmbedder = Watched
atexit.register(lambda: print("models made: " + json.dumps(made), flush=True))
from memoryd.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_serve_starts_the_model_before_the_server_and_uses_that_one(tmp_path: Path) -> None:
    command = [sys.executable, "-c", WATCHED_SERVE, "serve"]
    server = ServerProcess(tmp_path / "data", command=command).start()
    try:
        with server.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            scope = pb.Scope(user_id="ana")
            memory = pb.Memory(content="Ana's timezone is Europe/Lisbon", scope=scope)
            stub.CreateMemory(svc.CreateMemoryRequest(memory=memory, mode=svc.WRITE_MODE_SYNC))
            found = stub.SearchMemories(
                svc.SearchMemoriesRequest(query="Which timezone is Ana in?", scope=scope)
            )
            assert [r.memory.content for r in found.results] == [memory.content]
    finally:
        assert server.stop() == 0, "".join(server.log)
    lines = [line for line in server.log if line.startswith("models made: ")]
    assert len(lines) == 1, "".join(server.log)
    assert json.loads(lines[0].removeprefix("models made: ")) == [{"server_imported": False}]
