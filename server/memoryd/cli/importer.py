"""``memoryd import``: memories into a running server, from JSONL or a peer's store.

``--from jsonl`` (the default) reads what ``memoryd export`` wrote. ``--from
tenxgraph`` and ``--from mem0`` read a 10xgraph QdrantStore or a mem0 OSS
collection (a local Qdrant directory with ``--path``, or a Qdrant server with
``--url``); their readers are imported only when chosen. The import is
idempotent per record: running it again writes nothing twice.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Iterator
from pathlib import Path

from rich.progress import Progress, TaskID

from memoryd.cli.connection import OK, UsageError, add_connection_options, run_with_client
from memoryd.cli.console import print_json, progress_bar, say, to_plain
from memoryd.cli.sources.base import Source, SourceError
from memoryd.cli.sources.jsonl import open_jsonl
from memoryd_client import MemorydClient, svc

#: --from choices whose reader is a module of memoryd.cli.sources with open_<name>().
STORES = ("tenxgraph", "mem0")


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    imp = commands.add_parser(
        "import",
        help="import memories from JSONL, a 10xgraph store or a mem0 store",
        description="Imports memories, keeping their ids, keys, times and versions. "
        "Running an import again writes nothing twice.",
    )
    imp.add_argument("--from", dest="source", choices=("jsonl", *STORES), default="jsonl")
    imp.add_argument("--input", help="jsonl: the file to read, or - for stdin")
    store = imp.add_argument_group("tenxgraph and mem0 stores")
    store.add_argument("--path", type=Path, help="local Qdrant directory of the store")
    store.add_argument("--url", help="Qdrant server URL of the store")
    store.add_argument("--qdrant-api-key", help="API key of that Qdrant server")
    store.add_argument("--collection", default="", help="collection (default: the store's own)")
    vectors = store.add_mutually_exclusive_group()
    vectors.add_argument(
        "--vectors-embedder",
        metavar="ID",
        help="embedder id that made the store's vectors; the server keeps them if it is its own",
    )
    vectors.add_argument(
        "--same-embedder",
        action="store_true",
        help="the store's vectors come from the server's own embedder (read with GetStats)",
    )
    imp.add_argument(
        "--batch-size", type=int, default=200, help="records per message, 1-500 (default 200)"
    )
    add_connection_options(imp)
    imp.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_with_client(args, lambda client: _import(client, args))


def _import(client: MemorydClient, args: argparse.Namespace) -> int:
    _check(args)
    source = _open(client, args)
    started = time.monotonic()
    with progress_bar() as progress:
        task = progress.add_task("importing", total=source.total)
        sent = _Counted(source.records, progress, task)
        try:
            response = client.import_memories(
                sent, batch_size=args.batch_size, timeout=args.timeout
            )
        except SourceError as exc:
            raise SourceError(
                f"{exc} (the {sent.count} records before it were imported; fix the source "
                "and run the import again: it writes nothing twice)"
            ) from None
    seconds = time.monotonic() - started
    if args.json:
        print_json(
            {
                "command": "import",
                "source": source.description,
                "seconds": round(seconds, 3),
                **to_plain(response),
            }
        )
    else:
        say(
            f"imported from {source.description} in {seconds:.1f} s: "
            f"{response.received_count} received, {response.created_count} created, "
            f"{response.updated_count} updated, {response.unchanged_count} unchanged, "
            f"{response.embedded_count} embedded again"
        )
    return OK


def _check(args: argparse.Namespace) -> None:
    if not 1 <= args.batch_size <= 500:
        raise UsageError(f"--batch-size is {args.batch_size}; use 1 to 500")
    if args.source == "jsonl":
        store_options = [
            name
            for name, value in (
                ("--path", args.path),
                ("--url", args.url),
                ("--qdrant-api-key", args.qdrant_api_key),
                ("--collection", args.collection),
                ("--vectors-embedder", args.vectors_embedder),
                ("--same-embedder", args.same_embedder),
            )
            if value
        ]
        if store_options:
            raise UsageError(f"{', '.join(store_options)} apply to --from tenxgraph or mem0")
        if args.input is None:
            raise UsageError("--from jsonl needs --input FILE (or - for stdin)")
        return
    if args.input is not None:
        raise UsageError(
            f"--input applies to --from jsonl; --from {args.source} reads --path or --url"
        )
    if (args.path is None) == (args.url is None):
        raise UsageError(f"--from {args.source} needs --path DIR or --url URL (one of them)")


def _open(client: MemorydClient, args: argparse.Namespace) -> Source:
    if args.source == "jsonl":
        return open_jsonl(None if args.input == "-" else Path(args.input))
    try:
        reader = importlib.import_module(f"memoryd.cli.sources.{args.source}")
    except ImportError as exc:
        raise SourceError(f"--from {args.source} is not available here: {exc}") from None
    embedder = args.vectors_embedder or ""
    if args.same_embedder:
        embedder = client.get_stats(timeout=args.timeout).embedder_id
    source: Source = getattr(reader, f"open_{args.source}")(
        path=args.path,
        url=args.url,
        api_key=args.qdrant_api_key,
        collection=args.collection,
        vectors_embedder=embedder,
    )
    return source


class _Counted:
    """The source's records, advancing the progress bar as the import takes them."""

    def __init__(self, records: Iterator[svc.ExportedMemory], progress: Progress, task: TaskID):
        self.count = 0
        self._records = records
        self._progress = progress
        self._task = task

    def __iter__(self) -> Iterator[svc.ExportedMemory]:
        for record in self._records:
            self.count += 1
            self._progress.advance(self._task)
            yield record
