"""TLS and mTLS: handshakes with certificates made in the test, and clean failures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import code_of, write_config
from certificates import Authority, Pair
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
RUNTIME_SAN = "agent-runtime.clients.test"


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("pki")
    ca = Authority()
    server = ca.issue("memoryd", dns=("localhost",), server=True)
    files = {"ca": root / "ca.pem", "cert": root / "server.pem", "key": root / "server.key"}
    files["ca"].write_bytes(ca.cert_pem)
    files["cert"].write_bytes(server.cert_pem)
    files["key"].write_bytes(server.key_pem)
    return {
        **files,
        "ca_pem": ca.cert_pem,
        "runtime": ca.issue("runtime", dns=(RUNTIME_SAN,), server=False),
        "stranger": ca.issue("stranger", dns=("stranger.clients.test",), server=False),
        "forged": Authority("another CA").issue("runtime", dns=(RUNTIME_SAN,), server=False),
    }


def _start(root: Path, config: str) -> ServerProcess:
    return ServerProcess(root / "data", env=write_config(root / "memoryd.toml", config)).start()


@pytest.fixture(scope="module")
def tls_server(pki, tmp_path_factory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("tls")
    process = _start(root, f'tls_cert_file = "{pki["cert"]}"\ntls_key_file = "{pki["key"]}"\n')
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def mtls_server(pki, tmp_path_factory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("mtls")
    process = _start(
        root,
        f"""
auth_mode = "mtls"
tls_cert_file = "{pki["cert"]}"
tls_key_file = "{pki["key"]}"
tls_client_ca_file = "{pki["ca"]}"

[mtls_principals."{RUNTIME_SAN}"]
service = "agent-runtime"
scopes = ["memory:act_as_user"]

[mtls_principals."stranger.clients.test"]
user_id = "stranger"
""",
    )
    yield process
    assert process.stop() == 0, "".join(process.log)


def _secure_stub(address: str, pki, client: Pair | None = None) -> tuple[grpc.Channel, Stub]:
    credentials = grpc.ssl_channel_credentials(
        root_certificates=pki["ca_pem"],
        private_key=client.key_pem if client else None,
        certificate_chain=client.cert_pem if client else None,
    )
    channel = grpc.secure_channel(address, credentials)
    return channel, memory_service_pb2_grpc.MemoryServiceStub(channel)


def _create(user: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content="prefers dark mode", scope=pb.Scope(user_id=user)),
        mode=svc.WRITE_MODE_SYNC,
    )


def test_tls_handshake_serves_requests(tls_server, pki):
    channel, stub = _secure_stub(tls_server.address, pki)
    with channel:
        created = stub.CreateMemory(_create("tls-user"), timeout=10)
    assert created.memory.scope.user_id == "tls-user"


def test_plaintext_client_against_tls_server_fails_cleanly(tls_server, pki):
    with tls_server.channel() as channel:
        code, _ = code_of(
            memory_service_pb2_grpc.MemoryServiceStub(channel).CreateMemory,
            _create("plain"),
            timeout=5,
        )
    assert code == grpc.StatusCode.UNAVAILABLE
    test_tls_handshake_serves_requests(tls_server, pki)  # and the server is still up


def test_mtls_principal_comes_from_the_certificate_san(mtls_server, pki):
    channel, stub = _secure_stub(mtls_server.address, pki, pki["runtime"])
    with channel:
        created = stub.CreateMemory(_create("end-user-7"), timeout=10)
    assert created.memory.scope.user_id == "end-user-7"
    channel, stub = _secure_stub(mtls_server.address, pki, pki["stranger"])
    with channel:
        code, _ = code_of(stub.CreateMemory, _create("end-user-7"), timeout=10)
        assert code == grpc.StatusCode.PERMISSION_DENIED
        own = stub.CreateMemory(_create(""), timeout=10)
    assert own.memory.scope.user_id == "stranger"


@pytest.mark.parametrize("client", [None, "forged"])
def test_mtls_refuses_clients_without_a_trusted_certificate(mtls_server, pki, client):
    channel, stub = _secure_stub(mtls_server.address, pki, pki[client] if client else None)
    with channel:
        code, _ = code_of(stub.CreateMemory, _create("end-user-7"), timeout=5)
    assert code == grpc.StatusCode.UNAVAILABLE
