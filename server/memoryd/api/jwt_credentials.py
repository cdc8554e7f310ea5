"""JWT authentication (PyJWT), in its own module: the server imports it, and
PyJWT with its cryptography backend (about 50 ms), only when MEMORYD_AUTH_MODE is jwt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jwt

from memoryd.api.auth import Credentials
from memoryd.core.errors import Unauthenticated
from memoryd.core.policy import Principal

#: The JWT claims a token must carry to be accepted.
_REQUIRED_CLAIMS = ["exp"]


class JwtAuthenticator:
    """Bearer JWTs signed with an HS256 secret, an RS256 public key, or a key of
    a local JWKS file. Checks signature, expiry and, when configured, audience
    and issuer. The user is the ``user_id`` claim, else ``sub``; the grants are
    ``scope`` (space-separated) or ``scopes`` (a list or a string)."""

    def __init__(
        self,
        *,
        secret: str | None = None,
        public_key: str | None = None,
        jwks: str | None = None,
        algorithms: Sequence[str],
        audience: str = "",
        issuer: str = "",
    ) -> None:
        self._secret = secret
        self._public_key = public_key
        self._jwks = jwt.PyJWKSet.from_json(jwks) if jwks else None
        self._algorithms = list(algorithms)
        self._audience = audience or None
        self._issuer = issuer or None

    def authenticate(self, credentials: Credentials) -> Principal:
        token = credentials.bearer_token()
        try:
            claims = jwt.decode(
                token,
                self._key(token),
                algorithms=self._algorithms,
                audience=self._audience,
                issuer=self._issuer,
                options={"require": _REQUIRED_CLAIMS, "verify_aud": self._audience is not None},
            )
        except jwt.ExpiredSignatureError as error:
            raise Unauthenticated("the token has expired") from error
        except jwt.InvalidTokenError as error:
            raise Unauthenticated(f"invalid token ({type(error).__name__})") from error
        return _principal_of(claims)

    def _key(self, token: str) -> Any:
        if self._jwks is None:
            return self._secret if self._secret is not None else self._public_key
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.InvalidTokenError as error:
            raise Unauthenticated("malformed token") from error
        for key in self._jwks.keys:
            if kid is None or key.key_id == kid:
                return key.key
        raise Unauthenticated("the token's key id is not in the JWKS")


def _principal_of(claims: Mapping[str, Any]) -> Principal:
    user = claims.get("user_id") or claims.get("sub")
    if not isinstance(user, str) or not user:
        raise Unauthenticated("the token has no user_id or sub claim")
    raw = claims.get("scope", claims.get("scopes", ""))
    if isinstance(raw, str):
        scopes = frozenset(raw.split())
    elif isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        scopes = frozenset(raw)
    else:
        raise Unauthenticated("the token's scope claim must be a string or a list of strings")
    return Principal(name=f"jwt:{user}", user_id=user, scopes=scopes)
