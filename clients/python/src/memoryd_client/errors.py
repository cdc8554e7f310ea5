"""Typed errors for failed calls: one class per status code, and under it one per reason.

A failed call raises the class of its ErrorInfo reason (the contract's
``ErrorReason``), which is a subclass of the class of its status code, so
``except Unavailable`` also catches ``ShuttingDown``. A reason this client does
not know yet raises the class of its code.

MemorydError(code, reason, message, metadata)   any failed call
  InvalidArgument(field_violations)             INVALID_ARGUMENT (and OUT_OF_RANGE): a bad field;
                                                nothing written
    MessageTooLarge(size_bytes, limit_bytes)      the request is over the server's limit
    ChangeHistoryExpired                          OUT_OF_RANGE: WatchMemories cannot resume
                                                  there; read the scope again, then watch
  NotFound(resource_name)                       NOT_FOUND
    MemoryNotFound(memory_id)                     absent, or outside the scope you asked in
    UnknownWriteToken(write_token)                GetWriteStatus: a token this server never
                                                  issued, or one past its retention
  VersionConflict                               ABORTED (VERSION_MISMATCH): stale expected_version
  PermissionDenied                              PERMISSION_DENIED
    ScopeNotPermitted                             the caller may not act in that scope
  Unauthenticated                               UNAUTHENTICATED: no valid credentials
  FailedPrecondition                            FAILED_PRECONDITION
    IncompatibleIndex                             the index was built by another embedder
    ReembedInProgress                             a re-embedding to another embedder runs
  Unimplemented                                 the server does not offer this RPC
  WriteFailed(write_token, cause)               wait_for_write: the write was rejected when applied
  InternalError(incident)                       INTERNAL: a server bug, logged under the incident id
  TransientError                                may succeed if tried again later
    Unavailable                                 UNAVAILABLE (after the retry policy's attempts)
      EmbeddingUnavailable                        the embedding provider failed; retry
      ShuttingDown                                the server is stopping; retry elsewhere or later
      WriteApplyFailed                            a journaled write could not be applied
    DeadlineExceeded                            DEADLINE_EXCEEDED: the deadline passed
      WriteNotYetApplied                          a read waited for a write of its scope
      PreloadScopeTimedOut                        a Preload scope was not searched in time
      WriteInFlight                               (client-side) a read waited for this
                                                  client's own write still in flight
    Overloaded(retry_after)                     RESOURCE_EXHAUSTED, with the server's RetryInfo
      WriteBacklogFull                            the journal backlog is full
      RateLimited                                 the caller is over its request rate
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldViolation:
    """One bad field, named as the request spelled it (``memory.content``)."""

    field: str
    description: str


class MemorydError(Exception):
    """A memoryd call failed. ``code`` is the gRPC status code name, ``reason`` the
    ErrorInfo reason (empty when the server sent none, e.g. for transport errors),
    ``metadata`` the ErrorInfo metadata."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str = "",
        *,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}" + (f" ({reason})" if reason else ""))
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata or {})


class InvalidArgument(MemorydError):
    """The request was rejected; ``field_violations`` names each bad field."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str,
        field_violations: list[FieldViolation],
        *,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(code, message, reason, metadata=metadata)
        self.field_violations = field_violations


class MessageTooLarge(InvalidArgument):
    """The request is larger than the server accepts; nothing was read.

    ``size_bytes`` and ``limit_bytes`` are the server's figures (None if it sent none).
    """

    @property
    def size_bytes(self) -> int | None:
        return _whole_number(self.metadata.get("size_bytes"))

    @property
    def limit_bytes(self) -> int | None:
        return _whole_number(self.metadata.get("limit_bytes"))


class ChangeHistoryExpired(InvalidArgument):
    """WatchMemories was asked to resume after a sequence the server no longer keeps
    (or past its end): read the scope again (ListMemories or ExportMemories) and
    watch from the ``started`` sequence of a new stream."""


class NotFound(MemorydError):
    """Something the request names does not exist; ``resource_name`` names it ("" if unknown)."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str,
        resource_name: str,
        *,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(code, message, reason, metadata=metadata)
        self.resource_name = resource_name


class MemoryNotFound(NotFound):
    """No memory with that id in that scope (a memory of another scope looks the same)."""

    @property
    def memory_id(self) -> str:
        return self.resource_name


class UnknownWriteToken(NotFound):
    """GetWriteStatus does not know the token: another server's, or one whose write
    finished longer ago than the server's retention."""

    @property
    def write_token(self) -> str:
        return self.resource_name


class VersionConflict(MemorydError):
    """expected_version did not match the memory's version; read it again and retry."""


class PermissionDenied(MemorydError):
    """The credentials may not do this."""


class ScopeNotPermitted(PermissionDenied):
    """The caller may not act in the scope it named."""


class Unauthenticated(MemorydError):
    """No valid credentials were sent."""


class FailedPrecondition(MemorydError):
    """The server is in a state that refuses the call."""


class IncompatibleIndex(FailedPrecondition):
    """The stored index was built for another embedder or dimension than the server's."""


class ReembedInProgress(FailedPrecondition):
    """StartReembed: a re-embedding to another embedder is running; GetReembedStatus
    reports it."""


class Unimplemented(MemorydError):
    """The server does not implement this RPC (yet)."""


class WriteFailed(MemorydError):
    """An ASYNC write was journaled but rejected when applied; ``cause`` says why."""

    def __init__(self, write_token: str, cause: MemorydError) -> None:
        super().__init__(
            cause.code,
            f"write {write_token} failed: {cause.message}",
            cause.reason,
            metadata=cause.metadata,
        )
        self.write_token = write_token
        self.cause = cause


class InternalError(MemorydError):
    """The server failed unexpectedly; its log names ``incident`` ("" if none was sent)."""

    @property
    def incident(self) -> str:
        return self.metadata.get("incident", "")


class TransientError(MemorydError):
    """The call may succeed if repeated later."""


class Unavailable(TransientError):
    """The server could not be reached, even after the retry policy's attempts."""


class EmbeddingUnavailable(Unavailable):
    """The embedding provider could not embed the text; retry."""


class ShuttingDown(Unavailable):
    """The server is shutting down and takes no new writes; retry elsewhere or later."""


class WriteApplyFailed(Unavailable):
    """A journaled write could not be applied after the server's retries; none of it was."""


class DeadlineExceeded(TransientError):
    """The call's deadline passed before an answer came."""


class WriteNotYetApplied(DeadlineExceeded):
    """A read waited for an acknowledged write of its scope until its deadline; retry
    with a longer deadline."""


class PreloadScopeTimedOut(DeadlineExceeded):
    """A Preload scope was not searched before the deadline came near."""


class WriteInFlight(DeadlineExceeded):
    """A read waited, until its deadline, for a write of this client into its scope
    that was still unanswered (client-side; reason WRITE_IN_FLIGHT)."""


class Overloaded(TransientError):
    """The server is over a limit; wait ``retry_after`` seconds (None if unknown)."""

    def __init__(
        self,
        code: str,
        message: str,
        reason: str,
        retry_after: float | None,
        *,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(code, message, reason, metadata=metadata)
        self.retry_after = retry_after


class WriteBacklogFull(Overloaded):
    """The journal backlog is full and the write was not journaled."""


class RateLimited(Overloaded):
    """The caller is over its request rate."""


def _whole_number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None
