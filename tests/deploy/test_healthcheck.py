"""memoryd-healthcheck: exit 0 only for a SERVING server, over plain gRPC, TLS and mTLS."""

from __future__ import annotations

import datetime
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from security.certificates import Authority

from memoryd.healthcheck import dial_address

from deploykit import probe
from support import ServerProcess


def test_probe_exits_1_when_nothing_listens():
    # A bound socket that never listens: connections are refused, and no other
    # process can take the port while the probe runs.
    with socket.socket() as reserved:
        reserved.bind(("127.0.0.1", 0))
        port = reserved.getsockname()[1]
        result = probe(env={"MEMORYD_HOST": "127.0.0.1", "MEMORYD_PORT": str(port)})
    assert result.code == 1 and result.stdout == ""
    assert result.stderr.startswith(
        f"memoryd-healthcheck: unhealthy: 127.0.0.1:{port}: UNAVAILABLE"
    )
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("0.0.0.0", "127.0.0.1:50051"),
        ("::", "[::1]:50051"),
        ("[::]", "[::1]:50051"),
        ("127.0.0.1", "127.0.0.1:50051"),
        ("::1", "[::1]:50051"),
        ("memoryd.internal", "memoryd.internal:50051"),
    ],
)
def test_probe_dials_loopback_for_a_wildcard_host(host, address):
    assert dial_address(host, 50051) == address


def test_a_bad_command_line_exits_1_not_dockers_reserved_2():
    result = probe("--timeout", "0")
    assert result.code == 1 and "must be a number of seconds above 0" in result.stderr


def test_invalid_settings_are_named_on_one_line():
    result = probe(env={"MEMORYD_PORT": "seventy"})
    assert result.code == 1
    assert result.stderr.startswith("memoryd-healthcheck: unhealthy: invalid settings: ")
    assert "port" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pki")
    ca = Authority()
    server = ca.issue("memoryd", dns=("memoryd.internal",), server=True)
    client = ca.issue("probe", dns=("probe.internal",), server=False)
    files = {
        "ca": ca.cert_pem,
        "cert": server.cert_pem,
        "key": server.key_pem,
        "client-cert": client.cert_pem,
        "client-key": client.key_pem,
        "stranger-ca": Authority("another CA").cert_pem,
    }
    for name, pem in files.items():
        (root / f"{name}.pem").write_bytes(pem)
    return {name: root / f"{name}.pem" for name in files}


@pytest.fixture(scope="module")
def tls_env(pki) -> dict[str, str]:
    return {"MEMORYD_TLS_CERT_FILE": str(pki["cert"]), "MEMORYD_TLS_KEY_FILE": str(pki["key"])}


def _serve(root: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    process = ServerProcess(root / "data", env=env).start()
    yield {**env, "MEMORYD_HOST": "127.0.0.1", "MEMORYD_PORT": str(process.port)}
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def tls_server(tls_env, tmp_path_factory) -> Iterator[dict[str, str]]:
    """A TLS server; yields the environment the probe beside it would have."""
    yield from _serve(tmp_path_factory.mktemp("tls"), tls_env)


@pytest.fixture(scope="module")
def mtls_server(pki, tls_env, tmp_path_factory) -> Iterator[dict[str, str]]:
    env = {**tls_env, "MEMORYD_TLS_CLIENT_CA_FILE": str(pki["ca"])}
    yield from _serve(tmp_path_factory.mktemp("mtls"), env)


def test_probe_speaks_tls_when_the_server_has_a_certificate(tls_server, pki):
    result = probe("--ca-file", str(pki["ca"]), env=tls_server)
    assert result.code == 0, result.stderr
    # The server's certificate names memoryd.internal and 127.0.0.1; another name fails.
    other = probe("--ca-file", str(pki["ca"]), "--server-name", "other.internal", env=tls_server)
    assert other.code == 1 and "UNAVAILABLE" in other.stderr


def test_probe_trusts_the_servers_own_certificate_by_default(tls_server, pki):
    # MEMORYD_TLS_CERT_FILE is the trust anchor, so a probe beside the server
    # needs no CA file; verification is still on: another CA's root fails.
    assert probe(env=tls_server).code == 0
    stranger = probe("--ca-file", str(pki["stranger-ca"]), env=tls_server)
    assert stranger.code == 1 and "UNAVAILABLE" in stranger.stderr


@pytest.fixture(scope="module")
def dns_only_server(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A TLS server whose self-signed certificate names only a DNS name, as real
    ones do: not the loopback address the probe dials."""
    root = tmp_path_factory.mktemp("dns-only")
    cert, key = _self_signed("memoryd.prod.example")
    (root / "cert.pem").write_bytes(cert)
    (root / "key.pem").write_bytes(key)
    env = {
        "MEMORYD_TLS_CERT_FILE": str(root / "cert.pem"),
        "MEMORYD_TLS_KEY_FILE": str(root / "key.pem"),
    }
    yield from _serve(root, env)


def test_probe_checks_the_certificate_against_the_name_it_carries(dns_only_server):
    result = probe(env=dns_only_server)
    assert result.code == 0, result.stderr
    other = probe("--server-name", "other.example", env=dns_only_server)
    assert other.code == 1 and "UNAVAILABLE" in other.stderr


def _self_signed(dns_name: str) -> tuple[bytes, bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, dns_name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(dns_name)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


def test_probe_over_plaintext_fails_against_tls(tls_server, tls_env):
    plain = {k: v for k, v in tls_server.items() if k not in tls_env}
    result = probe(env=plain)
    assert result.code == 1 and "UNAVAILABLE" in result.stderr


def test_probe_needs_a_client_certificate_under_mtls(mtls_server, pki):
    missing = probe("--ca-file", str(pki["ca"]), env=mtls_server)
    assert missing.code == 1
    assert "requires client certificates (MEMORYD_TLS_CLIENT_CA_FILE)" in missing.stderr
    result = probe(
        "--ca-file",
        str(pki["ca"]),
        "--client-cert",
        str(pki["client-cert"]),
        "--client-key",
        str(pki["client-key"]),
        env=mtls_server,
    )
    assert result.code == 0, result.stderr
