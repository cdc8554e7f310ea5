"""One journaled write applied with retries, to a final state.

A failure that applying again may cure (the embedding model, the engine) is
retried with backoff, then the write fails; the domain's rejection of the
write (a missing memory, a stale version) fails it at once. Either way the
write ends APPLIED or FAILED with its outcome, and the indexer moves on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from memoryd.core import operations
from memoryd.core.changes import Change
from memoryd.core.errors import EmbeddingError, MemorydError, WriteFailed
from memoryd.core.model import WriteState

logger = logging.getLogger(__name__)

type Applied = tuple[dict[str, Any], list[Change]]


async def apply_with_retries(
    apply: Callable[[], Awaitable[Applied]], seq: int, max_attempts: int
) -> tuple[WriteState, dict[str, Any], list[Change]]:
    """Runs ``apply`` (write ``seq``'s outcome and changes) up to ``max_attempts`` times."""
    try:
        async for attempt in AsyncRetrying(
            stop=stop_after_attempt(max_attempts),
            wait=wait_exponential(multiplier=0.05, max=2.0),
            # tenacity catches BaseException: unless is_transient refuses
            # CancelledError, a stop() that lands in an engine call would be
            # retried away and the indexer would outlive its cancellation.
            retry=retry_if_exception(is_transient),
            reraise=True,
        ):
            with attempt:
                outcome, changes = await apply()
    except Exception as error:
        if isinstance(error, MemorydError) and not is_transient(error):
            return WriteState.FAILED, operations.error_to_json(error), []
        # an embedding or engine failure, after every retry
        logger.exception("write %d failed after %d attempts", seq, max_attempts)
        failure = WriteFailed(
            f"the write could not be indexed after {max_attempts} attempts "
            f"({type(error).__name__}); nothing of it was applied"
        )
        return WriteState.FAILED, operations.error_to_json(failure), []
    return WriteState.APPLIED, outcome, changes


def is_transient(error: BaseException) -> bool:
    """Whether applying again may succeed: an embedding or engine failure, not
    the domain's rejection of the write (a missing memory, a stale version)."""
    if isinstance(error, asyncio.CancelledError):
        return False
    return isinstance(error, EmbeddingError) or not isinstance(error, MemorydError)
