"""The tests' own server entry point: the production server with test hooks plugged in.

``python -m support.serve [--apply-delay SECONDS] [--qdrant-standin] --port P --data-dir D``
runs memoryd.server.serve() exactly as ``memoryd serve`` does (settings from
the MEMORYD_* environment), but hands build() the hooks of support/hooks.py
through its Seams. ServerProcess starts it when a test asks for a hook.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path
from typing import Any

from memoryd.config import Settings
from memoryd.server import Seams, serve

from support.hooks import SlowIndex, in_memory_qdrant_standin

logger = logging.getLogger("support.serve")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m support.serve")
    parser.add_argument("--apply-delay", type=float, default=0.0, help="seconds per index write")
    parser.add_argument(
        "--qdrant-standin", action="store_true", help="Qdrant server backend, in memory"
    )
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    args = parser.parse_args(argv)
    overrides: dict[str, Any] = {"port": args.port, "data_dir": args.data_dir}
    settings = Settings(**overrides)  # the rest from MEMORYD_*, as `memoryd serve` reads them
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    delay: float = args.apply_delay
    seams = Seams(
        qdrant_client=(lambda _: in_memory_qdrant_standin()) if args.qdrant_standin else None,
        wrap_index=(lambda index: SlowIndex(index, delay)) if delay else None,
    )
    if args.qdrant_standin:
        logger.warning("test hook: the Qdrant server backend runs on an in-memory stand-in")
    if delay:
        logger.warning("test hook: every index write is slowed by %.2f s", delay)
    asyncio.run(serve(settings, seams))


if __name__ == "__main__":
    main()
