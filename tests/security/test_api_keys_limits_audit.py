"""API-key auth, the per-principal rate limit, the request limits and the audit log."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import grpc
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2

from memoryd.api.credentials import api_key_hash
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import code_of, details_of, expect_error, write_config
from support import ServerProcess

USER_KEY = "mk_user_4c1e0f6b2a9d"
SERVICE_KEY = "mk_service_77ab3e5d10c4"
BURSTY_KEY = "mk_bursty_0d9e8f7a6b5c"
AUDITED_KEY = "mk_audited_5e2b7c9d1a3f"
SECRET_CONTENT = "the launch code is 0000-swordfish"

Stub = memory_service_pb2_grpc.MemoryServiceStub


@pytest.fixture(scope="module")
def key_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("memoryd-keys")
    env = write_config(
        root / "memoryd.toml",
        f"""
auth_mode = "api_key"
rate_limit_per_second = 50.0
rate_limit_burst = 1000
max_metadata_keys = 4
max_batch_size = 3
max_search_limit = 10

[api_keys.{api_key_hash(USER_KEY)}]
user_id = "carol"

[api_keys.{api_key_hash(SERVICE_KEY)}]
service = "agent-runtime"
scopes = ["memory:act_as_user", "agent_memory:write"]

[api_keys.{api_key_hash(BURSTY_KEY)}]
user_id = "dave"

[api_keys.{api_key_hash(AUDITED_KEY)}]
user_id = "frank"
""",
    )
    process = ServerProcess(root / "data", env=env)
    process.start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def key_stub(key_server: ServerProcess) -> Iterator[Stub]:
    with key_server.channel() as channel:
        yield memory_service_pb2_grpc.MemoryServiceStub(channel)


def _bearer(key: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {key}"),)


def _create(content: str, **scope: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=pb.Scope(**scope)), mode=svc.WRITE_MODE_SYNC
    )


def test_api_keys_name_their_principal(key_stub: Stub):
    created = key_stub.CreateMemory(_create("carol drinks tea"), metadata=_bearer(USER_KEY))
    assert created.memory.scope.user_id == "carol"
    code, _ = code_of(
        key_stub.CreateMemory, _create("x", user_id="erin"), metadata=_bearer(USER_KEY)
    )
    assert code == grpc.StatusCode.PERMISSION_DENIED
    acted = key_stub.CreateMemory(
        _create("erin drinks coffee", user_id="erin"), metadata=_bearer(SERVICE_KEY)
    )
    assert acted.memory.scope.user_id == "erin"
    shared = key_stub.CreateMemory(
        _create("bot rule", agent_id="bot"), metadata=_bearer(SERVICE_KEY)
    )
    assert shared.memory.scope.agent_id == "bot"
    for metadata in ((), _bearer("mk_unknown"), (("authorization", USER_KEY),)):
        error = expect_error(
            grpc.StatusCode.UNAUTHENTICATED,
            key_stub.ListMemories,
            svc.ListMemoriesRequest(scope=pb.Scope(user_id="carol")),
            metadata=metadata,
        )
        assert USER_KEY not in error.details()


def test_health_needs_no_credentials(key_server: ServerProcess):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with key_server.channel() as channel:
        health = health_pb2_grpc.HealthStub(channel)
        answer = health.Check(health_pb2.HealthCheckRequest())
    assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_rate_limit_is_per_principal_with_retry_info(tmp_path):
    # A server of its own, with a small burst, so the other tests never hit it.
    env = write_config(
        tmp_path / "memoryd.toml",
        f"""
