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
import importlib
import sys
from collections.abc import Callable

__all__ = ["COMMANDS", "main"]

#: Each command and its module, in the order ``memoryd --help`` lists them.
COMMANDS = {
    "serve": "serve",
    "export": "export",
    "import": "importer",
    "stats": "stats",
    "reembed": "reembed",
}


def main(argv: list[str] | None = None) -> int:
    """Runs one command and returns its exit code (argparse exits 2 on bad usage)."""
    args_in = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="memoryd", description="Long-term memory for AI agents.")
    # The metavar names every command even when only the named one is loaded.
    names = "{" + ",".join(COMMANDS) + "}"
    commands = parser.add_subparsers(dest="command", required=True, metavar=names)
    for module in _modules_for(args_in):
        importlib.import_module(f"memoryd.cli.{module}").add_command(commands)
    args = parser.parse_args(args_in)
    run: Callable[[argparse.Namespace], int] = args.run
    return run(args)


def _modules_for(argv: list[str]) -> list[str]:
    """The named command's module alone, else all (for --help and usage errors).

    The operator commands import the client and rich's progress bars (about
    50 ms); ``memoryd serve`` should not wait for them before it starts.
    """
    named = argv[0] if argv else ""
    return [COMMANDS[named]] if named in COMMANDS else list(COMMANDS.values())
