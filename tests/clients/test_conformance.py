"""The client conformance suite: every scenario through every language's client,
against real servers (tests/clients/scenario_suite/PROTOCOL.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from security.certificates import Authority

from scenario_suite.harness import (
    LANGUAGES,
    Credentials,
    Run,
    Runner,
    api_key_env,
    load_scenarios,
)
from support import ServerProcess

SCENARIOS = load_scenarios()
SINGLE = [s for s in SCENARIOS if not s.get("cross_language")]
CROSS = [s for s in SCENARIOS if s.get("cross_language")]


@dataclass(frozen=True)
class Servers:
    """Where each server kind a scenario may ask for listens, and the TLS material."""

    targets: dict[str, str]
    credentials: Credentials


def _tls_env(root: Path, authority: Authority, *, mtls: bool) -> dict[str, str]:
    server = authority.issue("memoryd.test", dns=("localhost",), server=True)
    files = {"cert": server.cert_pem, "key": server.key_pem, "ca": authority.cert_pem}
    for name, pem in files.items():
        (root / f"{name}.pem").write_bytes(pem)
    env = {
        "MEMORYD_TLS_CERT_FILE": str(root / "cert.pem"),
        "MEMORYD_TLS_KEY_FILE": str(root / "key.pem"),
    }
    if mtls:
        env |= {
            "MEMORYD_AUTH_MODE": "mtls",
            "MEMORYD_TLS_CLIENT_CA_FILE": str(root / "ca.pem"),
            "MEMORYD_MTLS_PRINCIPALS": '{"alice.clients.test": {"user_id": "alice"}}',
        }
    return env


@pytest.fixture(scope="module")
def servers(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    authority, stranger = Authority("memoryd test CA"), Authority("another CA")
    clients = {
        name: authority.issue(f"{name}.clients.test", dns=(f"{name}.clients.test",), server=False)
        for name in ("alice", "unknown")
    }
    credentials = Credentials(
        authorities={
            "test-ca": authority.cert_pem.decode(),
            "other-ca": stranger.cert_pem.decode(),
        },
        clients={n: (p.cert_pem.decode(), p.key_pem.decode()) for n, p in clients.items()},
    )
    started: dict[str, ServerProcess] = {}
    try:
        for kind, env in {
            "api_key": api_key_env(),
            "tls": _tls_env(tmp_path_factory.mktemp("tls"), authority, mtls=False),
            "mtls": _tls_env(tmp_path_factory.mktemp("mtls"), authority, mtls=True),
        }.items():
            started[kind] = ServerProcess(tmp_path_factory.mktemp(f"{kind}-data"), env=env).start()
        targets = {"default": server.address} | {k: p.address for k, p in started.items()}
        yield Servers(targets, credentials)
    finally:
        for process in started.values():
            assert process.stop() == 0, "".join(process.log)


def _run(scenario: dict[str, Any], servers: Servers, languages: tuple[str, ...]) -> None:
    runners: dict[str, Runner] = {}
    try:
        for language in languages:
            runners[language] = Runner(language)
        run = Run(scenario, servers.targets, runners, servers.credentials)
        run.execute(languages[0] if len(languages) == 1 else None)
    finally:
        for runner in runners.values():
            runner.close()


def test_every_scenario_file_parses_and_names_its_steps() -> None:
    assert len(SINGLE) >= 10 and CROSS
    for scenario in SCENARIOS:
        assert scenario["name"] and scenario["steps"]
        assert all("call" in step for step in scenario["steps"])
    for scenario in CROSS:
        assert {step["as"] for step in scenario["steps"]} == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scenario", SINGLE, ids=[s["name"] for s in SINGLE])
def test_scenario(language: str, scenario: dict[str, Any], servers: Servers) -> None:
    _run(scenario, servers, (language,))


@pytest.mark.parametrize("scenario", CROSS, ids=[s["name"] for s in CROSS])
def test_cross_language_scenario(scenario: dict[str, Any], servers: Servers) -> None:
    _run(scenario, servers, LANGUAGES)
