"""The client conformance suite: every scenario through every language's client,
against real servers (tests/clients/scenario_suite/PROTOCOL.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scenario_suite.harness import LANGUAGES, Run, Runner, api_key_env, load_scenarios
from support import ServerProcess

SCENARIOS = load_scenarios()
SINGLE = [s for s in SCENARIOS if not s.get("cross_language")]
CROSS = [s for s in SCENARIOS if s.get("cross_language")]


@pytest.fixture(scope="module")
def targets(
    server: ServerProcess, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, str]]:
    """The address of each server kind a scenario may ask for."""
    with_keys = ServerProcess(tmp_path_factory.mktemp("api-key-data"), env=api_key_env()).start()
    yield {"default": server.address, "api_key": with_keys.address}
    assert with_keys.stop() == 0, "".join(with_keys.log)


def _run(scenario: dict[str, Any], targets: dict[str, str], languages: tuple[str, ...]) -> None:
    runners: dict[str, Runner] = {}
    try:
        for language in languages:
            runners[language] = Runner(language)
        run = Run(scenario, targets, runners)
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
@pytest.mark.parametrize("scenario", SINGLE, ids=[Path(s["name"]).name for s in SINGLE])
def test_scenario(language: str, scenario: dict[str, Any], targets: dict[str, str]) -> None:
    _run(scenario, targets, (language,))


@pytest.mark.parametrize("scenario", CROSS, ids=[s["name"] for s in CROSS])
def test_cross_language_scenario(scenario: dict[str, Any], targets: dict[str, str]) -> None:
    _run(scenario, targets, LANGUAGES)
