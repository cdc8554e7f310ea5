"""Authentication: an interceptor that asks an Authenticator who is calling.

It only authenticates. The Principal it finds is set for the duration of that
one RPC (streams included) and read by the servicer with current_principal();
what the principal may read or write is decided in core/policy.py.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from memoryd.api.errors import abort_with
from memoryd.api.interceptor import After, Context, Interceptor, Rpc
from memoryd.core.errors import Unauthenticated
from memoryd.core.policy import UNRESTRICTED, Principal

_principal: contextvars.ContextVar[Principal] = contextvars.ContextVar("memoryd_principal")


def current_principal() -> Principal:
    """The caller of the RPC being served. Raises LookupError outside one
    (an RPC that bypassed authentication fails closed, as INTERNAL)."""
    return _principal.get()


class Credentials:
    """What a call presents: its metadata and, over TLS, the peer's certificate."""

    def __init__(self, metadata: Sequence[Any], peer: Mapping[str, Any]) -> None:
        self._metadata = metadata
        self._peer = peer

    def bearer_token(self) -> str:
        """The token of the ``authorization: Bearer <token>`` header; raises
        Unauthenticated if there is none."""
        values = [v for k, v in self._metadata if k == "authorization"]
        if not values:
            raise Unauthenticated("send 'authorization: Bearer <token>' metadata")
        scheme, _, token = str(values[0]).partition(" ")
        if len(values) > 1 or scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("the authorization metadata must be 'Bearer <token>'")
        return token.strip()

    def peer_names(self) -> list[str]:
        """The subject alternative names of a verified client certificate."""
        return [
            v.decode(errors="replace") if isinstance(v, bytes) else str(v)
            for v in self._peer.get("x509_subject_alternative_name", [])
        ]


class Authenticator(Protocol):
    def authenticate(self, credentials: Credentials) -> Principal:
        """The principal the credentials prove; raises Unauthenticated."""
        ...


class NoAuthentication:
    """Auth mode ``none``: every caller is unrestricted; scopes come from requests."""

    def authenticate(self, credentials: Credentials) -> Principal:
        return UNRESTRICTED


class Authentication(Interceptor):
    """Authenticates every MemoryService call, and sets its principal."""

    def __init__(self, authenticator: Authenticator) -> None:
        self._authenticator = authenticator
        # Auth mode none looks at no credentials, so its calls do not collect them.
        self._is_open = isinstance(authenticator, NoAuthentication)

    async def before(self, rpc: Rpc, request: Any, context: Context) -> After:
        if self._is_open:
            principal = UNRESTRICTED
        else:
            metadata = list(context.invocation_metadata() or ())
            credentials = Credentials(metadata, context.auth_context())
            try:
                principal = self._authenticator.authenticate(credentials)
            except Unauthenticated as error:
                await abort_with(error, context, rpc.name)
        token = _principal.set(principal)
        return lambda _: _principal.reset(token)
