"""Running the ``memoryd`` console script as an operator does: a subprocess, with its
exit code, stdout and stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The console script of this environment, as `pip install` put it there.
MEMORYD = Path(sys.executable).with_name("memoryd")

#: Makes rich draw its progress bars into a pipe, as on a terminal, for a test to read.
SHOW_PROGRESS = {"TTY_INTERACTIVE": "1", "TTY_COMPATIBLE": "1", "COLUMNS": "120"}


@dataclass(frozen=True)
class Run:
    """How a command ended: its exit code and what it printed."""

    code: int
    out: str
    err: str


def memoryd(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Run:
    """Runs the console script; connection options go after the subcommand's."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MEMORYD_ADDRESS", "MEMORYD_API_KEY", "MEMORYD_TOKEN")
    }
    done = subprocess.run(
        [str(MEMORYD), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**environment, "NO_COLOR": "1", **(env or {})},
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)
