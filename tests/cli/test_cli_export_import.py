"""memoryd export and memoryd import: JSONL out, a wipe, JSONL in, the same memories back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from command_line import SHOW_PROGRESS, Run, memoryd
from seeding import SYNC, read_jsonl, seed_shared, seed_user

from memoryd.api.credentials import api_key_hash
from memoryd_client import MemorydClient, pb, svc

from support import ServerProcess


def test_export_wipe_import_gives_back_the_same_memories(
    server: ServerProcess, client: MemorydClient, user: str, tmp_path: Path
) -> None:
    ids = seed_user(client, user)
    exported = tmp_path / "user.jsonl"

    run = memoryd("export", "--user", user, "--output", str(exported), "--address", server.address)
    assert run.code == 0, run.err
    assert run.out == ""
    assert f"exported {len(ids)} memories to {exported}" in run.err
    before = read_jsonl(exported)
    assert sorted(before) == sorted(ids)
    stats = client.get_stats()
    for record in before.values():
        assert record.embedder_id == stats.embedder_id
        assert len(record.vector) == stats.dimension
    assert before[ids[0]].memory.memory_key == "timezone"
    assert before[ids[1]].memory.HasField("expire_time")
    assert before[ids[3]].memory.version == 2

    forget = svc.ForgetMemoriesRequest(scope=pb.Scope(user_id=user), mode=SYNC)
    assert client.forget_memories(forget).deleted_count == len(ids)
    assert list(client.iter_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user)))) == []

    run = memoryd("import", "--input", str(exported), "--json", "--address", server.address)
    assert run.code == 0, run.err
    summary = json.loads(run.out)
    assert summary["command"] == "import"
    assert (summary["received_count"], summary["created_count"]) == (len(ids), len(ids))
    assert (summary["updated_count"], summary["unchanged_count"]) == (0, 0)
    assert summary["embedded_count"] == 0  # the vectors were the server's own: none embedded

    again = tmp_path / "again.jsonl"
    run = memoryd("export", "--user", user, "--output", str(again), "--address", server.address)
    assert run.code == 0, run.err
    assert read_jsonl(again) == before  # ids, keys, scopes, times, versions, expiry, vectors


def test_importing_twice_writes_nothing_the_second_time(
    server: ServerProcess, client: MemorydClient, user: str, tmp_path: Path, cli: Callable[..., Run]
) -> None:
    ids = seed_user(client, user)
    exported = tmp_path / "user.jsonl"
    assert (
        cli("export", "--user", user, "--output", str(exported), "--address", server.address).code
        == 0
    )

    run = cli("import", "--input", str(exported), "--json", "--address", server.address)
    assert run.code == 0, run.err
    summary = json.loads(run.out)
    assert summary["received_count"] == summary["unchanged_count"] == len(ids)
    assert summary["created_count"] == summary["updated_count"] == summary["embedded_count"] == 0

    run = cli("import", "--input", str(exported), "--address", server.address)
    assert run.code == 0, run.err
    assert f"{len(ids)} received, 0 created, 0 updated, {len(ids)} unchanged" in run.err


def test_export_of_everything_moves_a_whole_server(
    fresh_server: Callable[[], ServerProcess], tmp_path: Path
) -> None:
    source, target = fresh_server(), fresh_server()
    with MemorydClient(source.address) as client:
        ids = (
            seed_user(client, "ann") + seed_user(client, "bob") + seed_shared(client, "bot", "shop")
        )

    run = memoryd("export", "--address", source.address)  # no scope: everything, to stdout
    assert run.code == 0, run.err
    exported = tmp_path / "all.jsonl"
    exported.write_text(run.out, encoding="utf-8")
    before = read_jsonl(exported)
    assert sorted(before) == sorted(ids)

    run = memoryd("import", "--input", "-", "--json", "--address", target.address, stdin=run.out)
    assert run.code == 0, run.err
    assert json.loads(run.out)["created_count"] == len(ids)

    again = tmp_path / "again.jsonl"
    run = memoryd("export", "--output", str(again), "--json", "--address", target.address)
    assert run.code == 0, run.err
    summary = json.loads(run.out)
    assert summary["exported_count"] == summary["header"]["memory_count"] == len(ids)
    assert summary["output"] == str(again)
    assert read_jsonl(again) == before


def test_export_and_import_show_a_progress_bar_then_a_summary(
    server: ServerProcess, client: MemorydClient, user: str, tmp_path: Path
) -> None:
    seed_user(client, user)
    exported = tmp_path / "user.jsonl"
    address = server.address

    out = memoryd(
        "export", "--user", user, "--output", str(exported), "--address", address, env=SHOW_PROGRESS
    )
    into = memoryd("import", "--input", str(exported), "--address", address, env=SHOW_PROGRESS)

    for run, verb in ((out, "exporting"), (into, "importing")):
        assert run.code == 0, run.err
        bars = [line for line in run.err.splitlines() if verb in line]
        assert bars, run.err
        assert "4/4" in bars[-1] and "memories/s" in bars[-1] and "eta" in bars[-1]
    assert f"exported 4 memories to {exported} in " in out.err.rstrip().splitlines()[-1]
    assert "4 received, 0 created, 0 updated, 4 unchanged" in into.err.rstrip().splitlines()[-1]


def test_export_and_import_with_an_api_key(tmp_path: Path) -> None:
    operator_key = "mk_cli_operator_9d2e4a6c"
    operator = {"service": "ops", "scopes": ["memory:admin", "memory:act_as_user"]}
    env = {
        "MEMORYD_AUTH_MODE": "api_key",
        "MEMORYD_API_KEYS": json.dumps({api_key_hash(operator_key): operator}),
    }
    server = ServerProcess(tmp_path / "data", env=env).start()
    try:
        with MemorydClient(server.address, token=operator_key) as client:
            ids = seed_user(client, "ann")
            exported = tmp_path / "ann.jsonl"
            key = ("--api-key", operator_key, "--address", server.address)
            run = memoryd("export", "--user", "ann", "--output", str(exported), *key)
            assert run.code == 0, run.err
            forget = svc.ForgetMemoriesRequest(scope=pb.Scope(user_id="ann"), mode=SYNC)
            assert client.forget_memories(forget).deleted_count == len(ids)

            run = memoryd("import", "--input", str(exported), "--json", *key)

            assert run.code == 0, run.err
            assert json.loads(run.out)["created_count"] == len(ids)
            listed = client.list_memories(svc.ListMemoriesRequest(scope=pb.Scope(user_id="ann")))
            assert sorted(memory.id for memory in listed.memories) == sorted(ids)
    finally:
        assert server.stop() == 0, "".join(server.log)
