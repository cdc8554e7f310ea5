"""The isolation matrix's callers, each as a JWT, an API key and an mTLS client certificate.

A Role is who the caller is (an end user, or a service) and its grants; a
Realm is one server in one auth mode, with every role's credentials made for
it. So the same matrix runs against all three ways of proving who you are.
A Matrix is a realm with the data the matrix aims at, seeded and inspected by
a root principal that is no column of the matrix.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from memoryd.api.credentials import api_key_hash
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import AGENT, ALICE, BOB, token, write_config
from certificates import Authority, Pair
from support import ServerProcess

Stub = memory_service_pb2_grpc.MemoryServiceStub
Metadata = tuple[tuple[str, str], ...]
APP = "console"


@dataclass(frozen=True)
class Role:
    """An end user (``user_id``) or a service, with its grants."""

    user_id: str = ""
    service: str = ""
    scopes: tuple[str, ...] = ()


#: The matrix's columns, the same in every auth mode.
ROLES = {
    "same_user": Role(ALICE, scopes=(f"agent_memory:read:{AGENT}", f"app_memory:read:{APP}")),
    "other_user": Role(BOB),
    "service_as_user": Role(service="runtime", scopes=("memory:act_as_user",)),
    "service_without_scope": Role(service="runtime-2"),
    "agent_memory_writer": Role(service="agent-app", scopes=("agent_memory:write",)),
    "app_reader": Role(service="console-ui", scopes=(f"app_memory:read:{APP}",)),
    "admin": Role(service="ops", scopes=("memory:admin",)),
}
#: Seeds the matrix and checks what each cell left behind; not a column.
ROOT = Role(service="root", scopes=("memory:act_as_user", "agent_memory:write", "memory:admin"))
#: Credentials each mode must refuse, UNAUTHENTICATED.
BAD_CREDENTIALS = {
    "jwt": ("no_credentials", "expired_token", "wrong_signature"),
    "api_key": ("no_credentials", "unknown_key"),
    "mtls": ("unknown_certificate",),
}
MODES = tuple(BAD_CREDENTIALS)
#: What the matrix aims at: alice's memory, and the shared memory of an agent and of an app.
TARGETS = ("user", "agent", "app")
SYNC = svc.WRITE_MODE_SYNC


@dataclass
class Realm:
    """One server in one auth mode: a stub and metadata for every caller."""

    mode: str
    server: ServerProcess
    metadata: dict[str, Metadata]
    channels: dict[str, grpc.Channel] = field(default_factory=dict)
    #: Per caller (mTLS: the client certificate), else one for everyone.
    credentials: dict[str, grpc.ChannelCredentials] = field(default_factory=dict)

    def stub(self, caller: str) -> Stub:
        key = caller if caller in self.credentials else ""
        if key not in self.channels:
            if key:
                self.channels[key] = grpc.secure_channel(self.server.address, self.credentials[key])
            else:
                self.channels[key] = self.server.channel()
        return Stub(self.channels[key])

    def close(self) -> None:
        """Closes the channels; the server belongs to whoever started it."""
        for channel in self.channels.values():
            channel.close()


def _principal_toml(table: str, name: str, role: Role) -> str:
    who = f"user_id = {json.dumps(role.user_id)}"
    if not role.user_id:
        who = f"service = {json.dumps(role.service)}"
    return f"\n[{table}.{json.dumps(name)}]\n{who}\nscopes = {json.dumps(list(role.scopes))}\n"


def jwt_metadata() -> dict[str, Metadata]:
    """Every caller's credentials for the JWT server of conftest.py."""

    def bearer(role: Role, **claims: object) -> Metadata:
        who = {"user_id": role.user_id} if role.user_id else {"sub": role.service}
        jwt = token(**{**who, "scope": " ".join(role.scopes), **claims})  # type: ignore[arg-type]
        return (("authorization", f"Bearer {jwt}"),)

    alice = ROLES["same_user"]
    return {
        **{name: bearer(role) for name, role in ROLES.items()},
        "root": bearer(ROOT),
        "no_credentials": (),
        "expired_token": bearer(alice, lifetime=-120),
        "wrong_signature": (
            ("authorization", "Bearer " + token("not-the-secret-0123456789abcdef!", user_id=ALICE)),
        ),
    }


def start_api_key_realm(root: Path) -> Realm:
    """A server in auth mode api_key, with a key for every role (data under ``root``)."""
    keys = {name: f"mk_{name}_{i:04d}7f3a" for i, name in enumerate([*ROLES, "root"])}
    config = 'auth_mode = "api_key"\n' + "".join(
        _principal_toml("api_keys", api_key_hash(keys[name]), role)
        for name, role in [*ROLES.items(), ("root", ROOT)]
    )
    server = ServerProcess(root / "data", env=write_config(root / "memoryd.toml", config)).start()
    metadata: dict[str, Metadata] = {
        name: (("authorization", f"Bearer {key}"),) for name, key in keys.items()
    }
    metadata |= {"no_credentials": (), "unknown_key": (("authorization", "Bearer mk_nobody"),)}
    return Realm("api_key", server, metadata)


