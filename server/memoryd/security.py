"""Security wiring: the authenticator and TLS credentials that settings describe."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import grpc

from memoryd.api import credentials
from memoryd.api.auth import Authenticator, NoAuthentication
from memoryd.config import PrincipalSettings, Settings
from memoryd.core.policy import Principal


def authenticator(settings: Settings) -> Authenticator:
    """The Authenticator of ``settings.auth_mode``."""
    match settings.auth_mode:
        case "none":
            return NoAuthentication()
        case "api_key":
            return credentials.ApiKeyAuthenticator(
                {digest: _principal(p) for digest, p in settings.api_keys.items()}
            )
        case "jwt":
            from memoryd.api.jwt_credentials import JwtAuthenticator

            secret = settings.jwt_secret.get_secret_value() if settings.jwt_secret else None
            default = ["HS256"] if secret is not None else ["RS256"]
            return JwtAuthenticator(
                secret=secret,
                public_key=_read(settings.jwt_public_key_file),
                jwks=_read(settings.jwt_jwks_file),
                algorithms=settings.jwt_algorithms or default,
                audience=settings.jwt_audience,
                issuer=settings.jwt_issuer,
            )
        case "mtls":
            return credentials.PeerCertificateAuthenticator(
                {name: _principal(p) for name, p in settings.mtls_principals.items()}
            )


def _principal(config: PrincipalSettings) -> Principal:
    name = f"user:{config.user_id}" if config.user_id else f"service:{config.service}"
    return Principal(name=name, user_id=config.user_id, scopes=frozenset(config.scopes))


def _read(path: Path | None) -> str | None:
    return path.read_text() if path is not None else None


def server_credentials(settings: Settings) -> grpc.ServerCredentials | None:
    if settings.tls_cert_file is None or settings.tls_key_file is None:
        return None
    client_ca = settings.tls_client_ca_file
    return grpc.ssl_server_credentials(
        [(settings.tls_key_file.read_bytes(), settings.tls_cert_file.read_bytes())],
        root_certificates=client_ca.read_bytes() if client_ca else None,
        require_client_auth=client_ca is not None,
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
