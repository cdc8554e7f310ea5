"""A memoryd server as a subprocess on an ephemeral loopback port."""

from __future__ import annotations

import atexit
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc

_LISTENING = re.compile(r"memoryd listening on [^:]+:(\d+)")
START_TIMEOUT = 60.0
#: The directory that holds this package, for the subprocess's PYTHONPATH.
TESTS_DIR = Path(__file__).resolve().parent.parent
#: Every server this process started: a test that fails before its stop() must
#: not leave a server running on the machine after the suite.
_STARTED: list[subprocess.Popen[str]] = []


@atexit.register
def _kill_leftover_servers() -> None:
    for process in _STARTED:
        if process.poll() is None:
            process.kill()
            process.wait(30)


@dataclass
class ServerProcess:
    """A memoryd server subprocess; its log is kept for assertions and failures.

    It runs the production ``memoryd serve`` unless a test asks for a test
    hook: ``apply_delay`` (seconds each index write takes) or
    ``qdrant_standin`` (the Qdrant server backend on qdrant-client's in-memory
    mode). Those run the tests' own entry point, support/serve.py, because no
    production setting can enable them.
    """

    data_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    apply_delay: float = 0.0
    qdrant_standin: bool = False
    #: A command to run instead (the port and data directory options are appended).
    command: list[str] | None = None
    process: subprocess.Popen[str] | None = None
    port: int = 0
    log: list[str] = field(default_factory=list)
    _reader: threading.Thread | None = None
    _logged: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> ServerProcess:
        env = {**os.environ, "MEMORYD_LOG_LEVEL": "INFO", **self.env}
        self.process = subprocess.Popen(
            [*self._entry_point(env), "--port", "0", "--data-dir", str(self.data_dir)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        _STARTED.append(self.process)
        port_found = threading.Event()
        self._reader = threading.Thread(target=self._read_log, args=(port_found,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not port_found.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("memoryd did not start:\n" + "".join(self.log))
        return self

    def _entry_point(self, env: dict[str, str]) -> list[str]:
        if self.command is not None:
            return self.command
        if not self.apply_delay and not self.qdrant_standin:
            return [sys.executable, "-m", "memoryd.cli", "serve"]
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS_DIR), env.get("PYTHONPATH")]))
        hooks = ["--apply-delay", str(self.apply_delay)]
        if self.qdrant_standin:
            hooks.append("--qdrant-standin")
        return [sys.executable, "-m", "support.serve", *hooks]

    def _read_log(self, port_found: threading.Event) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            with self._logged:
                self.log.append(line)
                self._logged.notify_all()
            match = _LISTENING.search(line)
            if match:
                self.port = int(match.group(1))
                port_found.set()

    def wait_for_log(self, text: str, timeout: float = START_TIMEOUT) -> None:
        """Waits until a line of the log contains ``text``."""
        with self._logged:
            if not self._logged.wait_for(lambda: any(text in line for line in self.log), timeout):
                raise AssertionError(f"{text!r} not logged:\n" + "".join(self.log))

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Stops the process (SIGTERM by default) and returns its exit code."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.wait_exit(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.wait_exit(timeout)

    def wait_exit(self, timeout: float = 60.0) -> int:
        """Waits for the process to end, then releases its log pipe."""
        assert self.process is not None
        code = self.process.wait(timeout)
        if self._reader is not None:
            self._reader.join(timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()
        return code
