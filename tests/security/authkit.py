"""Tokens, callers and helpers shared by the security tests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import grpc
import jwt
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

SECRET = "matrix-test-secret-0123456789abcdef"
AUDIENCE = "memoryd"
ISSUER = "https://issuer.test"
ALICE = "alice"
BOB = "bob"
AGENT = "bot"


def token(secret: str = SECRET, *, lifetime: float = 3600, **claims: Any) -> str:
    now = int(time.time())
    body = {"aud": AUDIENCE, "iss": ISSUER, "iat": now, "exp": now + lifetime, **claims}
    return jwt.encode(body, secret, algorithm="HS256")


#: Each caller of the matrix: the metadata it sends.
CALLERS: dict[str, tuple[tuple[str, str], ...]] = {
    "same_user": (
        ("authorization", "Bearer " + token(user_id=ALICE, scope=f"agent_memory:read:{AGENT}")),
    ),
    "other_user": (("authorization", "Bearer " + token(user_id=BOB)),),
    "service_as_user": (
        ("authorization", "Bearer " + token(sub="runtime", scope="memory:act_as_user")),
    ),
    "service_without_scope": (("authorization", "Bearer " + token(sub="runtime-2")),),
    "agent_memory_writer": (
        ("authorization", "Bearer " + token(sub="agent-app", scopes=["agent_memory:write"])),
    ),
    "no_credentials": (),
    "expired_token": (("authorization", "Bearer " + token(user_id=ALICE, lifetime=-120)),),
    "wrong_signature": (
        ("authorization", "Bearer " + token("not-the-secret-0123456789abcdef!", user_id=ALICE)),
    ),
}

ADMIN = (
    (
        "authorization",
        "Bearer " + token(sub="admin", scope="memory:act_as_user agent_memory:write memory:admin"),
    ),
)


def write_config(path: Path, text: str) -> dict[str, str]:
    path.write_text(text)
    return {"MEMORYD_CONFIG_FILE": str(path)}


def code_of(call: Any, *args: Any, **kwargs: Any) -> tuple[grpc.StatusCode, Any]:
    """The status code of a call and its response, or the error."""
    try:
        return grpc.StatusCode.OK, call(*args, **kwargs)
    except grpc.RpcError as error:
        return error.code(), error


def rich_status(error: grpc.RpcError) -> status_pb2.Status:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            return status_pb2.Status.FromString(value)
    raise AssertionError("no google.rpc.Status in the trailers")


def details_of[T: Message](error: grpc.RpcError, message_type: type[T]) -> list[T]:
    """The error details of one type that a failed call carries."""
    found = []
    for detail in rich_status(error).details:
        if detail.Is(message_type.DESCRIPTOR):
            message = message_type()
            detail.Unpack(message)
            found.append(message)
    return found


def expect_error(code: grpc.StatusCode, call: Any, *args: Any, **kwargs: Any) -> grpc.RpcError:
    """Calls and asserts the RPC fails with ``code`` and one memoryd ErrorInfo."""
    actual, error = code_of(call, *args, **kwargs)
    assert actual == code, f"{actual}: {error}"
    infos = details_of(error, error_details_pb2.ErrorInfo)
    assert len(infos) == 1 and infos[0].domain == "memoryd"
    return error
