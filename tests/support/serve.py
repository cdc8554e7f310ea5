"""The tests' own server entry point: the production server with test hooks plugged in.

``python -m support.serve [--apply-delay SECONDS] [--qdrant-standin] [--fake-gemini]
[--reembed-hold-at PAGE] --port P --data-dir D``
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
from memoryd.core.reembed import AfterPage
from memoryd.core.reembed_status import ReembedStatus
from memoryd.server import Seams, serve

from support.hooks import FakeGeminiApi, PageGate, SlowIndex, in_memory_qdrant_standin

logger = logging.getLogger("support.serve")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m support.serve")
    parser.add_argument("--apply-delay", type=float, default=0.0, help="seconds per index write")
    parser.add_argument(
        "--qdrant-standin", action="store_true", help="Qdrant server backend, in memory"
    )
    parser.add_argument(
        "--fake-gemini", action="store_true", help="Gemini's HTTP API answered by a fake"
    )
    parser.add_argument(
        "--reembed-hold-at", type=int, default=None, help="a re-embedding waits at this page"
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
        gemini_transport=FakeGeminiApi() if args.fake_gemini else None,
        reembed_after_page=_held_at(args.reembed_hold_at) if args.reembed_hold_at else None,
    )
    if args.fake_gemini:
        logger.warning("test hook: Gemini's API is answered by a fake")
    if args.qdrant_standin:
        logger.warning("test hook: the Qdrant server backend runs on an in-memory stand-in")
    if delay:
        logger.warning("test hook: every index write is slowed by %.2f s", delay)
    asyncio.run(serve(settings, seams))


def _held_at(page: int) -> AfterPage:
    """Holds a re-embedding at ``page`` for good, saying so in the log (the
    test reads it, then kills the process)."""
    gate = PageGate(hold_at=page)

    async def after_page(status: ReembedStatus) -> None:
        if len(gate.statuses) + 1 == page:
            logger.warning(
                "test hook: re-embedding held after page %d (done %d)", page, status.done
            )
        await gate(status)

    return after_page


if __name__ == "__main__":
    main()
