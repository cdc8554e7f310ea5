"""10xgraph memory writes that are scheduled but have not reached the store yet.

10xgraph's memory tools answer ``{"status": "scheduled"}`` and run the write,
``long_term_memory._do_write(store, config, ...)``, as a background task of the
graph's BackgroundTaskManager. A search from the same graph first waits for
that manager's tasks; a search from another graph (another InjectQ container)
sharing the store does not, and may start before the write has called the
store at all: no RPC is in flight yet for the client to wait for.

The task exists from the moment the tool answers, though, and its coroutine
holds the store and the config as arguments. So a read of a scope looks for the
unfinished write tasks of its own event loop that write into this store and
that scope, and waits for them, bounded by its deadline. A write task's own
reads (the duplicate check before it stores) do not wait for other write tasks:
two such writes would otherwise wait for each other.

This reads one private 10xgraph function's name and arguments; it is checked
against 10xgraph 0.10.3, which the ``tenxgraph`` extra pins. Without that
function nothing is found, and reads wait only for writes in flight.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Sequence
from types import CodeType
from typing import Any

from tenxgraph.storage.store import long_term_memory

from memoryd.v1 import memory_pb2 as pb
from memoryd_client._scope_keys import reads_of, scope_keys
from memoryd_client.errors import DeadlineExceeded

_write_function = getattr(long_term_memory, "_do_write", None)
_WRITE_CODE: CodeType | None = getattr(_write_function, "__code__", None)

ScopeOf = Callable[[dict[str, Any]], pb.Scope]


def _is_write(task: asyncio.Task[Any]) -> bool:
    return _WRITE_CODE is not None and getattr(task.get_coro(), "cr_code", None) is _WRITE_CODE


def scheduled_writes(
    store: object, scopes: Sequence[pb.Scope], scope_of: ScopeOf
) -> list[asyncio.Task[Any]]:
    """The unfinished 10xgraph write tasks of this loop into ``store`` and ``scopes``."""
    current = asyncio.current_task()
    if _WRITE_CODE is None or (current is not None and _is_write(current)):
        return []
    keys = reads_of(scopes)
    found = []
    for task in asyncio.all_tasks():
        if task is current or task.done() or not _is_write(task):
            continue
        coroutine = task.get_coro()
        assert coroutine is not None  # _is_write saw its code
        arguments = inspect.getcoroutinelocals(coroutine)
        config = arguments.get("config")
        if arguments.get("store") is not store or not isinstance(config, dict):
            continue
        try:
            written = scope_of(config)
        except (ValueError, PermissionError):  # the write itself will fail the same way
            continue
        if keys.intersection(scope_keys(written)):
            found.append(task)
    return found


async def wait_for_scheduled_writes(
    store: object, scopes: Sequence[pb.Scope], scope_of: ScopeOf, timeout: float
) -> float:
    """Waits for ``scheduled_writes``; returns the seconds left of ``timeout``.

    Raises DeadlineExceeded (reason WRITE_SCHEDULED) if one is still running
    when ``timeout`` passes, rather than let the read return stale results.
    """
    deadline = time.monotonic() + timeout
    tasks = scheduled_writes(store, scopes, scope_of)
    if tasks:
        # asyncio.wait never cancels the tasks, which belong to another graph.
        _, running = await asyncio.wait(tasks, timeout=max(timeout, 0.0))
        if running:
            raise DeadlineExceeded(
                "DEADLINE_EXCEEDED",
                f"{len(running)} scheduled 10xgraph memory write(s) into this scope did not "
                "finish before the read's deadline; the read waited for them rather than "
                "return stale results",
                "WRITE_SCHEDULED",
            )
    return max(deadline - time.monotonic(), 0.0)
