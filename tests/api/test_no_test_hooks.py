"""The production server has no test hooks: no setting slows indexing or swaps the engine.

Tests that need them run the tests' own entry point (support/serve.py), which
plugs them in through memoryd.server.Seams; these tests run the production
``memoryd serve`` (ServerProcess without hooks) and check that nothing a
deployment can configure (environment, TOML file) reaches them.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

from memoryd.config import Settings
from memoryd.core.indexer import IndexerSettings
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import failed_start, new_memory
from support import ServerProcess


def test_qdrant_url_memory_does_not_start_an_in_memory_backend(tmp_path: Path) -> None:
    env = {"MEMORYD_BACKEND": "qdrant", "MEMORYD_QDRANT_URL": ":memory:"}
    process = ServerProcess(tmp_path / "data", env=env)
    log = failed_start(process)
    assert process.process is not None and process.process.returncode == 1, log
    assert "cannot start: MEMORYD_QDRANT_URL ':memory:' is not the URL of a Qdrant server" in log
    assert "listening" not in log


def test_apply_delay_in_a_toml_file_is_an_unknown_setting(tmp_path: Path) -> None:
    config = tmp_path / "memoryd.toml"
    config.write_text("indexer_apply_delay_seconds = 3600\n")
    process = ServerProcess(tmp_path / "data", env={"MEMORYD_CONFIG_FILE": str(config)})
    log = failed_start(process)
    assert process.process is not None and process.process.returncode == 2, log
    assert "invalid settings" in log and "indexer_apply_delay_seconds" in log
    assert "Extra inputs are not permitted" in log


def test_apply_delay_environment_variable_does_not_slow_indexing(tmp_path: Path) -> None:
    # pydantic-settings ignores MEMORYD_* variables that name no setting, so the
    # old variable is accepted and must do nothing: with it honoured, this SYNC
    # write would wait an hour and miss its deadline.
    env = {"MEMORYD_INDEXER_APPLY_DELAY_SECONDS": "3600"}
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            request = new_memory("Indexed at full speed", user="u", mode=svc.WRITE_MODE_SYNC)
            written = stub.CreateMemory(request, timeout=60)
            assert written.outcome == svc.WRITE_OUTCOME_CREATED
    finally:
        assert process.stop() == 0, "".join(process.log)


def test_server_package_ships_no_test_harness_or_hook_settings() -> None:
    assert importlib.util.find_spec("memoryd.testing") is None
    assert not [name for name in Settings.model_fields if "delay" in name]
    assert not [f.name for f in dataclasses.fields(IndexerSettings) if "delay" in f.name]