def start_mtls_realm(root: Path) -> Realm:
    """A server in auth mode mtls, with a client certificate for every role."""
    ca = Authority()
    server_pair = ca.issue("memoryd", dns=("localhost",), server=True)
    files = {"ca.pem": ca.cert_pem, "server.pem": server_pair.cert_pem}
    files["server.key"] = server_pair.key_pem
    for name, content in files.items():
        (root / name).write_bytes(content)
    san = {name: f"{name.replace('_', '-')}.clients.test" for name in [*ROLES, "root"]}
    config = (
        f'auth_mode = "mtls"\ntls_cert_file = "{root / "server.pem"}"\n'
        f'tls_key_file = "{root / "server.key"}"\ntls_client_ca_file = "{root / "ca.pem"}"\n'
    ) + "".join(
        _principal_toml("mtls_principals", san[name], role)
        for name, role in [*ROLES.items(), ("root", ROOT)]
    )
    server = ServerProcess(root / "data", env=write_config(root / "memoryd.toml", config)).start()
    pairs = {name: ca.issue(name, dns=(s,), server=False) for name, s in san.items()}
    # Signed by the trusted CA, so the handshake succeeds; its name is no principal.
    pairs["unknown_certificate"] = ca.issue("nobody", dns=("nobody.clients.test",), server=False)
    return Realm(
        "mtls",
        server,
        metadata={},
        credentials={name: _client_credentials(ca, pair) for name, pair in pairs.items()},
    )


def _client_credentials(ca: Authority, pair: Pair) -> grpc.ChannelCredentials:
    return grpc.ssl_channel_credentials(
        root_certificates=ca.cert_pem, private_key=pair.key_pem, certificate_chain=pair.cert_pem
    )


# --- the data the matrix aims at ---------------------------------------------------


def target_scope(target: str) -> pb.Scope:
    return {
        "user": pb.Scope(user_id=ALICE),
        "agent": pb.Scope(agent_id=AGENT),
        "app": pb.Scope(app_id=APP),
    }[target]


def in_target(scope: pb.Scope, target: str) -> bool:
    """Whether a memory of ``scope`` belongs to what a read of the target sees."""
    if target == "user":
        return scope.user_id == ALICE
    wanted = target_scope(target)
    return (
        not scope.user_id
        and bool(scope.agent_id or scope.app_id)
        and (not wanted.agent_id or scope.agent_id == wanted.agent_id)
        and (not wanted.app_id or scope.app_id == wanted.app_id)
    )


@dataclass(frozen=True)
class Seed:
    """A target's seed memory and the token of the write that made it."""

    memory: pb.Memory
    write_token: str


_SEED_TEXTS = (
    "alice's vault code is 4471-zebra",
    "bot escalates refunds over 900 dollars to tier-two",
    "console admins rotate the 3388-walrus key monthly",
)
#: A part of each seed text that a refusal must never echo. Each holds a
#: character no id or write token can (a write token's random hex once held "900").
SEED_SECRETS = ("4471-zebra", "900 dollars", "3388-walrus")
#: What a snapshot holds of each memory.
Stored = tuple[str, int, str, str, str]


class Matrix:
    """A realm, with one seed memory per target, written and inspected as root."""

    def __init__(self, realm: Realm) -> None:
        self.realm = realm
        self._root = realm.stub("root")
        self.seeds = {}
        for target, text in zip(TARGETS, _SEED_TEXTS, strict=True):
            created = self.root_call("CreateMemory", _create(target, text))
            self.seeds[target] = Seed(created.memory, created.write_token)
        # Memories a too-wide read would also return: another user's memory
        # written through bot and console, and shared memory of another agent and app.
        for text, scope in itertools.product(
            _SEED_TEXTS,
            (
                pb.Scope(user_id="mallory", agent_id=AGENT, app_id=APP),
                pb.Scope(agent_id=f"{AGENT}-2", app_id=f"{APP}-2"),
            ),
        ):
            decoy = pb.Memory(content=f"decoy: {text}", scope=scope)
            self.root_call("CreateMemory", svc.CreateMemoryRequest(memory=decoy, mode=SYNC))

    def root_call(self, rpc: str, request: Any) -> Any:
        return getattr(self._root, rpc)(
            request, metadata=self.realm.metadata.get("root", ()), timeout=30
        )

    def victim(self, target: str) -> pb.Memory:
        """A memory for one cell to update, delete or forget (by its category)."""
        text = f"victim {unique_name()}"
        request = _create(target, text)
        request.memory.category = f"victim-{unique_name()}"
        # Two random names can embed above the default 0.95 (one pair measured
        # 0.956): only an exact repeat may count as a duplicate here.
        request.dedup_threshold = 1.0
        memory: pb.Memory = self.root_call("CreateMemory", request).memory
        return memory

    def snapshot(self) -> dict[str, dict[str, Stored]]:
        """Every memory of the targets and of bob, as root sees them."""
        scopes = {target: target_scope(target) for target in TARGETS} | {
            "bob": pb.Scope(user_id=BOB)
        }
        snapshot = {}
        for name, scope in scopes.items():
            listed = self.root_call(
                "ListMemories", svc.ListMemoriesRequest(scope=scope, page_size=1000)
            )
            assert not listed.next_page_token
            snapshot[name] = {m.id: stored(m) for m in listed.memories}
        return snapshot


def stored(memory: pb.Memory) -> Stored:
    s = memory.scope
    return (memory.content, memory.version, s.user_id, s.agent_id, s.app_id)


_NAMES = random.Random(14)


def unique_name() -> str:
    """32 hex digits, new on each call and the same sequence on every run."""
    return f"{_NAMES.getrandbits(128):032x}"


def _create(target: str, content: str) -> svc.CreateMemoryRequest:
    return svc.CreateMemoryRequest(
        memory=pb.Memory(content=content, scope=target_scope(target)), mode=SYNC
    )
