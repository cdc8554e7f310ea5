"""The runnable examples, run as scripts against the real server with the scripted model."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support import ServerProcess

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("agent_memory_config.py", "I'm in UTC-5"),
        ("state_graph_memory_integration.py", "The user's favourite language is Rust"),
    ],
)
def test_example_runs(server: ServerProcess, user: str, script: str, expected: str) -> None:
    finished = subprocess.run(
        [sys.executable, str(EXAMPLES / script), "--target", server.address, "--user", user],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    assert expected in finished.stdout
