"""The Python client's typed errors: every ErrorReason of the contract has its own class."""

from __future__ import annotations

from datetime import timedelta

import pytest
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2

from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import (
    ChangeHistoryExpired,
    DeadlineExceeded,
    EmbeddingUnavailable,
    IncompatibleIndex,
    InternalError,
    InvalidArgument,
    MemorydError,
    MemoryNotFound,
    MessageTooLarge,
    NotFound,
    Overloaded,
    PermissionDenied,
    PreloadScopeTimedOut,
    RateLimited,
    ReembedInProgress,
    ScopeNotPermitted,
    ShuttingDown,
    Unauthenticated,
    Unavailable,
    UnknownWriteToken,
    VersionConflict,
    WriteApplyFailed,
    WriteBacklogFull,
    WriteFailed,
    WriteInFlight,
    WriteNotYetApplied,
    error_from_status,
)

#: Each reason of the contract: the status code it comes with and the class it raises.
EXPECTED: dict[str, tuple[int, type[MemorydError]]] = {
    "INVALID_ARGUMENT": (code_pb2.INVALID_ARGUMENT, InvalidArgument),
    "MESSAGE_TOO_LARGE": (code_pb2.INVALID_ARGUMENT, MessageTooLarge),
    "MEMORY_NOT_FOUND": (code_pb2.NOT_FOUND, MemoryNotFound),
    "UNKNOWN_WRITE_TOKEN": (code_pb2.NOT_FOUND, UnknownWriteToken),
    "VERSION_MISMATCH": (code_pb2.ABORTED, VersionConflict),
    "INCOMPATIBLE_INDEX": (code_pb2.FAILED_PRECONDITION, IncompatibleIndex),
    "EMBEDDING_UNAVAILABLE": (code_pb2.UNAVAILABLE, EmbeddingUnavailable),
    "WRITE_BACKLOG_FULL": (code_pb2.RESOURCE_EXHAUSTED, WriteBacklogFull),
    "SHUTTING_DOWN": (code_pb2.UNAVAILABLE, ShuttingDown),
    "WRITE_NOT_YET_APPLIED": (code_pb2.DEADLINE_EXCEEDED, WriteNotYetApplied),
    "WRITE_FAILED": (code_pb2.UNAVAILABLE, WriteApplyFailed),
    "PRELOAD_SCOPE_TIMED_OUT": (code_pb2.DEADLINE_EXCEEDED, PreloadScopeTimedOut),
    "UNAUTHENTICATED": (code_pb2.UNAUTHENTICATED, Unauthenticated),
    "SCOPE_NOT_PERMITTED": (code_pb2.PERMISSION_DENIED, ScopeNotPermitted),
    "RATE_LIMITED": (code_pb2.RESOURCE_EXHAUSTED, RateLimited),
    "INTERNAL": (code_pb2.INTERNAL, InternalError),
    "CHANGE_HISTORY_EXPIRED": (code_pb2.OUT_OF_RANGE, ChangeHistoryExpired),
    "REEMBED_IN_PROGRESS": (code_pb2.FAILED_PRECONDITION, ReembedInProgress),
}

#: The class of each code, which every reason's class must be (or extend).
CODE_CLASS = {
    code_pb2.INVALID_ARGUMENT: InvalidArgument,
    code_pb2.OUT_OF_RANGE: InvalidArgument,
    code_pb2.NOT_FOUND: NotFound,
    code_pb2.ABORTED: VersionConflict,
    code_pb2.FAILED_PRECONDITION: MemorydError,
    code_pb2.UNAVAILABLE: Unavailable,
    code_pb2.RESOURCE_EXHAUSTED: Overloaded,
    code_pb2.DEADLINE_EXCEEDED: DeadlineExceeded,
    code_pb2.UNAUTHENTICATED: Unauthenticated,
    code_pb2.PERMISSION_DENIED: PermissionDenied,
    code_pb2.INTERNAL: InternalError,
}

REASONS = [
    name.removeprefix("ERROR_REASON_")
    for name, number in svc.ErrorReason.items()
    if number != svc.ERROR_REASON_UNSPECIFIED
]


def _packed(*details: Message) -> list[any_pb2.Any]:
    packed = []
    for detail in details:
        holder = any_pb2.Any()
        holder.Pack(detail)
        packed.append(holder)
    return packed


