"""Domain errors.

MemorydError
  InvalidArgument(field, reason)     bad input; nothing was written
    MessageTooLarge(size, limit)     a request message over the server's size limit
  MemoryNotFound(memory_id)          absent, or outside the caller's scope
  VersionConflict(expected, actual)  expected_version is stale
  IncompatibleIndex(reason)          the stored index was built for another embedder
  EmbeddingError(reason)             the embedding provider could not embed; retry later
  Overloaded(retry_after)            the write backlog is full; retry later
  ShuttingDown()                     the server no longer accepts writes
  WriteNotApplied(token)             a read's deadline came before a write it waits for
  WriteFailed(reason)                a journaled write could not be applied, after retries
  UnknownWrite(token)                a write token this server never issued or no longer keeps
  ScopeTimedOut(scope)               a Preload scope was not searched before the deadline came near
  Unauthenticated(reason)            credentials missing, malformed, expired or not trusted
  PermissionDenied(action)           the principal may not act in the requested scope
  RateLimited(retry_after)           the principal's request rate is over its limit
  ChangeHistoryExpired(after, kept)  a watch resumes outside the kept change history
  ReembedInProgress(target)          a re-embedding to another embedder is running

Each class carries data, never transport codes: api/errors.py maps them.
"""

from __future__ import annotations


class MemorydError(Exception):
    """Base of every error memoryd raises on purpose."""


class InvalidArgument(MemorydError):
    """A request field is malformed or out of range; nothing was written.

    ``field`` names the field as the client sees it (``memory.content``).
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class MessageTooLarge(InvalidArgument):
    """A request message is larger than the server's limit; none of it was read."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(
            "request",
            f"the message is {size} bytes, over the limit of {limit} bytes "
            "(server setting MEMORYD_MAX_MESSAGE_BYTES)",
        )
        self.size = size
        self.limit = limit


class MemoryNotFound(MemorydError):
    """No memory with this id exists in the caller's scope.

    Raised alike for a memory that never existed and for one owned by another
    scope, so that existence never leaks across scopes.
    """

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} not found in this scope")
        self.memory_id = memory_id


class VersionConflict(MemorydError):
    """The caller's expected_version is not the memory's current version."""

    def __init__(self, memory_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"memory {memory_id!r} is at version {actual}, not the expected {expected}; "
            "read it again and retry"
        )
        self.memory_id = memory_id
        self.expected = expected
        self.actual = actual


class IncompatibleIndex(MemorydError):
    """The stored index cannot be served with the configured embedder."""


class EmbeddingError(MemorydError):
    """The provider could not embed; the message says why without the texts."""


class Overloaded(MemorydError):
    """The journal backlog is at its bound; the write was not journaled."""

    def __init__(self, backlog: int, retry_after: float) -> None:
        super().__init__(f"{backlog} writes are waiting to be indexed; retry in {retry_after:.1f}s")
        self.backlog = backlog
        self.retry_after = retry_after


class ShuttingDown(MemorydError):
    """The server is stopping and journals no new writes."""

    def __init__(self) -> None:
        super().__init__("the server is shutting down; retry against another instance or later")


class WriteNotApplied(MemorydError):
    """A read waited for a write that was still pending when its deadline came."""

    def __init__(self, token: str) -> None:
        super().__init__(
            f"write {token} is acknowledged but not yet indexed; the read waited for it until "
            "its deadline. Retry with a longer deadline"
        )
        self.token = token


class WriteFailed(MemorydError):
    """A journaled write was given up after retries; nothing of it was applied."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownWrite(MemorydError):
    """No write with this token exists in this server's journal."""

    def __init__(self, token: str) -> None:
        token = token[:120]  # echoed back; a huge one must not overflow the trailers
        super().__init__(f"write token {token!r} is unknown to this server")
        self.token = token


class ScopeTimedOut(MemorydError):
    """The caller's deadline came too near before a Preload scope was searched.

    Reported inside that scope's event, never as the status of the stream.
    """

    def __init__(self, scope: str) -> None:
        super().__init__(
            f"the {scope} scope was not searched before the deadline; retry with a longer deadline"
        )
        self.scope = scope


class Unauthenticated(MemorydError):
    """The call carries no valid credentials for the configured auth mode."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"unauthenticated: {reason}")
        self.reason = reason


class PermissionDenied(MemorydError):
    """The principal may not act in the scope it asked for.

    Decided from the scope alone, before any lookup, so it never reveals
    whether a memory exists.
    """

    def __init__(self, action: str) -> None:
        super().__init__(f"permission denied: the caller may not {action}")
        self.action = action


class RateLimited(MemorydError):
    """The principal sent more requests than its rate limit allows."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limit exceeded; retry in {retry_after:.2f}s")
        self.retry_after = retry_after


class ChangeHistoryExpired(MemorydError):
    """A watch asked to resume after a sequence outside the change history kept:
    older than ``oldest_resumable``, or past ``last``."""

    def __init__(self, after: int, oldest_resumable: int, last: int) -> None:
        where = "older than the history kept" if after < oldest_resumable else "past its end"
        super().__init__(
            f"start_after_sequence {after} is {where} (sequences {oldest_resumable} to {last} "
            "can be resumed from); read the scope again (ListMemories or ExportMemories) and "
            "watch from the sequence `started` names"
        )
        self.after = after
        self.oldest_resumable = oldest_resumable
        self.last = last


class ReembedInProgress(MemorydError):
    """A re-embedding to another embedder is running; one runs at a time."""

    def __init__(self, running_target: str) -> None:
        super().__init__(
            f"a re-embedding to {running_target!r} is running; wait for it to switch over "
            "(GetReembedStatus) before starting another"
        )
        self.running_target = running_target
