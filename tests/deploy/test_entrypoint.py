"""docker/entrypoint.sh as a real process: it serves until SIGTERM and refuses a bad data dir."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploykit import ENTRYPOINT, VENV_BIN, EntrypointProcess, probe, wait_until_healthy

NOBODY = 65534


def test_entrypoint_serves_until_sigterm_and_the_probe_follows(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    # The image's defaults are 0.0.0.0 and /var/lib/memoryd; here loopback and a temp dir.
    server = EntrypointProcess(
        data, env={"MEMORYD_HOST": "127.0.0.1", "MEMORYD_DATA_DIR": str(data)}
    ).start()
    try:
        settings = {"MEMORYD_HOST": "127.0.0.1", "MEMORYD_PORT": str(server.port)}
        healthy = wait_until_healthy(settings)
        assert healthy.code == 0, healthy.stderr
        assert healthy.stdout.strip() == f"127.0.0.1:{server.port}: server is SERVING"
        assert probe("--service", "memoryd.v1.MemoryService", env=settings).code == 0
        unknown = probe("--service", "no.such.Service", env=settings)
        assert unknown.code == 1 and "NOT_FOUND" in unknown.stderr
        assert (data / "journal.sqlite3").exists()
        assert not list(data.glob(".memoryd-entrypoint-*"))
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0, "".join(server.log)
    assert "memoryd stopped" in "".join(server.log)
    stopped = probe(env=settings)
    assert stopped.code == 1
    assert stopped.stderr.startswith("memoryd-healthcheck: unhealthy: ")
    assert "UNAVAILABLE" in stopped.stderr and len(stopped.stderr.strip().splitlines()) == 1


def test_entrypoint_refuses_a_missing_data_dir(tmp_path):
    missing = tmp_path / "not-mounted"
    done = _run_entrypoint({"MEMORYD_DATA_DIR": str(missing)})
    assert done.returncode == 1
    assert f"data directory {missing} does not exist" in done.stderr
    assert "mount a persistent volume there" in done.stderr


def test_entrypoint_refuses_a_file_as_data_dir(tmp_path):
    (tmp_path / "data").write_text("")
    done = _run_entrypoint({"MEMORYD_DATA_DIR": str(tmp_path / "data")})
    assert done.returncode == 1 and "is not a directory" in done.stderr


def test_entrypoint_refuses_an_unwritable_data_dir(shared_dir):
    data = shared_dir / "data"
    data.mkdir()
    data.chmod(0o555)
    # Root writes anywhere, so as root the script runs as nobody, like the image's
    # non-root user meeting a volume owned by someone else.
    uid = NOBODY if os.geteuid() == 0 else os.geteuid()
    done = _run_entrypoint({"MEMORYD_DATA_DIR": str(data)}, script=shared_dir / "entry.sh", uid=uid)
    assert done.returncode == 1
    assert f"data directory {data} is not writable by uid {uid}" in done.stderr
    assert not list(data.iterdir())


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory any user may enter, holding a copy of the entrypoint (pytest's
    tmp_path is private to the user running the tests)."""
    root = Path(tempfile.mkdtemp(prefix="memoryd-entrypoint-"))
    root.chmod(0o755)
    shutil.copy(ENTRYPOINT, root / "entry.sh")
    yield root
    for path in root.rglob("*"):
        if path.is_dir():
            path.chmod(0o755)
    shutil.rmtree(root)


def _run_entrypoint(
    env: dict[str, str], script: Path = ENTRYPOINT, uid: int | None = None
) -> subprocess.CompletedProcess[str]:
    """Runs the entrypoint to its end (it refuses before starting a server), as
    ``uid`` (and its group) if that is not the current user.

    The user is switched by setpriv, not by subprocess's ``user=``, which makes
    Python fork() this process instead of vfork(): once, such a child died of
    SIGSEGV in gRPC's epoll code (this process runs gRPC threads) before it
    could exec the script."""
    as_other = uid is not None and uid != os.geteuid()
    path = os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")])
    switch = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] if as_other else []
    return subprocess.run(
        [*switch, "sh", str(script)],
        env={**os.environ, "PATH": path, "MEMORYD_HOST": "127.0.0.1", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
