"""How the operator commands fail: bad usage exits 2, a failed call or an unreadable
source exits 1 with one line that says why, and never a traceback."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from command_line import Run, memoryd
from google.protobuf import json_format

from memoryd_client import MemorydClient, pb, svc

from support import ServerProcess


@pytest.fixture
def closed_address() -> Iterator[str]:
    """A loopback address nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    yield f"127.0.0.1:{port}"


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize(
    "command", [["stats"], ["export", "--user", "u1"], ["reembed", "--to", "gemini"]]
)
def test_a_server_that_is_down_is_one_line_and_exit_1(
    closed_address: str, command: list[str]
) -> None:
    run = memoryd(*command, "--address", closed_address, "--timeout", "2")
    assert run.code == 1
    line = _one_line(run.err)
    assert line.startswith(f"memoryd {command[0]}: UNAVAILABLE: "), line
    assert run.out == ""


def test_a_failed_export_leaves_no_file(closed_address: str, tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    run = memoryd("export", "--output", str(target), "--address", closed_address, "--timeout", "2")
    assert run.code == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "--json"], "--json needs --output FILE"),
        (["import"], "--from jsonl needs --input"),
        (["import", "--input", "x.jsonl", "--path", "store"], "--path apply to --from tenxgraph"),
        (["import", "--from", "mem0"], "needs --path DIR or --url URL"),
        (["import", "--from", "tenxgraph", "--path", "a", "--url", "http://b"], "one of them"),
        (["import", "--from", "mem0", "--path", "a", "--input", "x"], "--input applies to"),
        (["import", "--input", "x", "--batch-size", "501"], "use 1 to 500"),
        (["stats", "--api-key", "k", "--token", "t"], "not both"),
        (["stats", "--tls-cert", "cert.pem"], "needs both --tls-cert and --tls-key"),
        (["stats", "--tls-ca", "/no/such/ca.pem"], "cannot read --tls-ca"),
        (["stats", "--timeout", "0"], "positive number of seconds"),
        (["reembed"], "--to"),
        (["import", "--from", "csv"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_usage_exits_2_and_says_what_to_change(
    cli: Callable[..., Run], closed_address: str, args: list[str], message: str
) -> None:
    run = cli(*args, *(["--address", closed_address] if args[0] != "frobnicate" else []))
    assert run.code == 2
    assert message in run.err
    assert run.out == ""


def test_bad_usage_exits_2_from_the_console_script() -> None:
    run = memoryd("import", "--input", "records.jsonl", "--same-embedder")
    assert run.code == 2
    assert "--same-embedder apply to --from tenxgraph or mem0" in _one_line(run.err)


def _record(user: str) -> str:
    record = svc.ExportedMemory(
        memory=pb.Memory(
            id=str(uuid.uuid4()), content="Likes green tea", scope=pb.Scope(user_id=user), version=1
        )
    )
    record.memory.create_time.GetCurrentTime()
    record.memory.update_time.CopyFrom(record.memory.create_time)
    return json_format.MessageToJson(record, indent=None)


@pytest.mark.parametrize("bad_line", ['{"memory": {"content": "x"', '{"memory": {"colour": "x"}}'])
def test_a_malformed_jsonl_line_is_named_by_its_number(
    server: ServerProcess, client: MemorydClient, user: str, tmp_path: Path, bad_line: str
) -> None:
    good = _record(user)
    source = tmp_path / "records.jsonl"
    source.write_text(f"{good}\n\n{bad_line}\n{_record(user)}\n", encoding="utf-8")

    run = memoryd("import", "--input", str(source), "--address", server.address)

    assert run.code == 1
    line = _one_line(run.err.splitlines()[-1])
    assert line.startswith(f"memoryd import: {source}, line 3: not an ExportedMemory"), line
    assert "the 1 records before it were imported" in line
    imported = json_format.Parse(good, svc.ExportedMemory()).memory
    got = client.get_memory(svc.GetMemoryRequest(id=imported.id, scope=imported.scope))
    assert got.memory.content == imported.content


def test_a_missing_jsonl_file_is_exit_1(server: ServerProcess, tmp_path: Path) -> None:
    run = memoryd("import", "--input", str(tmp_path / "absent.jsonl"), "--address", server.address)
    assert run.code == 1
    assert "cannot read" in _one_line(run.err)
