"""Credential fuzzing: the bytes that reach the server, on every RPC, in JWT and API-key mode.

The fuzzed ``authorization`` headers go out over raw HTTP/2 (rawgrpc.py), byte
for byte, including the ones grpc's own client refuses to send (anything but
printable ASCII), none of them, or two at once. Every call must be answered by
memoryd's authentication, UNAUTHENTICATED with memoryd's ErrorInfo, which
shows the headers were sent and read; never UNKNOWN or INTERNAL. The server
must stay up and still let a good credential in.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

import rawgrpc
from authkit import AUDIENCE, ISSUER, SECRET, code_of, token, write_config
from fuzz_requests import SERVICE
from fuzz_values import json_values
from fuzzkit import JWT_ENV, USERS
from support import ServerProcess

API_KEY = "mk_fuzz_4e0c9b2d7a11"
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED.value[0]
NEVER = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
#: Fewer cases than this per RPC would not be a fuzz run.
MIN_CASES = 20
#: One valid request per RPC: only the credentials are wrong.
REQUESTS = {
    "CreateMemory": svc.CreateMemoryRequest(
        memory=pb.Memory(content="likes tea", scope=pb.Scope(user_id=USERS[0]))
    ),
    "BatchCreateMemories": svc.BatchCreateMemoriesRequest(
        requests=[
            svc.CreateMemoryRequest(
                memory=pb.Memory(content="likes tea", scope=pb.Scope(user_id=USERS[0]))
            )
        ]
    ),
    "GetMemory": svc.GetMemoryRequest(id="m-1", scope=pb.Scope(user_id=USERS[0])),
    "ListMemories": svc.ListMemoriesRequest(scope=pb.Scope(user_id=USERS[0])),
    "UpdateMemory": svc.UpdateMemoryRequest(
        memory=pb.Memory(id="m-1", content="likes coffee", scope=pb.Scope(user_id=USERS[0]))
    ),
    "DeleteMemory": svc.DeleteMemoryRequest(id="m-1", scope=pb.Scope(user_id=USERS[0])),
    "SearchMemories": svc.SearchMemoriesRequest(query="tea", scope=pb.Scope(user_id=USERS[0])),
    "ForgetMemories": svc.ForgetMemoriesRequest(scope=pb.Scope(user_id=USERS[0]), dry_run=True),
    "GetWriteStatus": svc.GetWriteStatusRequest(write_token="x-1"),
    "Preload": svc.PreloadRequest(query="tea", user_scope=pb.Scope(user_id=USERS[0])),
    "ExportMemories": svc.ExportMemoriesRequest(scope=pb.Scope(user_id=USERS[0])),
    # A client stream: rawgrpc sends the request as its one message.
    "ImportMemories": svc.ImportMemoriesRequest(
        memories=[
            svc.ExportedMemory(
                memory=pb.Memory(
                    id="m-1", content="likes tea", scope=pb.Scope(user_id=USERS[0]), version=1
                )
            )
        ]
    ),
    # Never ends by itself once let in: the call stops at its first message.
    "WatchMemories": svc.WatchMemoriesRequest(scope=pb.Scope(user_id=USERS[0])),
    "GetStats": svc.GetStatsRequest(),
    # Refused here even with good credentials: only the local embedder, the current one.
    "StartReembed": svc.StartReembedRequest(embedder="gemini"),
    "GetReembedStatus": svc.GetReembedStatusRequest(),
}


def _jwt(claims: dict[str, Any], secret: str = SECRET, algorithm: str = "HS256") -> str:
    """A JWT of any claims: JSON as Python writes it (NaN and Infinity included),
    which PyJWT's encoder refuses for some claims."""
    header = _segment({"alg": algorithm, "typ": "JWT"})
    signed = f"{header}.{_segment(claims)}"
    if algorithm == "none":
        return f"{signed}."
    digest = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{base64.urlsafe_b64encode(digest).rstrip(b'=').decode()}"


