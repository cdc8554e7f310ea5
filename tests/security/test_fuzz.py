"""Hypothesis fuzzing of every RPC, with authentication off, and with JWT auth and the policy on.

Requests come from fuzz_requests.py. Every answer must be a defined status
(never UNKNOWN or INTERNAL), and the server must stay up. A rejected request,
and every read, must leave the whole data set unchanged: every memory of
every pool scope, compared by a full ListMemories of each (fuzzkit.py). A
good share of each RPC's cases must succeed, so the fuzz reaches the policy,
the journal and the engine, not only validation. When the server stops, the
engine's files must hold exactly the memories the pool's scopes list.
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
READS = {"GetMemory", "ListMemories", "SearchMemories", "GetWriteStatus", "Preload"}
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
    env = JWT_ENV if policy_on else {}
    server = ServerProcess(tmp_path_factory.mktemp(f"memoryd-fuzz-{request.param}"), env=env)
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


def _weighted(callers: dict[str, Metadata]) -> list[str]:
    others = sorted(set(callers) - {"trusted-service"})
    return ["trusted-service"] * len(others) + others if "trusted-service" in callers else others


def _call(stub: Stub, rpc: str, request: Any, metadata: Metadata) -> Any:
    if rpc == "Preload":
        return list(stub.Preload(request, metadata=metadata, timeout=30))
    return getattr(stub, rpc)(request, metadata=metadata, timeout=30)


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
    @given(request=requests.requests(rpc), caller=st.sampled_from(_weighted(target.callers)))
    def check(request: Any, caller: str) -> None:
        nonlocal snapshot
        code, outcome = code_of(_call, target.stub, rpc, request, target.callers[caller])
        counts[code.name] = counts.get(code.name, 0) + 1
        assert code not in NEVER, f"{code}: {outcome}"
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
    assert ok_share(counts) >= MIN_OK_SHARE, f"{rpc}: too few cases succeed: {counts}"
    if target.operator and rpc != "GetWriteStatus":
        # The policy decided cases too. (GetWriteStatus answers a write outside
        # the caller's scopes as NOT_FOUND, like an unknown token, so it reveals
        # nothing; the isolation matrix tells those apart.)
        assert counts.get("PERMISSION_DENIED", 0) > 0, f"{rpc}: the policy denied nothing"
