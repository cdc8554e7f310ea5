"""``memoryd stats``: what a running server holds, as a table or JSON."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from memoryd.cli.connection import OK, add_connection_options, run_with_client
from memoryd.cli.console import print_json, size_text, to_plain
from memoryd.cli.reembed import status_line
from memoryd_client import MemorydClient, svc


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = commands.add_parser(
        "stats",
        help="show memory counts, journal backlog, embedder and engine sizes",
        description="Shows what the server holds (GetStats; needs an admin principal).",
    )
    add_connection_options(stats)
    stats.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_with_client(args, lambda client: _stats(client, args))


def _stats(client: MemorydClient, args: argparse.Namespace) -> int:
    stats = client.get_stats(timeout=args.timeout)
    if args.json:
        print_json({"command": "stats", **to_plain(stats)})
    else:
        Console(highlight=False).print(stats_table(stats))
    return OK


def stats_table(stats: svc.GetStatsResponse) -> Table:
    """The response as a two-column table, one row per figure."""
    table = Table(title="memoryd stats", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value", justify="right")
    rows = [
        ("user memories", f"{stats.user_memory_count:,}"),
        ("agent memories", f"{stats.agent_memory_count:,}"),
        ("app memories", f"{stats.app_memory_count:,}"),
        ("expired, awaiting purge", f"{stats.expired_memory_count:,}"),
        ("journal backlog", f"{stats.journal_backlog:,} writes"),
        ("change sequence", f"{stats.change_sequence:,}"),
        ("embedder", stats.embedder_id),
        ("dimension", str(stats.dimension)),
        ("backend", stats.backend),
        ("index on disk", size_text(stats.index_disk_bytes)),
        ("journal on disk", size_text(stats.journal_disk_bytes)),
        ("re-embedding", status_line(stats.reembed)),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table
