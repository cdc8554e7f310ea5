"""compose.yaml and the collector's config: they name only real settings and fit together."""

from __future__ import annotations

import re
import tomllib
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from deploykit import REPO, settings_from, unknown_settings


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def memoryd(compose) -> dict[str, Any]:
    return compose["services"]["memoryd"]


def test_compose_runs_memoryd_a_collector_and_a_trace_ui(compose):
    assert set(compose["services"]) == {"memoryd", "otel-collector", "jaeger"}
    assert compose["services"]["memoryd"]["build"] == "."
    assert (REPO / "Dockerfile").is_file()
    assert compose["services"]["otel-collector"]["image"].startswith(
        "otel/opentelemetry-collector-contrib:"
    )
    assert compose["services"]["jaeger"]["image"].startswith("jaegertracing/all-in-one:")


def test_every_memoryd_variable_is_a_setting_and_valid(memoryd, monkeypatch):
    environment = memoryd["environment"]
    assert not unknown_settings(environment)
    settings = settings_from(environment, monkeypatch)  # raises if a value is refused
    assert settings.telemetry == "on"


def test_the_data_volume_is_mounted_at_the_data_dir(compose, memoryd):
    mounts = dict(volume.split(":", 1) for volume in memoryd["volumes"])
    data_dir = memoryd["environment"]["MEMORYD_DATA_DIR"]
    assert [name for name, target in mounts.items() if target == data_dir] == ["memoryd-data"]
    assert "memoryd-data" in compose["volumes"]


def test_the_healthcheck_is_the_probe_program(memoryd):
    test = memoryd["healthcheck"]["test"]
    assert test[:2] == ["CMD", "memoryd-healthcheck"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["memoryd-healthcheck"] == "memoryd.healthcheck:main"
    # The probe's own timeout ends before Docker's does, so its reason is kept.
    probe_timeout = float(test[test.index("--timeout") + 1])
    assert probe_timeout < _seconds(memoryd["healthcheck"]["timeout"])


def test_stopping_leaves_time_for_the_shutdown_sequence(memoryd, monkeypatch):
    settings = settings_from(memoryd["environment"], monkeypatch)
    shutdown = (
        settings.shutdown_announce_seconds
        + settings.shutdown_grace_seconds
        + settings.shutdown_drain_seconds
    )
    assert _seconds(memoryd["stop_grace_period"]) > shutdown


def test_traces_flow_from_memoryd_through_the_collector_to_jaeger(compose, memoryd):
    endpoint = urlsplit(memoryd["environment"]["OTEL_EXPORTER_OTLP_ENDPOINT"])
    collector = compose["services"]["otel-collector"]
    assert endpoint.hostname == "otel-collector"
    (mount,) = collector["volumes"]
    source, target, _ = mount.split(":")
    assert f"--config={target}" in collector["command"]
    config = yaml.safe_load((REPO / source).read_text())
    receiver = config["receivers"]["otlp"]["protocols"][
        memoryd["environment"]["OTEL_EXPORTER_OTLP_PROTOCOL"]
    ]
    assert receiver["endpoint"].endswith(f":{endpoint.port}")
    pipelines = config["service"]["pipelines"]
    for pipeline in pipelines.values():
        assert set(pipeline["receivers"]) <= set(config["receivers"])
        assert set(pipeline["processors"]) <= set(config["processors"])
        assert set(pipeline["exporters"]) <= set(config["exporters"])
    (to_jaeger,) = pipelines["traces"]["exporters"]
    host = config["exporters"][to_jaeger]["endpoint"].split(":")[0]
    assert host in compose["services"] and host == "jaeger"
    assert "metrics" in pipelines  # memoryd exports metrics too; unreceived, they log errors


def _seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)s", duration)
    assert match, f"write durations in seconds, like 30s: {duration}"
    return float(match.group(1))
