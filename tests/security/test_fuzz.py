"""Hypothesis fuzzing of every RPC, with authentication off, and with JWT auth and the policy on.

Requests come from fuzz_requests.py. Every answer must be a defined status
(never UNKNOWN or INTERNAL), and the server must stay up. A rejected request,
and every read, must leave the whole data set unchanged: every memory of
every pool scope, compared by a full ListMemories of each (fuzzkit.py). A
good share of each RPC's cases must succeed, so the fuzz reaches the policy,
the journal and the engine, not only validation. When the server stops, the
engine's files must hold exactly the memories the pool's scopes list.

StartReembed is the exception to the success share: on these servers no
request can start a re-embedding (only the local embedder is available, and it
is the current one), so every case must be refused and nothing may change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.v1 import memory_service_pb2 as svc

from authkit import code_of, token
from fuzz_requests import SERVICE, Requests
from fuzzkit import (
    AGENTS,
    JWT_ENV,
    USERS,
    Metadata,
    Snapshot,
    Stub,
    data_set,
    first_page_tokens,
    ok_share,
    seed,
    stored_owners_and_ids,
    write_token_of,
)
from support import ServerProcess

NEVER = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
READS = {
    "GetMemory",
    "ListMemories",
    "SearchMemories",
    "GetWriteStatus",
    "Preload",
    "ExportMemories",
    "WatchMemories",
    "GetStats",
    "GetReembedStatus",
}
#: For unrestricted principals and those granted memory:admin only.
ADMIN_ONLY = {"GetStats", "StartReembed", "GetReembedStatus"}
#: What StartReembed may answer here, where no case can start a job: a bad or
#: current embedder, or a caller that is not an admin.
REEMBED_REFUSALS = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED,
}
#: Below this share of OK answers, a fuzz run would mostly test validation.
MIN_OK_SHARE = 0.25


def _bearer(**claims: Any) -> Metadata:
    return (("authorization", "Bearer " + token(**claims)),)


#: The callers of the policy-on server, one drawn per case: half the cases
#: from the trusted service, which may do everything, so that they get past the
#: policy; the rest from callers the policy lets do some things or nothing.
PRINCIPALS: dict[str, Metadata] = {
    "trusted-service": _bearer(
        sub="fuzz-trusted", scope="memory:act_as_user agent_memory:write agent_memory:read"
    ),
    "user-1": _bearer(user_id=USERS[0], scope=f"agent_memory:read:{AGENTS[0]}"),
    "user-2": _bearer(user_id=USERS[1]),
    "service": _bearer(sub="fuzz-runtime", scope="memory:act_as_user"),
    "agent-writer": _bearer(sub="fuzz-agent-app", scopes=["agent_memory:write"]),
    # The one caller the admin-only RPCs let in (_weighted favours it for those).
    "admin": _bearer(sub="fuzz-admin", scope="memory:admin"),
    "no-grants": _bearer(sub="fuzz-nobody"),
    "expired": _bearer(user_id=USERS[0], lifetime=-120),
}
#: Seeds every scope, and lists every scope, on the policy-on server.
OPERATOR = _bearer(sub="fuzz-operator", scope="memory:act_as_user agent_memory:write")


@dataclass
class Target:
    """A server under fuzz, the callers it is fuzzed with, and what it holds."""

    server: ServerProcess
    stub: Stub
    callers: dict[str, Metadata]
    operator: Metadata
    last_write_token: str = ""


@pytest.fixture(scope="module", params=["auth-off", "jwt-policy-on"])
def target(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Target]:
    policy_on = request.param == "jwt-policy-on"
    # Only the local embedder, whatever the environment says: then no fuzzed
    # StartReembed can start a re-embedding (it would rebuild the index).
    env = {**(JWT_ENV if policy_on else {}), "MEMORYD_EMBEDDER": "local"}
    server = ServerProcess(tmp_path_factory.mktemp(f"memoryd-fuzz-{request.param}"), env=env)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MEMORYD_GEMINI_API_KEY", raising=False)
        patch.delenv("MEMORYD_CONFIG_FILE", raising=False)
        server.start()
    with server.channel() as channel:
        stub = Stub(channel)
        if policy_on:
            fuzzed = Target(server, stub, PRINCIPALS, OPERATOR)
        else:
            fuzzed = Target(server, stub, {"anyone": ()}, ())
        yield fuzzed
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        listed = data_set(stub, fuzzed.operator, fuzzed.last_write_token)
    assert server.stop() == 0, "".join(server.log)
    # Nothing outside the pool's scopes: the engine holds what they list, no more.
    assert stored_owners_and_ids(server.data_dir) == set(listed)


def _weighted(callers: dict[str, Metadata], rpc: str) -> list[str]:
    """Half the cases from the caller the policy lets do the RPC (the admin for
    the admin-only RPCs), the rest from every other caller."""
    favoured = "admin" if rpc in ADMIN_ONLY else "trusted-service"
    others = sorted(set(callers) - {favoured})
    return [favoured] * len(others) + others if favoured in callers else others


def _call(stub: Stub, rpc: str, request: Any, metadata: Metadata) -> Any:
    match rpc:
        case "Preload" | "ExportMemories":
            return list(getattr(stub, rpc)(request, metadata=metadata, timeout=30))
        case "ImportMemories":
            return stub.ImportMemories(iter([request]), metadata=metadata, timeout=30)
        case "WatchMemories":
            # The stream never ends by itself: its first event, or its error, then cancel.
            call = stub.WatchMemories(request, metadata=metadata, timeout=30)
            try:
                return [next(call)]
            finally:
                call.cancel()
    return getattr(stub, rpc)(request, metadata=metadata, timeout=30)


def _check_answer(rpc: str, code: grpc.StatusCode, outcome: Any) -> None:
    """What the streams must answer besides a defined status."""
    if rpc == "WatchMemories":
        # Its first event comes at once: a deadline here is a hang.
        assert code != grpc.StatusCode.DEADLINE_EXCEEDED, f"{rpc} hung: {outcome}"
        if code == grpc.StatusCode.OK:
            assert outcome[0].WhichOneof("event") == "started", outcome
    if rpc == "ExportMemories" and code == grpc.StatusCode.OK:
        assert outcome and outcome[0].HasField("header"), outcome
    if rpc == "StartReembed":
        assert code in REEMBED_REFUSALS, f"{rpc} answered {code.name}: {outcome}"


def _changes_nothing(rpc: str, request: Any) -> bool:
    return rpc in READS or (rpc == "ForgetMemories" and request.dry_run)


@pytest.mark.parametrize("rpc", [m.name for m in SERVICE.methods])
def test_fuzzed_requests_get_defined_statuses_and_change_only_what_they_may(
    target: Target, rpc: str
):
    write_tokens = seed(target.stub, target.operator)
    target.last_write_token = write_tokens[-1]
    requests = Requests(write_tokens, first_page_tokens(target.stub, target.operator))
    snapshot: Snapshot = data_set(target.stub, target.operator)
    counts: dict[str, int] = {}

    @settings(suppress_health_check=list(HealthCheck))
    @given(request=requests.requests(rpc), caller=st.sampled_from(_weighted(target.callers, rpc)))
    def check(request: Any, caller: str) -> None:
        nonlocal snapshot
        code, outcome = code_of(_call, target.stub, rpc, request, target.callers[caller])
        counts[code.name] = counts.get(code.name, 0) + 1
        assert code not in NEVER, f"{code}: {outcome}"
        _check_answer(rpc, code, outcome)
        written = write_token_of(outcome) if code == grpc.StatusCode.OK else ""
        target.last_write_token = written or target.last_write_token
        after = data_set(target.stub, target.operator, written)
        if code != grpc.StatusCode.OK or _changes_nothing(rpc, request):
            assert after == snapshot, f"{caller} got {code.name}, yet the data set changed"
        elif rpc in ("DeleteMemory", "ForgetMemories"):
            # Put deleted seeds back, so that later cases find memories to act on.
            restored = seed(target.stub, target.operator, present=after)
            if restored:
                after = data_set(target.stub, target.operator)
        snapshot = after

    check()
    print(f"{rpc}: {sum(counts.values())} cases, statuses {counts}")  # shown by pytest -s
    if rpc == "StartReembed":
        # No case can succeed by design (see REEMBED_REFUSALS): each was refused
        # (check() asserted it, and that the data set stayed the same), and no job ran.
        admin = target.callers.get("admin", target.operator)
        status = target.stub.GetReembedStatus(
            svc.GetReembedStatusRequest(), metadata=admin, timeout=30
        ).status
        assert status.state == svc.REEMBED_STATE_UNSPECIFIED, status
    else:
        assert ok_share(counts) >= MIN_OK_SHARE, f"{rpc}: too few cases succeed: {counts}"
    if target.operator and rpc != "GetWriteStatus":
        # The policy decided cases too. (GetWriteStatus answers a write outside
        # the caller's scopes as NOT_FOUND, like an unknown token, so it reveals
        # nothing; the isolation matrix tells those apart.)
        assert counts.get("PERMISSION_DENIED", 0) > 0, f"{rpc}: the policy denied nothing"
