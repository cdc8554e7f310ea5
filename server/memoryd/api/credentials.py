"""Authenticators: API keys and mTLS client certificates (JWTs: api/jwt_credentials.py)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from memoryd.api.auth import Credentials
from memoryd.core.errors import Unauthenticated
from memoryd.core.policy import Principal


def api_key_hash(key: str) -> str:
    """How an API key is stored in the config: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiKeyAuthenticator:
    """Bearer API keys, configured as SHA-256 hashes, each naming a principal."""

    def __init__(self, principals_by_hash: Mapping[str, Principal]) -> None:
        self._principals = {k.lower(): v for k, v in principals_by_hash.items()}

    def authenticate(self, credentials: Credentials) -> Principal:
        digest = api_key_hash(credentials.bearer_token())
        for known, principal in self._principals.items():
            if hmac.compare_digest(known, digest):
                return principal
        raise Unauthenticated("unknown API key")


class PeerCertificateAuthenticator:
    """mTLS: the principal configured for a subject alternative name of the
    client certificate (which the TLS handshake already verified)."""

    def __init__(self, principals_by_name: Mapping[str, Principal]) -> None:
        self._principals = dict(principals_by_name)

    def authenticate(self, credentials: Credentials) -> Principal:
        for name in credentials.peer_names():
            if name in self._principals:
                return self._principals[name]
        raise Unauthenticated("the client certificate names no configured principal")
