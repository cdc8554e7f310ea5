"""Connection options: where memoryd is, how to reach it, and how long to wait."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The fully qualified service name the retry policy applies to.
SERVICE = "memoryd.v1.MemoryService"

#: gRPC caps retry attempts at 5, counting the first one.
_MAX_ATTEMPTS_CAP = 5


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """How a client connects to memoryd. Every field has a usable default.

    target: ``host:port`` of the server (default ``localhost:50051``).
    tls: use TLS (default False: plaintext, for loopback and sidecars).
    root_certificates / private_key / certificate_chain: PEM bytes for TLS; the
        last two enable mutual TLS. Unset means the system roots and no client cert.
    token: a bearer token sent as ``authorization: Bearer <token>`` on every call.
    read_timeout: seconds per read (Get, List, Search, GetWriteStatus), retries
        included (default 5).
    write_timeout: seconds per write (Create, Update, Delete, Forget), retries
        included (default 5). 10xgraph cancels pending memory writes after 15 s,
        so keep writes well under that.
    max_attempts: attempts per call on UNAVAILABLE, first one included, 1 to 5
        (default 4). Retries follow gRPC's retry policy in the service config;
        every write carries a request_id, so a retried write is never applied twice.
    initial_backoff / max_backoff: seconds between retries (default 0.1 / 1.0),
        with exponential growth and gRPC's jitter.
    channel_options: extra ``grpc.*`` channel arguments, appended last.
    interceptors: extra client interceptors, run after the built-in ones
        (sync clients take grpc.UnaryUnaryClientInterceptor, async clients
        grpc.aio.UnaryUnaryClientInterceptor; Preload, a server stream, goes
        through grpc.UnaryStreamClientInterceptor / grpc.aio.UnaryStreamClientInterceptor).

    Raises ValueError naming the field and the fix when a value is out of range.
    """

    target: str = "localhost:50051"
    tls: bool = False
    root_certificates: bytes | None = None
    private_key: bytes | None = None
    certificate_chain: bytes | None = None
    token: str | None = None
    read_timeout: float = 5.0
    write_timeout: float = 5.0
    max_attempts: int = 4
    initial_backoff: float = 0.1
    max_backoff: float = 1.0
    channel_options: Sequence[tuple[str, Any]] = ()
    interceptors: Sequence[Any] = field(default=())

    def __post_init__(self) -> None:
        if not self.target or self.target != self.target.strip():
            raise ValueError(
                f"target {self.target!r} is empty or padded; pass 'host:port', "
                "e.g. 'localhost:50051'"
            )
        for name in ("read_timeout", "write_timeout", "initial_backoff", "max_backoff"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if not 1 <= self.max_attempts <= _MAX_ATTEMPTS_CAP:
            raise ValueError(
                f"max_attempts is {self.max_attempts}; use 1 (no retries) to "
                f"{_MAX_ATTEMPTS_CAP} (gRPC's cap)"
            )
        if self.max_backoff < self.initial_backoff:
            raise ValueError("max_backoff must be at least initial_backoff")
        has_tls_material = self.root_certificates or self.private_key or self.certificate_chain
        if has_tls_material and not self.tls:
            raise ValueError("certificates were given with tls=False; set tls=True to use them")
        if bool(self.private_key) != bool(self.certificate_chain):
            raise ValueError("mutual TLS needs both private_key and certificate_chain")
        if self.token is not None and (not self.token or "\n" in self.token):
            raise ValueError("token must be a non-empty single line, or None for no token")

    def service_config(self) -> str:
        """The gRPC service config (JSON) with the retry policy for UNAVAILABLE."""
        retry_policy = {
            "maxAttempts": self.max_attempts,
            "initialBackoff": f"{self.initial_backoff}s",
            "maxBackoff": f"{self.max_backoff}s",
            "backoffMultiplier": 2,
            "retryableStatusCodes": ["UNAVAILABLE"],
        }
        method_config: dict[str, Any] = {"name": [{"service": SERVICE}]}
        if self.max_attempts > 1:
            method_config["retryPolicy"] = retry_policy
        return json.dumps({"methodConfig": [method_config]})

    def grpc_options(self) -> list[tuple[str, Any]]:
        """Channel arguments: the service config, retries on, then channel_options."""
        options: list[tuple[str, Any]] = [
            ("grpc.service_config", self.service_config()),
            ("grpc.enable_retries", 1),
            # The service config above is the only one; never take one from DNS.
            ("grpc.service_config_disable_resolution", 1),
        ]
        if not any(name == "grpc.max_receive_message_length" for name, _ in self.channel_options):
            # The server's MEMORYD_MAX_MESSAGE_BYTES bounds what it sends; gRPC's
            # 4 MiB client default would refuse answers the server allows.
            options.append(("grpc.max_receive_message_length", -1))
        return [*options, *self.channel_options]


def resolve_options(
    target: str | None, options: ClientOptions | None, fields: dict[str, Any]
) -> ClientOptions:
    """The options a client was constructed with: ``options`` or ``target`` + fields."""
    if options is not None:
        if target is not None or fields:
            raise ValueError("pass either options=ClientOptions(...) or target/fields, not both")
        return options
    if target is not None:
        fields = {"target": target, **fields}
    return ClientOptions(**fields)