def _segment(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


#: Near misses: the right shape with something wrong, for both modes.
NEAR_MISSES = [
    b"Bearer",
    b"Bearer ",
    b"Bearer\t",
    b"bearer x.y.z",
    b"Basic dXNlcjpwYXNz",
    b"Bearer " + API_KEY[:-1].encode(),
    b"Bearer " + API_KEY.encode() + b"x",
    b"Bearer " + API_KEY.upper().encode(),
    b"Bearer " + token(user_id=USERS[0], lifetime=-120).encode(),
    b"Bearer " + token("not-the-secret-0123456789abcdef!", user_id=USERS[0]).encode(),
    b"Bearer " + token(user_id=USERS[0], aud="someone-else").encode(),
    b"Bearer "
    + _jwt({"user_id": USERS[0], "aud": AUDIENCE, "exp": 2**40}, algorithm="none").encode(),
    b"Bearer " + token(user_id=USERS[0])[:-2].encode(),
]
header_values = st.one_of(
    st.sampled_from(NEAR_MISSES),
    st.binary(max_size=300),
    st.binary(max_size=300).map(lambda raw: b"Bearer " + raw),
    st.text(max_size=100).map(lambda text: b"Bearer " + text.encode()),
)
#: None, one or two authorization headers.
header_lists = st.lists(header_values, max_size=2).map(
    lambda values: [(b"authorization", v) for v in values]
)


@pytest.fixture(scope="module")
def key_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("memoryd-fuzz-keys")
    digest = hashlib.sha256(API_KEY.encode()).hexdigest()
    env = write_config(
        root / "memoryd.toml",
        f'auth_mode = "api_key"\n\n[api_keys.{digest}]\nuser_id = "{USERS[0]}"\n',
    )
    process = ServerProcess(root / "data", env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def token_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Its own JWT server: fuzzed claims may name any user, so no other test's data
    may live here."""
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-fuzz-jwt"), env=JWT_ENV).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(params=["jwt", "api_key"])
def auth_server(request: pytest.FixtureRequest) -> tuple[ServerProcess, str]:
    """A server with authentication on, and a credential it accepts."""
    if request.param == "jwt":
        return request.getfixturevalue("token_server"), token(user_id=USERS[0])
    return request.getfixturevalue("key_server"), API_KEY


@pytest.mark.parametrize("rpc", [m.name for m in SERVICE.methods])
def test_fuzzed_credentials_reach_the_server_and_are_unauthenticated(
    auth_server: tuple[ServerProcess, str], rpc: str
):
    server, good_credential = auth_server
    method = f"{SERVICE.full_name}/{rpc}"
    # A response message would mean the call got in; the read stops there
    # rather than wait on a stream that need not end (WatchMemories).
    streams = SERVICE.methods_by_name[rpc].server_streaming
    sent: list[int] = []

    @settings(suppress_health_check=list(HealthCheck))
    @given(headers=header_lists)
    def check(headers: list[tuple[bytes, bytes]]) -> None:
        answer = rawgrpc.call(
            server.port, method, REQUESTS[rpc], headers, until_first_message=streams
        )
        # memoryd's own ErrorInfo: the server's authentication read these headers.
        assert answer.status == UNAUTHENTICATED, answer
        assert answer.error_reasons() == [("memoryd", "UNAUTHENTICATED")], answer
        sent.append(len(headers))

    check()
    assert len(sent) >= MIN_CASES and {0, 1, 2} <= set(sent), f"{len(sent)} cases: {sent}"
    _assert_still_serving(server, good_credential)


@pytest.mark.parametrize("rpc", ["ListMemories", "CreateMemory", "Preload"])
def test_signed_tokens_with_fuzzed_claims_never_fail_inside(token_server: ServerProcess, rpc: str):
    """Tokens signed with the server's own secret, one or two claims fuzzed (NaN,
    infinities, huge numbers, wrong types): a defined status, whatever they claim."""
    valid = {"user_id": USERS[1], "exp": 2**40, "aud": AUDIENCE, "iss": ISSUER}
    names = st.sampled_from(["user_id", "sub", "exp", "iat", "nbf", "aud", "iss", "scope"])
    claims = st.dictionaries(names, json_values, min_size=1, max_size=2).map(
        lambda fuzzed: {**valid, **fuzzed}
    )
    codes: dict[str, int] = {}
    with token_server.channel() as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)

        @settings(suppress_health_check=list(HealthCheck))
        @given(claims=claims)
        def check(claims: dict[str, Any]) -> None:
            code, outcome = code_of(
                _call, stub, rpc, REQUESTS[rpc], (("authorization", f"Bearer {_jwt(claims)}"),)
            )
            codes[code.name] = codes.get(code.name, 0) + 1
            assert code not in NEVER, f"{code}: {outcome}"

        check()
    # Both kinds were drawn: claims the server takes, and claims it refuses.
    assert codes.get("UNAUTHENTICATED", 0) > 0 and len(codes) > 1, codes


def _call(
    stub: memory_service_pb2_grpc.MemoryServiceStub, rpc: str, request: Any, metadata: Any
) -> Any:
    if rpc == "Preload":
        return list(stub.Preload(request, metadata=metadata, timeout=30))
    return getattr(stub, rpc)(request, metadata=metadata, timeout=30)


def _assert_still_serving(server: ServerProcess, credential: str) -> None:
    with server.channel() as channel:
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        # Raises unless the server still lets the good credential in.
        memory_service_pb2_grpc.MemoryServiceStub(channel).ListMemories(
            svc.ListMemoriesRequest(),
            metadata=(("authorization", f"Bearer {credential}"),),
            timeout=30,
        )
