"""Deployment tests' helpers: the container's programs as ordinary processes (the
health probe; the entrypoint under support.ServerProcess), and the settings that
deployment files name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memoryd.config import Settings

from support import ServerProcess

REPO = Path(__file__).resolve().parents[2]
ENTRYPOINT = REPO / "docker" / "entrypoint.sh"
#: The virtualenv's scripts: `memoryd` (which the entrypoint execs) and `memoryd-healthcheck`.
VENV_BIN = Path(sys.executable).parent


@dataclass(frozen=True)
class ProbeResult:
    code: int
    stdout: str
    stderr: str


def probe(*args: str, env: dict[str, str] | None = None) -> ProbeResult:
    """Runs `memoryd-healthcheck` once with the server's settings in ``env``."""
    done = subprocess.run(
        [str(VENV_BIN / "memoryd-healthcheck"), "--timeout", "10", *args],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )
    return ProbeResult(done.returncode, done.stdout, done.stderr)


def wait_until_healthy(
    env: dict[str, str], *, attempts: int = 50, deadline_seconds: float = 60
) -> ProbeResult:
    """Probes until the probe exits 0, as Docker does, within ``attempts`` and the
    deadline. Each attempt is itself a wait: a process start and a health call."""
    deadline = time.monotonic() + deadline_seconds
    result = probe(env=env)
    for _ in range(attempts - 1):
        if result.code == 0 or time.monotonic() > deadline:
            break
        result = probe(env=env)
    return result


@dataclass
class EntrypointProcess(ServerProcess):
    """The server started through docker/entrypoint.sh, as the image starts it:
    `sh entrypoint.sh --port 0 --data-dir D` with ``env`` as the container's."""

    def _entry_point(self, env: dict[str, str]) -> list[str]:
        env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
        return ["sh", str(ENTRYPOINT)]


def settings_named(text: str) -> set[str]:
    """Every MEMORYD_* variable ``text`` mentions."""
    return set(re.findall(r"\bMEMORYD_[A-Z0-9_]+\b", text))


def unknown_settings(names: Iterable[str]) -> set[str]:
    """Those of the MEMORYD_* ``names`` that are no field of config.Settings;
    other names (OTEL_*, ...) are not memoryd's to check."""
    fields = set(Settings.model_fields)
    ours = [n for n in names if n.startswith("MEMORYD_")]
    return {n for n in ours if n.removeprefix("MEMORYD_").lower() not in fields}


def settings_from(environment: Mapping[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The Settings memoryd would start with in ``environment`` (its MEMORYD_*
    variables only; any others in the test's own environment are removed)."""
    for name in [n for n in os.environ if n.startswith("MEMORYD_")]:
        monkeypatch.delenv(name)
    for name, value in environment.items():
        if name.startswith("MEMORYD_"):
            monkeypatch.setenv(name, str(value))
    no_overrides: dict[str, Any] = {}
    return Settings(**no_overrides)
