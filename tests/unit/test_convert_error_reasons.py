"""api/errors.py: the server sends exactly the contract's ErrorReasons, each for its own error."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from memoryd.api.errors import DOMAIN, internal_status, status_for, status_table
from memoryd.core import errors
from memoryd.v1 import memory_service_pb2 as svc

#: One instance of each mapped domain error, to send through status_for.
SAMPLES: dict[type[Exception], Exception] = {
    errors.MessageTooLarge: errors.MessageTooLarge(2048, 1024),
    errors.InvalidArgument: errors.InvalidArgument("memory.content", "must not be empty"),
    errors.MemoryNotFound: errors.MemoryNotFound("m1"),
    errors.VersionConflict: errors.VersionConflict("m1", expected=1, actual=2),
    errors.IncompatibleIndex: errors.IncompatibleIndex("built for another embedder"),
    errors.EmbeddingError: errors.EmbeddingError("provider unavailable"),
    errors.Overloaded: errors.Overloaded(backlog=10, retry_after=1.5),
    errors.ShuttingDown: errors.ShuttingDown(),
    errors.WriteNotApplied: errors.WriteNotApplied("w1"),
    errors.WriteFailed: errors.WriteFailed("gave up after retries"),
    errors.UnknownWrite: errors.UnknownWrite("w1"),
    errors.ScopeTimedOut: errors.ScopeTimedOut("user"),
    errors.Unauthenticated: errors.Unauthenticated("no token"),
    errors.PermissionDenied: errors.PermissionDenied("write agent memory"),
    errors.RateLimited: errors.RateLimited(retry_after=0.25),
    errors.ChangeHistoryExpired: errors.ChangeHistoryExpired(3, 10, 20),
    errors.ReembedInProgress: errors.ReembedInProgress("gemini"),
}


def error_info(status: status_pb2.Status) -> error_details_pb2.ErrorInfo:
    infos = [d for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)]
    assert len(infos) == 1, status
    info = error_details_pb2.ErrorInfo()
    infos[0].Unpack(info)
    return info


def domain_errors(base: type[Exception] = errors.MemorydError) -> set[type[Exception]]:
    """The errors core declares (adapters' start-up errors never reach a call)."""
    below = {c for c in base.__subclasses__() if c.__module__ == errors.__name__}
    return below.union(*(domain_errors(c) for c in below))


def test_the_sent_reasons_are_exactly_the_contracts() -> None:
    sent = {reason for _, reason in status_table().values()} | {svc.ERROR_REASON_INTERNAL}
    defined = set(svc.ErrorReason.values()) - {svc.ERROR_REASON_UNSPECIFIED}
    assert sent == defined


def test_no_reason_is_sent_for_two_errors() -> None:
    reasons = [reason for _, reason in status_table().values()]
    assert len(reasons) == len(set(reasons))
    assert svc.ERROR_REASON_INTERNAL not in reasons


def test_every_domain_error_has_a_status_of_its_own() -> None:
    assert set(status_table()) == domain_errors()


@pytest.mark.parametrize(
    ("error_class", "code", "reason"),
    [(error_class, code, reason) for error_class, (code, reason) in status_table().items()],
    ids=lambda v: v.__name__ if isinstance(v, type) else None,
)
def test_each_domain_error_is_sent_with_its_code_and_reason(
    error_class: type[Exception], code: grpc.StatusCode, reason: int
) -> None:
    status = status_for(SAMPLES[error_class])
    info = error_info(status)
    assert status.code == code.value[0]
    assert info.reason == svc.ErrorReason.Name(reason).removeprefix("ERROR_REASON_")
    assert info.domain == DOMAIN


def test_an_unexpected_error_is_internal_with_its_reason() -> None:
    status = internal_status("abc123")
    info = error_info(status)
    assert status.code == grpc.StatusCode.INTERNAL.value[0]
    assert info.reason == "INTERNAL"
    assert info.metadata["incident"] == "abc123"
