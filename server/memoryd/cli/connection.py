"""How an operator command reaches a running server: its connection options, and the
run of a command with a client, turning failures into one line and an exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memoryd.cli.sources.base import SourceError
from memoryd_client import ClientOptions, MemorydClient, MemorydError

DEFAULT_ADDRESS = "127.0.0.1:50051"

#: Exit codes: done, a failed call or unreadable source, bad usage, Ctrl-C (as shells do).
OK, FAILED, USAGE, INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """The options do not fit together; the message says what to change (exit 2)."""


def add_connection_options(parser: argparse.ArgumentParser) -> None:
    """The options every operator command takes, with their environment defaults."""
    group = parser.add_argument_group("connection")
    group.add_argument(
        "--address",
        default=os.environ.get("MEMORYD_ADDRESS", DEFAULT_ADDRESS),
        help=f"server host:port (MEMORYD_ADDRESS, default {DEFAULT_ADDRESS})",
    )
    group.add_argument(
        "--api-key",
        default=os.environ.get("MEMORYD_API_KEY"),
        help="API key, sent as a bearer token (MEMORYD_API_KEY)",
    )
    group.add_argument(
        "--token", default=os.environ.get("MEMORYD_TOKEN"), help="bearer JWT (MEMORYD_TOKEN)"
    )
    group.add_argument("--tls", action="store_true", help="use TLS with the system's roots")
    group.add_argument("--tls-ca", type=Path, help="PEM file of the CA to trust (implies --tls)")
    group.add_argument("--tls-cert", type=Path, help="PEM client certificate, for mutual TLS")
    group.add_argument("--tls-key", type=Path, help="PEM private key of --tls-cert")
    group.add_argument(
        "--timeout",
        type=float,
        help="seconds per call (default 5; export and import streams: no limit)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object on stdout instead of text"
    )


def client_options(args: argparse.Namespace) -> ClientOptions:
    """ClientOptions from the parsed options; raises UsageError for ones that clash."""
    if args.api_key and args.token:
        raise UsageError(
            "give --api-key or --token (or MEMORYD_API_KEY or MEMORYD_TOKEN), not both"
        )
    if bool(args.tls_cert) != bool(args.tls_key):
        raise UsageError("mutual TLS needs both --tls-cert and --tls-key")
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError(f"--timeout is {args.timeout}; give a positive number of seconds")
    fields: dict[str, Any] = {
        "target": args.address,
        "tls": bool(args.tls or args.tls_ca or args.tls_cert),
        "root_certificates": _pem(args.tls_ca, "--tls-ca"),
        "certificate_chain": _pem(args.tls_cert, "--tls-cert"),
        "private_key": _pem(args.tls_key, "--tls-key"),
        "token": args.api_key or args.token or None,
    }
    if args.timeout is not None:
        fields["read_timeout"] = fields["write_timeout"] = args.timeout
    try:
        return ClientOptions(**fields)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _pem(path: Path | None, option: str) -> bytes | None:
    if path is None:
        return None
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {option} {path}: {exc.strerror or exc}") from None


def run_with_client(args: argparse.Namespace, body: Callable[[MemorydClient], int]) -> int:
    """Runs ``body`` with a client of the parsed options and returns its exit code.

    A failed call prints one line, ``memoryd <command>: <CODE> (<REASON>): <message>``,
    on stderr and returns 1; an unreadable source likewise; clashing options 2.
    """
    command = f"memoryd {args.command}"
    try:
        with MemorydClient(options=client_options(args)) as client:
            return body(client)
    except UsageError as exc:
        _say(f"{command}: error: {exc}")
        return USAGE
    except MemorydError as exc:
        _say(f"{command}: {failure_line(exc)}")
        return FAILED
    except SourceError as exc:
        _say(f"{command}: {exc}")
        return FAILED
    except KeyboardInterrupt:
        _say(f"{command}: interrupted")
        return INTERRUPTED
    except BrokenPipeError:
        # Whoever read stdout went away (``| head``): stop quietly, as Unix tools do,
        # and keep Python from failing again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILED


def failure_line(error: MemorydError) -> str:
    """``CODE (REASON): message`` of a failed call, on one line."""
    reason = f" ({error.reason})" if error.reason else ""
    return f"{error.code}{reason}: {error.message}"


def _say(line: str) -> None:
    print(" ".join(line.split()), file=sys.stderr)
