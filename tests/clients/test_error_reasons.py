"""Each error reason a caller can provoke raises its own class, against real servers."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from memoryd_client import (
    AsyncMemorydClient,
    InvalidArgument,
    MemorydClient,
    MemoryNotFound,
    MessageTooLarge,
    NotFound,
    PermissionDenied,
    RateLimited,
    ScopeNotPermitted,
    Unauthenticated,
    UnknownWriteToken,
    VersionConflict,
    pb,
    svc,
)

from support import ServerProcess

SYNC = svc.WRITE_MODE_SYNC
ALICE_KEY, BURSTY_KEY = "mk_alice_3f9c2e1d7b6a", "mk_bursty_8e7d6c5b4a39"
#: Requests a principal may send at once on the auth server before RATE_LIMITED.
BURST = 5


def _create(content: str, user: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=pb.Scope(user_id=user)), mode=SYNC
    )


def test_a_missing_memory_is_memory_not_found(client: MemorydClient, user: str) -> None:
    request = svc.GetMemoryRequest(id="no-such-memory", scope=pb.Scope(user_id=user))
    with pytest.raises(MemoryNotFound) as missing:
        client.get_memory(request)
    assert (missing.value.reason, missing.value.memory_id) == ("MEMORY_NOT_FOUND", "no-such-memory")


def test_a_token_of_another_journal_is_an_unknown_write_token_not_a_missing_memory(
    server: ServerProcess,
) -> None:
    with MemorydClient(server.address) as client:
        with pytest.raises(UnknownWriteToken) as unknown:
            client.get_write_status("abc-1")
        with pytest.raises(UnknownWriteToken):
            client.wait_for_write("abc-1")
    assert isinstance(unknown.value, NotFound)
    assert not isinstance(unknown.value, MemoryNotFound)
    assert unknown.value.reason == "UNKNOWN_WRITE_TOKEN"

    async def status() -> None:
        async with AsyncMemorydClient(server.address) as client:
            await client.get_write_status("abc-1")

    with pytest.raises(UnknownWriteToken):
        asyncio.run(status())


def test_a_bad_field_is_invalid_argument(client: MemorydClient, user: str) -> None:
    with pytest.raises(InvalidArgument) as bad:
        client.create_memory(_create("", user))
    assert type(bad.value) is InvalidArgument and bad.value.reason == "INVALID_ARGUMENT"
    assert [v.field for v in bad.value.field_violations] == ["memory.content"]


def test_a_request_over_the_message_limit_is_message_too_large(
    client: MemorydClient, user: str
) -> None:
    # Over the default 8 MiB message limit, under what gRPC itself lets in.
    with pytest.raises(MessageTooLarge) as too_large:
        client.create_memory(_create("x" * (9 * 1024 * 1024), user), timeout=30)
    error = too_large.value
    assert isinstance(error, InvalidArgument) and error.reason == "MESSAGE_TOO_LARGE"
    assert error.limit_bytes is not None and error.size_bytes is not None
    assert error.size_bytes > error.limit_bytes


def test_a_stale_expected_version_is_a_version_conflict(client: MemorydClient, user: str) -> None:
    created = client.create_memory(_create("I'm in UTC-5", user)).memory
    update = svc.UpdateMemoryRequest(
        memory=pb.Memory(id=created.id, scope=created.scope, content="I'm in UTC+1"),
        expected_version=created.version + 7,
        mode=SYNC,
    )
    update.update_mask.paths.append("content")
    with pytest.raises(VersionConflict) as stale:
        client.update_memory(update)
    assert (stale.value.code, stale.value.reason) == ("ABORTED", "VERSION_MISMATCH")


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server in auth mode api_key: ALICE_KEY and BURSTY_KEY are users alice and dave,
    each allowed BURST requests at once."""
    keys = {
        hashlib.sha256(key.encode()).hexdigest(): {"user_id": user}
        for key, user in ((ALICE_KEY, "alice"), (BURSTY_KEY, "dave"))
    }
    env = {
        "MEMORYD_AUTH_MODE": "api_key",
        "MEMORYD_API_KEYS": json.dumps(keys),
        "MEMORYD_RATE_LIMIT_PER_SECOND": "0.01",
        "MEMORYD_RATE_LIMIT_BURST": str(BURST),
    }
    process = ServerProcess(Path(tmp_path_factory.mktemp("auth")) / "data", env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


def _list(user: str) -> svc.ListMemoriesRequest:
    return svc.ListMemoriesRequest(scope=pb.Scope(user_id=user))


def test_no_credentials_is_unauthenticated(auth_server: ServerProcess) -> None:
    with MemorydClient(auth_server.address) as client, pytest.raises(Unauthenticated) as refused:
        client.list_memories(_list("alice"))
    assert refused.value.reason == "UNAUTHENTICATED"


def test_another_users_scope_is_scope_not_permitted(auth_server: ServerProcess) -> None:
    with MemorydClient(auth_server.address, token=ALICE_KEY) as client:
        client.list_memories(_list("alice"))
        with pytest.raises(ScopeNotPermitted) as refused:
            client.list_memories(_list("bob"))
    assert isinstance(refused.value, PermissionDenied)
    assert refused.value.reason == "SCOPE_NOT_PERMITTED"


def test_a_burst_over_the_rate_limit_is_rate_limited(auth_server: ServerProcess) -> None:
    with MemorydClient(auth_server.address, token=BURSTY_KEY) as client:
        with pytest.raises(RateLimited) as limited:
            for _ in range(BURST + 1):
                client.list_memories(_list("dave"))
    assert limited.value.reason == "RATE_LIMITED"
    assert limited.value.retry_after is not None and limited.value.retry_after > 0
