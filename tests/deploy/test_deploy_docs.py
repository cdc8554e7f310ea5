"""docs/deploy.md and the Kubernetes example name only real settings, and the
manifests fit together, with the image and with the server."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from memoryd.server import SERVICE_NAME

from deploykit import REPO, settings_from, settings_named, unknown_settings

K8S = REPO / "docs" / "k8s"


@pytest.fixture(scope="module")
def manifests() -> dict[tuple[str, str], dict[str, Any]]:
    """Every object of docs/k8s, by (kind, name)."""
    objects = {}
    for path in sorted(K8S.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            objects[(document["kind"], document["metadata"]["name"])] = document
    return objects


@pytest.fixture(scope="module")
def container(manifests) -> dict[str, Any]:
    (memoryd,) = manifests[("StatefulSet", "memoryd")]["spec"]["template"]["spec"]["containers"]
    return memoryd


def test_every_memoryd_variable_in_the_guide_and_manifests_is_a_setting():
    texts = [(REPO / "docs" / "deploy.md").read_text()]
    texts += [path.read_text() for path in sorted(K8S.glob("*.yaml"))]
    named = set().union(*(settings_named(text) for text in texts))
    assert "MEMORYD_QDRANT_URL" in named  # the pattern finds what the files say
    assert not unknown_settings(named)


def test_config_map_and_secret_make_valid_settings_for_a_qdrant_cluster(
    manifests, container, monkeypatch
):
    sources = [next(iter(ref.values()))["name"] for ref in container["envFrom"]]
    assert sources == ["memoryd-config", "memoryd-secrets"]
    environment = {
        **manifests[("ConfigMap", "memoryd-config")]["data"],
        **manifests[("Secret", "memoryd-secrets")]["stringData"],
    }
    assert not unknown_settings(environment)
    settings = settings_from(environment, monkeypatch)  # raises if a value is refused
    assert settings.backend == "qdrant" and settings.qdrant_url.startswith("http://qdrant.")
    assert settings.auth_mode == "api_key" and settings.api_keys


def test_each_replica_keeps_its_journal_on_its_own_volume(manifests, container, monkeypatch):
    statefulset = manifests[("StatefulSet", "memoryd")]["spec"]
    (claim,) = statefulset["volumeClaimTemplates"]
    assert claim["spec"]["accessModes"] == ["ReadWriteOnce"]
    config = manifests[("ConfigMap", "memoryd-config")]["data"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts[claim["metadata"]["name"]] == config["MEMORYD_DATA_DIR"]
    assert statefulset["persistentVolumeClaimRetentionPolicy"] == {
        "whenDeleted": "Retain",
        "whenScaled": "Retain",
    }


def test_probes_ask_the_servers_health_service_on_its_port(container):
    (port,) = container["ports"]
    for name in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[name]["grpc"]["port"] == port["containerPort"] == 50051, name
    assert container["readinessProbe"]["grpc"]["service"] == SERVICE_NAME


def test_pods_run_as_the_images_user(manifests):
    pod = manifests[("StatefulSet", "memoryd")]["spec"]["template"]["spec"]
    dockerfile = (REPO / "Dockerfile").read_text()
    user = pod["securityContext"]
    assert f"USER {user['runAsUser']}:{user['runAsGroup']}" in dockerfile
    assert user["fsGroup"] == user["runAsGroup"] and user["runAsNonRoot"] is True


def test_termination_grace_covers_the_shutdown_sequence(manifests, monkeypatch):
    config = manifests[("ConfigMap", "memoryd-config")]["data"]
    secrets = manifests[("Secret", "memoryd-secrets")]["stringData"]
    settings = settings_from({**config, **secrets}, monkeypatch)
    pod = manifests[("StatefulSet", "memoryd")]["spec"]["template"]["spec"]
    shutdown = (
        settings.shutdown_announce_seconds
        + settings.shutdown_grace_seconds
        + settings.shutdown_drain_seconds
    )
    assert pod["terminationGracePeriodSeconds"] > shutdown


def test_services_select_the_replicas(manifests):
    statefulset = manifests[("StatefulSet", "memoryd")]["spec"]
    labels = statefulset["template"]["metadata"]["labels"]
    headless = manifests[("Service", statefulset["serviceName"])]["spec"]
    assert headless["clusterIP"] == "None"
    for name in (statefulset["serviceName"], "memoryd"):
        spec = manifests[("Service", name)]["spec"]
        assert spec["selector"].items() <= labels.items()
        assert [p["targetPort"] for p in spec["ports"]] == ["grpc"]
