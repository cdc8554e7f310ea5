"""The health probe (`memoryd-healthcheck`): one grpc.health.v1 Check; exit 0 only when SERVING.

Docker's HEALTHCHECK and Kubernetes exec probes run it next to the server. It
reads the server's own settings (MEMORYD_* variables and MEMORYD_CONFIG_FILE)
to find the port and whether the server speaks TLS, so a container needs no
extra configuration; flags override what the settings give.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import grpc
from cryptography import x509
from grpc_health.v1 import health_pb2
from pydantic import ValidationError

from memoryd.config import Settings

SERVING = health_pb2.HealthCheckResponse.SERVING
_CHECK_METHOD = "/grpc.health.v1.Health/Check"
#: Hosts that mean "every interface" to a server; the probe dials loopback instead.
_ANY_IPV4, _ANY_IPV6 = "0.0.0.0", "::"


@dataclass(frozen=True, slots=True)
class Tls:
    """How the probe verifies the server and, under mTLS, identifies itself."""

    root_certificates: bytes | None
    server_name: str
    client_certificate: bytes | None = None
    client_key: bytes | None = None


class ProbeError(Exception):
    """The probe could not be set up; the message says what to fix."""


def main(argv: Sequence[str] | None = None) -> int:
    """Checks the server's health once. Returns 0 when it answers SERVING, 1 on
    anything else, with a one-line reason on stderr."""
    args = _parser().parse_args(argv)
    try:
        settings = _server_settings()
        address = args.address or dial_address(settings.host, settings.port)
        tls = _tls(args, settings)
        status = check(address, args.service, args.timeout, tls)
    except ProbeError as error:
        return _unhealthy(str(error))
    except ValidationError as error:
        return _unhealthy(f"invalid settings: {_one_line(str(error))}")
    except grpc.RpcError as error:
        return _unhealthy(f"{address}: {_rpc_failure(error)}")
    name = health_pb2.HealthCheckResponse.ServingStatus.Name(status)
    service = f"service {args.service!r}" if args.service else "server"
    if status != SERVING:
        return _unhealthy(f"{address}: {service} is {name}")
    print(f"{address}: {service} is {name}")
    return 0


def _server_settings() -> Settings:
    """The server's settings, read from its environment and config file as it reads them."""
    no_overrides: dict[str, Any] = {}
    return Settings(**no_overrides)


def dial_address(host: str, port: int) -> str:
    """Where a probe beside the server reaches it: a wildcard host becomes loopback."""
    if host in ("", _ANY_IPV4):
        host = "127.0.0.1"
    elif host.strip("[]") == _ANY_IPV6:
        host = "::1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def check(address: str, service: str, timeout: float, tls: Tls | None) -> int:
    """The ServingStatus the server at ``address`` reports for ``service`` ("" is
    the whole server). Raises grpc.RpcError if it cannot be asked in ``timeout``."""
    with _channel(address, tls) as channel:
        # The method itself rather than HealthStub, whose type stubs declare no methods.
        check_rpc = channel.unary_unary(
            _CHECK_METHOD,
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        response = check_rpc(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        return int(response.status)


def _channel(address: str, tls: Tls | None) -> grpc.Channel:
    if tls is None:
        return grpc.insecure_channel(address)
    credentials = grpc.ssl_channel_credentials(
        root_certificates=tls.root_certificates,
        private_key=tls.client_key,
        certificate_chain=tls.client_certificate,
    )
    options = [("grpc.ssl_target_name_override", tls.server_name)] if tls.server_name else []
    return grpc.secure_channel(address, credentials, options=options)


def _tls(args: argparse.Namespace, settings: Settings) -> Tls | None:
    """TLS when the server has a certificate (MEMORYD_TLS_CERT_FILE) or --tls says so.

    The server's own certificate file is the trust anchor by default (gRPC
    accepts a leaf certificate as one), checked against the first DNS name it
    carries, so a probe beside the server needs no CA file or server name;
    --ca-file names other roots and --server-name another name. Under mTLS
    (MEMORYD_TLS_CLIENT_CA_FILE) the server completes no handshake without a
    client certificate, so the probe needs one too.
    """
    if not (args.tls or settings.tls_cert_file):
        return None
    if settings.tls_client_ca_file and not (args.client_cert and args.client_key):
        raise ProbeError(
            "the server requires client certificates (MEMORYD_TLS_CLIENT_CA_FILE): pass "
            "--client-cert and --client-key"
        )
    if bool(args.client_cert) != bool(args.client_key):
        raise ProbeError("pass both --client-cert and --client-key, or neither")
    roots = _read(args.ca_file or settings.tls_cert_file)
    server_name = args.server_name
    if not server_name and not args.ca_file and roots is not None:
        # The probe dials loopback, which the server's certificate rarely names:
        # check the certificate against the name it does carry.
        server_name = _certificate_name(roots)
    return Tls(
        root_certificates=roots,
        server_name=server_name,
        client_certificate=_read(args.client_cert),
        client_key=_read(args.client_key),
    )


def _certificate_name(pem: bytes) -> str:
    """The first DNS name of the (first) certificate in ``pem``; "" if it has none."""
    try:
        certificate = x509.load_pem_x509_certificate(pem)
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except (ValueError, x509.ExtensionNotFound):
        return ""
    dns_names = names.value.get_values_for_type(x509.DNSName)
    return dns_names[0] if dns_names else ""


def _read(path: Path | None) -> bytes | None:
    if path is None:
        return None
    try:
        return path.read_bytes()
    except OSError as error:
        raise ProbeError(f"cannot read {path}: {error.strerror}") from error


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="memoryd-healthcheck",
        description="Asks a memoryd server's gRPC health service whether it is SERVING; "
        "exits 0 if so, 1 otherwise.",
    )
    parser.add_argument(
        "--address",
        help="host:port to ask (default: MEMORYD_HOST and MEMORYD_PORT, with 0.0.0.0 as 127.0.0.1)",
    )
    parser.add_argument(
        "--service",
        default="",
        help="service to ask about, e.g. memoryd.v1.MemoryService (default: the server)",
    )
    parser.add_argument(
        "--timeout", type=_positive, default=5.0, help="seconds to wait for the answer"
    )
    parser.add_argument(
        "--tls", action="store_true", help="use TLS (default: when MEMORYD_TLS_CERT_FILE is set)"
    )
    parser.add_argument(
        "--ca-file", type=Path, help="PEM roots to verify the server (default: its certificate)"
    )
    parser.add_argument(
        "--server-name", default="", help="name the server's certificate is checked against"
    )
    parser.add_argument("--client-cert", type=Path, help="PEM client certificate, for mTLS")
    parser.add_argument("--client-key", type=Path, help="PEM client key, for mTLS")
    return parser


class _Parser(argparse.ArgumentParser):
    """Exits 1 on a bad command line too: Docker reserves a health command's exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def _positive(value: str) -> float:
    seconds = float(value)
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {value}")
    return seconds


def _rpc_failure(error: grpc.RpcError) -> str:
    # The sync stub raises errors that are also grpc.Call, with a code and details.
    if isinstance(error, grpc.Call):
        return f"{error.code().name}: {_one_line(error.details() or '')}"
    return _one_line(str(error))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _unhealthy(reason: str) -> int:
    print(f"memoryd-healthcheck: unhealthy: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
