"""memoryd stats: what a server holds, as a table or JSON; and who may ask."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from command_line import Run, memoryd
from seeding import seed_shared, seed_user

from memoryd_client import MemorydClient

from support import ServerProcess

ADMIN_KEY, USER_KEY = "admin-key-for-cli-tests", "user-key-for-cli-tests"


def test_stats_json_counts_what_the_server_holds(
    fresh_server: Callable[[], ServerProcess], cli: Callable[..., Run]
) -> None:
    server = fresh_server()
    with MemorydClient(server.address) as client:
        seed_user(client, "ann")
        seed_shared(client, "bot", "shop")

    run = cli("stats", "--json", "--address", server.address)

    assert run.code == 0, run.err
    stats = json.loads(run.out)
    assert stats["command"] == "stats"
    counts = ("user_memory_count", "agent_memory_count", "app_memory_count")
    assert [stats[name] for name in counts] == [4, 1, 1]
    assert stats["expired_memory_count"] == 0
    assert stats["journal_backlog"] == 0  # every seeded write was SYNC: applied
    assert stats["change_sequence"] >= 7  # six creates and an update
    assert stats["embedder_id"] and stats["dimension"] == 384
    assert stats["backend"] == "edge"
    assert stats["index_disk_bytes"] > 0 and stats["journal_disk_bytes"] > 0
    assert stats["reembed"]["state"] == "REEMBED_STATE_UNSPECIFIED"


def test_stats_table_names_each_figure(server: ServerProcess) -> None:
    run = memoryd("stats", "--address", server.address, env={"COLUMNS": "120"})
    assert run.code == 0, run.err
    for figure in ("user memories", "journal backlog", "embedder", "index on disk", "re-embedding"):
        assert figure in run.out


@pytest.fixture(scope="module")
def auth_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Auth mode api_key: ADMIN_KEY is a service with memory:admin, USER_KEY user alice."""
    principals = {
        ADMIN_KEY: {"service": "ops", "scopes": ["memory:admin"]},
        USER_KEY: {"user_id": "alice"},
    }
    keys = {hashlib.sha256(key.encode()).hexdigest(): who for key, who in principals.items()}
    env = {"MEMORYD_AUTH_MODE": "api_key", "MEMORYD_API_KEYS": json.dumps(keys)}
    process = ServerProcess(Path(tmp_path_factory.mktemp("auth")) / "data", env=env).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


def test_stats_needs_an_admin_principal(auth_server: ServerProcess) -> None:
    refused = memoryd("stats", "--api-key", USER_KEY, "--address", auth_server.address)
    assert refused.code == 1
    assert refused.err.startswith("memoryd stats: PERMISSION_DENIED (SCOPE_NOT_PERMITTED): ")

    anonymous = memoryd("stats", "--address", auth_server.address)
    assert anonymous.code == 1
    assert anonymous.err.startswith("memoryd stats: UNAUTHENTICATED (UNAUTHENTICATED): ")

    allowed = memoryd(
        "stats",
        "--json",
        env={"MEMORYD_ADDRESS": auth_server.address, "MEMORYD_API_KEY": ADMIN_KEY},
    )
    assert allowed.code == 0, allowed.err
    assert json.loads(allowed.out)["backend"] == "edge"


def test_exporting_everything_needs_an_admin_principal(auth_server: ServerProcess) -> None:
    refused = memoryd("export", "--api-key", USER_KEY, "--address", auth_server.address)
    assert refused.code == 1
    assert refused.err.startswith("memoryd export: PERMISSION_DENIED (SCOPE_NOT_PERMITTED): ")

    own = memoryd(
        "export", "--user", "alice", "--api-key", USER_KEY, "--address", auth_server.address
    )
    assert own.code == 0, own.err
