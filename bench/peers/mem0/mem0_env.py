"""The environment mem0 reads when imported: set it before importing mem0 (or mem0_store).

No telemetry, no model downloads, and mem0's home (config.json with an
install id) beside the store rather than in ~/.mem0.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def prepare_mem0_environment(store_path: str) -> None:
    """Points mem0 at a home beside ``store_path``, offline and silent, and puts
    the server's source on the path for memoryd's embedder."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["MEM0_DIR"] = str(Path(store_path).parent / "mem0-home")
    if str(REPO / "server") not in sys.path:
        sys.path.insert(0, str(REPO / "server"))
