"""The Dockerfile, read as text (no Docker engine runs here): its settings, volume,
port, user, health check and entrypoint agree with the server and each other."""

from __future__ import annotations

import fnmatch
import re

import pytest

from deploykit import ENTRYPOINT, REPO, settings_from, unknown_settings


def _instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (REPO / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def _runtime_stage() -> list[tuple[str, str]]:
    instructions = _instructions()
    last_from = max(i for i, (name, _) in enumerate(instructions) if name == "FROM")
    return instructions[last_from:]


def _environment() -> dict[str, str]:
    pairs = [p for name, args in _runtime_stage() if name == "ENV" for p in args.split()]
    return dict(pair.split("=", 1) for pair in pairs)


def _args(name: str) -> list[str]:
    return [args for instruction, args in _runtime_stage() if instruction == name]


def test_both_stages_are_slim_python_3_12():
    images = [args.split()[0] for name, args in _instructions() if name == "FROM"]
    assert images == ["python:3.12-slim", "python:3.12-slim"]


def test_every_memoryd_variable_is_a_setting_and_valid(monkeypatch):
    environment = _environment()
    assert not unknown_settings(environment)
    settings = settings_from(environment, monkeypatch)
    assert settings.host == "0.0.0.0"


def test_volume_and_port_are_the_configured_ones():
    environment = _environment()
    assert _args("VOLUME") == [f'["{environment["MEMORYD_DATA_DIR"]}"]']
    assert _args("EXPOSE") == [environment["MEMORYD_PORT"]]


def test_runs_as_a_fixed_non_root_user():
    (user,) = _args("USER")
    uid, gid = (int(part) for part in user.split(":"))
    assert uid != 0 and gid != 0
    (setup,) = [args for args in _args("RUN") if "useradd" in args]
    assert f"--uid {uid}" in setup and f"--gid {gid}" in setup
    assert f"chown {uid}:{gid} {_environment()['MEMORYD_DATA_DIR']}" in setup


def test_health_check_and_entrypoint_are_the_tested_programs():
    (healthcheck,) = _args("HEALTHCHECK")
    assert 'CMD ["memoryd-healthcheck"' in healthcheck
    (entrypoint,) = _args("ENTRYPOINT")
    (copy,) = [args for args in _args("COPY") if "entrypoint" in args]
    source, target = copy.split()[-2:]
    assert REPO / source == ENTRYPOINT
    assert entrypoint == f'["{target.rsplit("/", 1)[1]}"]' and target.startswith("/usr/local/bin/")


def _copied_sources() -> list[str]:
    """What the COPY instructions take from the build context (not from a stage)."""
    sources = []
    for name, args in _instructions():
        words = [w for w in args.split() if not w.startswith("--")]
        if name == "COPY" and "--from=" not in args:
            sources.extend(words[:-1])
    return sources


@pytest.mark.parametrize("source", _copied_sources())
def test_dockerignore_lets_every_copied_path_in(source):
    assert _is_in_context(source.rstrip("/") or ".")


def test_dockerignore_keeps_the_rest_out():
    for path in ("tests/api/test_server.py", ".venv/bin/python", "clients/go/go.mod", "bench"):
        assert not _is_in_context(path), path


def _is_in_context(path: str) -> bool:
    """Whether the build context holds ``path``: the last matching .dockerignore
    line decides, as in Docker; a directory's lines apply to what is inside."""
    included = True
    for line in (REPO / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = line.lstrip("!").rstrip("/")
        prefixes = [path] + [p for p in _ancestors(path)]
        if any(fnmatch.fnmatch(p, pattern) for p in prefixes):
            included = negated
    return included


def _ancestors(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]