def _status(code: int, reason: str = "", *extra: Message, domain: str = "memoryd") -> Message:
    infos = [error_details_pb2.ErrorInfo(reason=reason, domain=domain)] if reason else []
    return status_pb2.Status(code=code, message="it failed", details=_packed(*infos, *extra))


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_of_the_contract_raises_its_own_class(reason: str) -> None:
    assert reason in EXPECTED, f"ErrorReason {reason} has no client class; add one"
    code, expected = EXPECTED[reason]
    error = error_from_status(_status(code, reason))
    assert type(error) is expected
    assert isinstance(error, CODE_CLASS[code])
    assert (error.code, error.reason, error.message) == (
        code_pb2.Code.Name(code),
        reason,
        "it failed",
    )


def test_no_two_reasons_share_a_class() -> None:
    classes = [expected for _, expected in EXPECTED.values()]
    assert len(set(classes)) == len(classes)


def test_an_unknown_write_token_is_not_a_missing_memory() -> None:
    resource = error_details_pb2.ResourceInfo(resource_type="write", resource_name="abc-1")
    error = error_from_status(_status(code_pb2.NOT_FOUND, "UNKNOWN_WRITE_TOKEN", resource))
    assert isinstance(error, UnknownWriteToken) and isinstance(error, NotFound)
    assert not isinstance(error, MemoryNotFound)
    assert error.write_token == "abc-1"


def test_a_bare_not_found_is_a_missing_memory_and_an_unknown_reason_its_codes_class() -> None:
    assert type(error_from_status(_status(code_pb2.NOT_FOUND))) is MemoryNotFound
    assert type(error_from_status(_status(code_pb2.NOT_FOUND, "SOMETHING_NEW"))) is NotFound
    assert type(error_from_status(_status(code_pb2.UNAVAILABLE, "SOMETHING_NEW"))) is Unavailable
    foreign = _status(code_pb2.NOT_FOUND, "UNKNOWN_WRITE_TOKEN", domain="proxy.example")
    assert type(error_from_status(foreign)) is NotFound


def test_details_reach_the_error() -> None:
    violation = error_details_pb2.BadRequest.FieldViolation(field="memory.content", description="x")
    too_large = error_details_pb2.ErrorInfo(
        reason="MESSAGE_TOO_LARGE",
        domain="memoryd",
        metadata={"size_bytes": "9000", "limit_bytes": "4096"},
    )
    error = error_from_status(
        status_pb2.Status(
            code=code_pb2.INVALID_ARGUMENT,
            details=_packed(too_large, error_details_pb2.BadRequest(field_violations=[violation])),
        )
    )
    assert isinstance(error, MessageTooLarge)
    assert (error.size_bytes, error.limit_bytes) == (9000, 4096)
    assert [v.field for v in error.field_violations] == ["memory.content"]

    delay = duration_pb2.Duration()
    delay.FromTimedelta(timedelta(seconds=1.5))
    retry = error_details_pb2.RetryInfo(retry_delay=delay)
    limited = error_from_status(_status(code_pb2.RESOURCE_EXHAUSTED, "RATE_LIMITED", retry))
    assert isinstance(limited, RateLimited) and limited.retry_after == 1.5

    memory = error_details_pb2.ResourceInfo(resource_type="memory", resource_name="m1")
    missing = error_from_status(_status(code_pb2.NOT_FOUND, "MEMORY_NOT_FOUND", memory))
    assert isinstance(missing, MemoryNotFound) and missing.memory_id == "m1"

    incident = error_details_pb2.ErrorInfo(
        reason="INTERNAL", domain="memoryd", metadata={"incident": "abc123"}
    )
    internal = error_from_status(
        status_pb2.Status(code=code_pb2.INTERNAL, details=_packed(incident))
    )
    assert isinstance(internal, InternalError) and internal.incident == "abc123"


def test_client_side_reasons_keep_their_names() -> None:
    in_flight = error_from_status(_status(code_pb2.DEADLINE_EXCEEDED, "WRITE_IN_FLIGHT"))
    assert isinstance(in_flight, WriteInFlight) and isinstance(in_flight, DeadlineExceeded)
    failed = WriteFailed(
        "abc-1", error_from_status(_status(code_pb2.NOT_FOUND, "MEMORY_NOT_FOUND"))
    )
    assert (failed.write_token, failed.code, failed.reason) == (
        "abc-1",
        "NOT_FOUND",
        "MEMORY_NOT_FOUND",
    )
    assert isinstance(failed.cause, MemoryNotFound)
