"""``memoryd export``: a scope's memories, or every memory, as JSON Lines.

Each line is one ExportedMemory (the memory with its vector and embedder id) in
proto3 JSON, as ``memoryd import`` reads it back. A file is written beside its
final name and renamed into place once the export is complete, so a failed
export never leaves a partial file under that name.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from google.protobuf import json_format

from memoryd.cli.connection import OK, UsageError, add_connection_options, run_with_client
from memoryd.cli.console import print_json, progress_bar, say, to_plain
from memoryd_client import MemorydClient, pb, svc


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser(
        "export",
        help="write memories with their vectors as JSON Lines",
        description="Writes the memories of a scope (no scope: every memory, for an "
        "admin) as JSON Lines, one ExportedMemory in proto3 JSON per line.",
    )
    scope = export.add_argument_group("scope (none: every memory; needs an admin principal)")
    scope.add_argument("--user", default="", help="user_id")
    scope.add_argument("--agent", default="", help="agent_id")
    scope.add_argument("--app", default="", help="app_id")
    scope.add_argument("--thread", default="", help="thread_id")
    export.add_argument(
        "--output", default="-", help="file to write, or - for stdout (the default)"
    )
    export.add_argument(
        "--page-size", type=int, default=0, help="memories per response (default 100, max 1000)"
    )
    add_connection_options(export)
    export.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_with_client(args, lambda client: _export(client, args))


def _export(client: MemorydClient, args: argparse.Namespace) -> int:
    to_stdout = args.output == "-"
    if args.json and to_stdout:
        raise UsageError("--json needs --output FILE: stdout carries the records")
    scope = pb.Scope(user_id=args.user, agent_id=args.agent, app_id=args.app, thread_id=args.thread)
    request = svc.ExportMemoriesRequest(page_size=args.page_size)
    if scope.ByteSize():
        request.scope.CopyFrom(scope)
    started = time.monotonic()
    header = svc.ExportHeader()
    written = 0
    with _output(args.output) as out, progress_bar() as progress:
        task = progress.add_task("exporting", total=None)
        for item in client.export_memories(request, timeout=args.timeout):
            if isinstance(item, svc.ExportHeader):
                header = item
                progress.update(task, total=item.memory_count)
                continue
            out.write(json_format.MessageToJson(item, indent=None) + "\n")
            written += 1
            progress.advance(task)
    seconds = time.monotonic() - started
    where = "stdout" if to_stdout else args.output
    if args.json:
        print_json(
            {
                "command": "export",
                "output": where,
                "exported_count": written,
                "seconds": round(seconds, 3),
                "header": to_plain(header),
            }
        )
    else:
        say(
            f"exported {written} memories to {where} in {seconds:.1f} s "
            f"(embedder {header.embedder_id or '?'}, dimension {header.dimension}, "
            f"change sequence {header.change_sequence})"
        )
    return OK


@contextmanager
def _output(target: str) -> Iterator[TextIO]:
    if target == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    final = Path(target)
    partial = final.with_name(f".{final.name}.partial")
    try:
        out = partial.open("w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write --output {target}: {exc.strerror or exc}") from None
    try:
        with out:
            yield out
        os.replace(partial, final)
    finally:
        partial.unlink(missing_ok=True)
