"""SIGTERM and SIGINT for ``memoryd serve``: they start the shutdown, then stop mattering."""

from __future__ import annotations

import asyncio
import signal

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def on_stop_signal(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Sets ``stop`` on each SIGTERM or SIGINT (a second one ends a waiting window early)."""
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)


def ignore_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
    """Ignores further stop signals once the server has stopped.

    Closing the loop would restore their default action, so a supervisor's
    repeated SIGTERM in the process's last moments (the executor joining, the
    interpreter tearing down) would turn a clean exit 0 into death by signal.
    """
    for sig in STOP_SIGNALS:
        loop.remove_signal_handler(sig)
        signal.signal(sig, signal.SIG_IGN)
