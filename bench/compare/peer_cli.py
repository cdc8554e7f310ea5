"""The command line the 10xgraph and mem0 bench scripts share (pure Python)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def peer_main(description: str, run: Callable[[argparse.Namespace, Path], dict[str, Any]]) -> None:
    """Parses the peer's options, runs it in a scratch directory, prints its JSON."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per latency series")
    parser.add_argument(
        "--timed-ingest", type=int, default=1000, help="memories the ingest rate is timed on"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as scratch:
        result = run(args, Path(scratch))
    json.dump(result, sys.stdout)
