"""``memoryd reembed --to EMBEDDER``: re-embeds every memory while the server serves.

StartReembed starts the job (or finds it running); unless ``--no-wait``, the
command then polls GetReembedStatus every half second, with a progress bar,
until the server has switched over (exit 0) or the job failed (exit 1). An
interrupted wait leaves the job running; run the command again to follow it.
"""

from __future__ import annotations

import argparse
import time

from memoryd.cli.connection import FAILED, OK, add_connection_options, run_with_client
from memoryd.cli.console import print_json, progress_bar, say, to_plain
from memoryd_client import MemorydClient, svc

#: Seconds between two GetReembedStatus polls.
POLL_SECONDS = 0.5

_DONE = (svc.REEMBED_STATE_SWITCHED, svc.REEMBED_STATE_FAILED)


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    reembed = commands.add_parser(
        "reembed",
        help="re-embed every memory with another embedder, while serving",
        description="Re-embeds every memory with another embedder in the background, "
        "then switches reads and writes over (needs an admin principal).",
    )
    reembed.add_argument(
        "--to",
        required=True,
        metavar="EMBEDDER",
        help='the embedder to move to, as MEMORYD_EMBEDDER names it ("local", "gemini", '
        'optionally with ":model")',
    )
    reembed.add_argument(
        "--no-wait", action="store_true", help="start the job and return without following it"
    )
    add_connection_options(reembed)
    reembed.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_with_client(args, lambda client: _reembed(client, args))


def _reembed(client: MemorydClient, args: argparse.Namespace) -> int:
    status = client.start_reembed(args.to, timeout=args.timeout).status
    if not args.no_wait and status.state not in _DONE:
        status = _follow(client, status, args.timeout)
    if args.json:
        print_json({"command": "reembed", **to_plain(status)})
    elif status.state == svc.REEMBED_STATE_FAILED:
        say(f"memoryd reembed: failed: {status.error}")
    else:
        say(status_line(status))
    return FAILED if status.state == svc.REEMBED_STATE_FAILED else OK


def _follow(
    client: MemorydClient, status: svc.ReembedStatus, timeout: float | None
) -> svc.ReembedStatus:
    with progress_bar() as progress:
        task = progress.add_task(f"re-embedding to {status.to_embedder_id}", total=None)
        while True:
            progress.update(task, total=status.total_count or None, completed=status.done_count)
            if status.state in _DONE:
                return status
            time.sleep(POLL_SECONDS)
            status = client.get_reembed_status(timeout=timeout).status


def status_line(status: svc.ReembedStatus) -> str:
    """A re-embedding job in one line; "none" if none ran."""
    match status.state:
        case svc.REEMBED_STATE_UNSPECIFIED:
            return "none"
        case svc.REEMBED_STATE_RUNNING:
            state = "running"
        case svc.REEMBED_STATE_SWITCHED:
            state = "switched"
        case svc.REEMBED_STATE_FAILED:
            state = f"failed: {status.error}"
        case _:
            state = svc.ReembedState.Name(status.state)
    moved = f"{status.from_embedder_id} -> {status.to_embedder_id}"
    return f"{moved}, {status.done_count:,} of {status.total_count:,} re-embedded, {state}"
