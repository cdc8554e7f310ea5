"""Each client's example agent loop runs against a real server, as its README says."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
#: The command each client's README gives, with the server address appended
#: (the builds come from `make clients`).
EXAMPLES = {
    "typescript": ["node", "examples/typescript/dist/agent_loop.js"],
    "go": ["clients/go/bin/agent-loop"],
    "java": ["clients/java/target/agent-loop"],
}


@pytest.mark.parametrize("language", EXAMPLES)
def test_the_example_agent_loop_preloads_before_each_model_call(
    language: str, server: ServerProcess
) -> None:
    result = subprocess.run(
        [*EXAMPLES[language], server.address],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # A preload before every scripted model call, and the memories of earlier
    # turns in the later blocks.
    assert result.stdout.count("[Long-term Memory Context]") >= 3, result.stdout
    assert "User memory:" in result.stdout, result.stdout
