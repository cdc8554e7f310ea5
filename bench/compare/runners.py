"""How each peer is started: its interpreter, its script, and its JSON answer.

Every peer runs as a subprocess of its own, one after another, with bench/
on PYTHONPATH; its progress goes straight to our stderr, its stdout is the
JSON. A peer that fails is recorded as ``{"error": ...}`` and the run goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[1]
REPO = BENCH.parent


@dataclass(frozen=True)
class Peer:
    name: str
    python: Path
    command: tuple[str, ...]  # after the interpreter

    def argv(self, size: int, extra: list[str]) -> list[str]:
        return [str(self.python), *self.command, "--size", str(size), *extra]


def peers(server_python: Path) -> dict[str, Peer]:
    """The four peers: memoryd and the floor in the server's environment, the others
    in their own (.venv-peers/<peer>, from `make peers`)."""
    peer_envs = REPO / ".venv-peers"
    return {
        "memoryd": Peer("memoryd", server_python, ("-m", "compare.memoryd_run")),
        "floor": Peer("floor", server_python, ("-m", "compare.floor_run")),
        "tenxgraph": Peer(
            "tenxgraph",
            peer_envs / "tenxgraph" / "bin" / "python",
            (str(BENCH / "peers" / "tenxgraph" / "tenxgraph_bench.py"),),
        ),
        "mem0": Peer(
            "mem0",
            peer_envs / "mem0" / "bin" / "python",
            (str(BENCH / "peers" / "mem0" / "mem0_bench.py"),),
        ),
        "million": Peer("million", server_python, ("-m", "compare.million")),
    }


def run_peer(peer: Peer, size: int, extra: list[str]) -> dict[str, Any]:
    """Runs ``peer`` at ``size``; its JSON, with the wall time it took."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(BENCH), os.environ.get("PYTHONPATH")])),
    }
    start = time.perf_counter()
    done = subprocess.run(
        peer.argv(size, extra),
        stdout=subprocess.PIPE,
        stderr=None,
        text=True,
        env=env,
        cwd=REPO,
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(f"{peer.name} at {size} failed (exit {done.returncode})", file=sys.stderr)
        return {
            "peer": peer.name,
            "size": size,
            "error": f"exit {done.returncode}",
            "wall_seconds": seconds,
        }
    try:
        result: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {
            "peer": peer.name,
            "size": size,
            "error": "no JSON on stdout",
            "wall_seconds": seconds,
        }
    result["wall_seconds"] = seconds
    return result
