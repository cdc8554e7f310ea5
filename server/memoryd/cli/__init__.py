"""The ``memoryd`` command line.

``memoryd serve`` runs the server. ``memoryd export``, ``import``, ``stats`` and
``reembed`` operate a running server over gRPC, through memoryd_client; each
takes the connection options of ``memoryd.cli.connection``, shows a progress
bar on stderr for long work, ends with a plain summary, and prints one JSON
object on stdout instead with ``--json``.

Exit codes: 0 done; 1 a failed call (one line names its status code, reason and
message) or an unreadable source; 2 bad usage.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from memoryd.cli import export, importer, reembed, serve, stats

__all__ = ["export", "importer", "main", "reembed", "serve", "stats"]


def main(argv: list[str] | None = None) -> int:
    """Runs one command and returns its exit code (argparse exits 2 on bad usage)."""
    parser = argparse.ArgumentParser(prog="memoryd", description="Long-term memory for AI agents.")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in (serve, export, importer, stats, reembed):
        command.add_command(commands)
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)
