"""A feature that is switched off costs nothing at start-up either.

``memoryd serve`` on its defaults (no auth, telemetry off) must not import
PyJWT and its cryptography backend, OpenTelemetry's gRPC instrumentation, or
the operator commands' client and progress bars: together about 150 ms of a
start-up of about 0.7 s on an empty data directory. These tests read what the
real ``memoryd serve`` process imported before it listened, from Python's own
import profile (PYTHONPROFILEIMPORTTIME, written to the server's log).
"""

from __future__ import annotations

from pathlib import Path

from support import ServerProcess

SWITCHED_OFF_BY_DEFAULT = ("jwt", "opentelemetry.instrumentation.grpc", "rich", "memoryd_client")


def imported_before_listening(data_dir: Path, env: dict[str, str] | None = None) -> set[str]:
    """The modules a ``memoryd serve`` process imported until it listened."""
    server = ServerProcess(data_dir, env={"PYTHONPROFILEIMPORTTIME": "1", **(env or {})}).start()
    server.stop()
    profiled = (line for line in server.log if line.startswith("import time:"))
    return {line.rsplit("|", 1)[1].strip() for line in profiled}


def test_serve_on_its_defaults_imports_no_switched_off_feature(tmp_path: Path) -> None:
    imported = imported_before_listening(tmp_path / "data")
    assert {"memoryd.server", "memoryd.config", "qdrant_edge"} <= imported  # profile is on
    assert not imported & set(SWITCHED_OFF_BY_DEFAULT)


def test_jwt_auth_imports_pyjwt_when_chosen(tmp_path: Path) -> None:
    env = {"MEMORYD_AUTH_MODE": "jwt", "MEMORYD_JWT_SECRET": "a-secret-of-32-bytes-or-more-....."}
    imported = imported_before_listening(tmp_path / "data", env)
    assert {"jwt", "memoryd.api.jwt_credentials"} <= imported
