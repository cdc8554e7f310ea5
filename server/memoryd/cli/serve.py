"""``memoryd serve``: runs the gRPC server until SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="run the gRPC server")
    serve.add_argument("--host", help="address to listen on (MEMORYD_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port; 0 picks one (MEMORYD_PORT, default 50051)")
    serve.add_argument("--data-dir", type=Path, help="index directory (MEMORYD_DATA_DIR)")
    serve.add_argument("--config", type=Path, help="TOML settings file (MEMORYD_CONFIG_FILE)")
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The server's modules load only here: the operator commands need none of them.
    from pydantic import ValidationError

    from memoryd.components import start_local_model
    from memoryd.config import Settings
    from memoryd.core.errors import MemorydError

    overrides: dict[str, Any] = {
        name: value
        for name, value in (
            ("host", args.host),
            ("port", args.port),
            ("data_dir", args.data_dir),
            ("config_file", args.config),
        )
        if value is not None
    }
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        print(f"memoryd: invalid settings:\n{exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        # Before the server's own imports: onnxruntime builds the model's session on
        # the model's thread, without the GIL, while they run and the index opens,
        # so the first request after a start need not wait for it (the first search
        # right after SERVING: 44 against 182 ms at p50 on an empty data directory,
        # 20 against 144 ms at 1M memories, SERVING no later; bench/startup_compare.py).
        model = start_local_model(settings) if settings.embedder == "local" else None
        from memoryd.server import serve as run_server

        asyncio.run(run_server(settings, local_model=model))
    except (MemorydError, ValueError, OSError) as exc:
        logging.getLogger("memoryd").error("cannot start: %s", exc)
        return 1
    return 0