auth_mode = "api_key"
rate_limit_per_second = 0.5
rate_limit_burst = 2
[api_keys.{api_key_hash(BURSTY_KEY)}]
user_id = "dave"
[api_keys.{api_key_hash(USER_KEY)}]
user_id = "carol"
""",
    )
    process = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            request = svc.ListMemoriesRequest(scope=pb.Scope())
            for _ in range(2):
                stub.ListMemories(request, metadata=_bearer(BURSTY_KEY))
            error = expect_error(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                stub.ListMemories,
                request,
                metadata=_bearer(BURSTY_KEY),
            )
            retry = details_of(error, error_details_pb2.RetryInfo)
            delay = retry[0].retry_delay.ToTimedelta()
            assert timedelta(0) < delay <= timedelta(seconds=2)
            stub.ListMemories(request, metadata=_bearer(USER_KEY))  # carol has her own bucket
    finally:
        assert process.stop() == 0


@pytest.mark.parametrize(
    ("call", "field", "limit"),
    [
        (
            lambda s, md: s.CreateMemory(
                svc.CreateMemoryRequest(
                    memory=_with_metadata({f"k{i}": i for i in range(5)}),
                    mode=svc.WRITE_MODE_SYNC,
                ),
                metadata=md,
            ),
            "memory.metadata",
            "max_metadata_keys",
        ),
        (
            lambda s, md: s.BatchCreateMemories(
                svc.BatchCreateMemoriesRequest(
                    requests=[_create(f"item {i}") for i in range(4)], mode=svc.WRITE_MODE_SYNC
                ),
                metadata=md,
            ),
            "requests",
            "max_batch_size",
        ),
        (
            lambda s, md: s.SearchMemories(
                svc.SearchMemoriesRequest(query="tea", scope=pb.Scope(), limit=11), metadata=md
            ),
            "limit",
            "max_search_limit",
        ),
    ],
)
def test_limits_answer_invalid_argument_naming_the_limit(key_stub: Stub, call, field, limit):
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, key_stub, _bearer(USER_KEY))
    violations = details_of(error, error_details_pb2.BadRequest)[0].field_violations
    assert [v.field for v in violations] == [field]
    assert limit in error.details()


def _with_metadata(values: dict[str, int]) -> pb.Memory:
    memory = pb.Memory(content="many keys")
    memory.metadata.update(values)
    return memory


MUTATING_RPCS = {
    m.name
    for m in svc.DESCRIPTOR.services_by_name["MemoryService"].methods
    if m.GetOptions().idempotency_level != descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS
}


def _audit_lines(server: ServerProcess, principal: str, count: int) -> list[str]:
    """The first ``count`` audit lines of ``principal``, once the log has them."""
    deadline = time.monotonic() + 10
    while True:
        lines = [
            line.split("audit ", 1)[1].strip()
            for line in list(server.log)
            if "memoryd.audit" in line and f"principal={principal} " in line
        ]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)  # the log reaches us through a pipe, read by another thread


def _import_into(scope: pb.Scope) -> svc.ImportMemoriesRequest:
    memory = pb.Memory(id="imported-1", content="frank's secret import", scope=scope, version=1)
    return svc.ImportMemoriesRequest(memories=[svc.ExportedMemory(memory=memory)])


def test_every_mutating_rpc_leaves_one_audit_line_without_content(
    key_stub: Stub, key_server: ServerProcess
):
    # Every RPC the contract does not mark NO_SIDE_EFFECTS mutates, and is audited.
    assert MUTATING_RPCS == {
        "CreateMemory",
        "BatchCreateMemories",
        "UpdateMemory",
        "DeleteMemory",
        "ForgetMemories",
        "ImportMemories",
        "StartReembed",
    }
    sync, mine, erin = svc.WRITE_MODE_SYNC, pb.Scope(), pb.Scope(user_id="erin")
    key = _bearer(AUDITED_KEY)
    created = key_stub.CreateMemory(_create(SECRET_CONTENT), metadata=key).memory.id
    draft = _create("frank's secret two")
    draft.memory.category = "drafts"
    batch = svc.BatchCreateMemoriesRequest(requests=[_create("frank's secret one"), draft])
    batch.mode = sync
    first, second = (r.memory.id for r in key_stub.BatchCreateMemories(batch, metadata=key).results)
    update = svc.UpdateMemoryRequest(
        memory=pb.Memory(id=first, scope=mine, content="the vault code is 9931"), mode=sync
    )
    update.update_mask.paths.append("content")
    key_stub.UpdateMemory(update, metadata=key)
    denied_update = svc.UpdateMemoryRequest()
    denied_update.CopyFrom(update)
    denied_update.memory.scope.user_id = "erin"
    calls = [
        (key_stub.CreateMemory, _create("denied", user_id="erin")),
        (key_stub.UpdateMemory, denied_update),
        (key_stub.DeleteMemory, svc.DeleteMemoryRequest(id=created, scope=erin)),
        (key_stub.ForgetMemories, svc.ForgetMemoriesRequest(scope=erin)),
        (
            key_stub.BatchCreateMemories,
            svc.BatchCreateMemoriesRequest(requests=[_create("x")] * 4, mode=sync),
        ),
        (key_stub.ImportMemories, iter([_import_into(erin)])),
        (key_stub.DeleteMemory, svc.DeleteMemoryRequest(id=created, scope=mine, mode=sync)),
        (key_stub.ForgetMemories, svc.ForgetMemoriesRequest(categories=["drafts"], mode=sync)),
        (key_stub.ForgetMemories, svc.ForgetMemoriesRequest(scope=mine, dry_run=True)),
        # The last line: once it is in the log, every line before it is too.
        (key_stub.ForgetMemories, svc.ForgetMemoriesRequest(scope=erin, dry_run=True)),
    ]
    codes = [code_of(call, request, metadata=key)[0].name for call, request in calls]
    assert codes == ["PERMISSION_DENIED"] * 4 + ["INVALID_ARGUMENT", "PERMISSION_DENIED"] + [
        "OK"
    ] * 3 + ["PERMISSION_DENIED"]

    lines = _audit_lines(key_server, "user:frank", 13)
    audited = "principal=user:frank rpc="
    assert lines == [
        f"{audited}CreateMemory ids={created} outcome=OK",
        f"{audited}BatchCreateMemories ids={first},{second} outcome=OK",
        f"{audited}UpdateMemory ids={first} outcome=OK",
        f"{audited}CreateMemory ids=- outcome=PERMISSION_DENIED",
        f"{audited}UpdateMemory ids={first} outcome=PERMISSION_DENIED",
        f"{audited}DeleteMemory ids={created} outcome=PERMISSION_DENIED",
        f"{audited}ForgetMemories ids=- outcome=PERMISSION_DENIED dry_run=False",
        f"{audited}BatchCreateMemories ids=- outcome=INVALID_ARGUMENT",
        f"{audited}ImportMemories ids=- outcome=PERMISSION_DENIED",
        f"{audited}DeleteMemory ids={created} outcome=OK",
        f"{audited}ForgetMemories ids=- outcome=OK deleted_count=1 dry_run=False",
        f"{audited}ForgetMemories ids=- outcome=OK deleted_count=1 dry_run=True",
        f"{audited}ForgetMemories ids=- outcome=PERMISSION_DENIED dry_run=True",
    ]
    log = "".join(key_server.log)
    for secret in ("swordfish", "frank's secret", "9931", AUDITED_KEY):
        assert secret not in log
