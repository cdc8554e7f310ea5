"""API keys (api/credentials.py) and JWTs (api/jwt_credentials.py: HS256, RS256 key, JWKS)."""

from __future__ import annotations

import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from memoryd.api.auth import Credentials
from memoryd.api.credentials import ApiKeyAuthenticator, api_key_hash
from memoryd.api.jwt_credentials import JwtAuthenticator
from memoryd.core.errors import Unauthenticated
from memoryd.core.policy import Principal

RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PUBLIC_PEM = (
    RSA_KEY.public_key()
    .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    .decode()
)


def _bearer(token: str) -> Credentials:
    return Credentials([("authorization", f"Bearer {token}")], {})


def _rs256(kid: str = "k1", **claims: Any) -> str:
    body = {"exp": int(time.time()) + 60, "aud": "memoryd", "iss": "idp", **claims}
    return jwt.encode(body, RSA_KEY, algorithm="RS256", headers={"kid": kid})


def test_rs256_public_key_with_user_id_claim_and_scope_list():
    auth = JwtAuthenticator(
        public_key=PUBLIC_PEM, algorithms=["RS256"], audience="memoryd", issuer="idp"
    )
    principal = auth.authenticate(
        _bearer(_rs256(user_id="u1", sub="ignored", scopes=["agent_memory:read"]))
    )
    assert principal == Principal("jwt:u1", "u1", frozenset({"agent_memory:read"}))


def test_jwks_file_key_by_kid():
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(RSA_KEY.public_key()))
    jwks = json.dumps({"keys": [{**jwk, "kid": "k1", "alg": "RS256", "use": "sig"}]})
    auth = JwtAuthenticator(jwks=jwks, algorithms=["RS256"], audience="memoryd")
    assert auth.authenticate(_bearer(_rs256(sub="svc", scope="a b"))).scopes == {"a", "b"}
    with pytest.raises(Unauthenticated):
        auth.authenticate(_bearer(_rs256(kid="unknown", sub="svc")))


@pytest.mark.parametrize(
    "claims",
    [
        {"sub": "u", "aud": "other"},
        {"sub": "u", "iss": "evil"},
        {"sub": "u", "exp": int(time.time()) - 100},
        {"aud": "memoryd"},  # no user_id nor sub
        {"sub": "u", "scope": 3},
    ],
)
def test_bad_claims_are_unauthenticated(claims):
    auth = JwtAuthenticator(
        public_key=PUBLIC_PEM, algorithms=["RS256"], audience="memoryd", issuer="idp"
    )
    with pytest.raises(Unauthenticated):
        auth.authenticate(_bearer(_rs256(**claims)))


def test_hs256_token_is_refused_by_an_rs256_server():
    auth = JwtAuthenticator(public_key=PUBLIC_PEM, algorithms=["RS256"])
    forged = jwt.encode({"sub": "u", "exp": int(time.time()) + 60}, "x" * 32, algorithm="HS256")
    with pytest.raises(Unauthenticated):
        auth.authenticate(_bearer(forged))


def test_api_keys_are_matched_by_hash():
    principal = Principal("user:u1", "u1")
    auth = ApiKeyAuthenticator({api_key_hash("k-123"): principal})
    assert auth.authenticate(_bearer("k-123")) == principal
    for credentials in (_bearer("k-124"), Credentials([], {})):
        with pytest.raises(Unauthenticated):
            auth.authenticate(credentials)
