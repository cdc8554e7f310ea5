"""Fixtures of the CLI tests: memoryd.cli.main run in-process, a client of the session's
server, and fresh servers for exact counts."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from command_line import Run

from memoryd.cli import main
from memoryd_client import MemorydClient

from support import ServerProcess


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Runs memoryd.cli.main in this process; returns its exit code and output."""

    def run(*args: str) -> Run:
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def client(server: ServerProcess) -> Iterator[MemorydClient]:
    with MemorydClient(server.address) as client:
        yield client


@pytest.fixture
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], ServerProcess]]:
    """Starts servers of their own, empty, for tests that count everything one holds."""
    started: list[ServerProcess] = []

    def start() -> ServerProcess:
        process = ServerProcess(tmp_path_factory.mktemp("fresh") / "data").start()
        started.append(process)
        return process

    yield start
    for process in started:
        assert process.stop() == 0, "".join(process.log)
