"""The JSONL reader of memoryd import, and the import's batching, without a server."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import json_format

from memoryd.cli.sources.base import SourceError
from memoryd.cli.sources.jsonl import open_jsonl
from memoryd_client import ScopeWrites, pb, svc
from memoryd_client._transfer_calls import MAX_BATCH_BYTES, ImportBatches


def _line(content: str, user: str = "u1") -> str:
    record = svc.ExportedMemory(memory=pb.Memory(content=content, scope=pb.Scope(user_id=user)))
    return json_format.MessageToJson(record, indent=None)


def test_a_file_is_counted_first_and_read_lazily(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(f"{_line('a')}\n\n{_line('b')}\n   \n{_line('c')}", encoding="utf-8")
    source = open_jsonl(path)
    assert (source.total, source.description) == (3, f"JSONL file {path}")
    assert [record.memory.content for record in source.records] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("bad", "found"),
    [
        ("[1, 2]", "line 4: not an ExportedMemory"),
        ('{"memory": {"content": 7}}', "line 4: not an ExportedMemory"),
        ('{"vector": ["x"]}', "line 4: not an ExportedMemory"),
    ],
)
def test_a_bad_line_names_its_number_when_reached(tmp_path: Path, bad: str, found: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(f"{_line('a')}\n{_line('b')}\n\n{bad}\n{_line('c')}\n", encoding="utf-8")
    records = open_jsonl(path).records
    assert [next(records).memory.content, next(records).memory.content] == ["a", "b"]
    with pytest.raises(SourceError, match=found) as error:
        next(records)
    assert str(path) in str(error.value)


def test_bytes_that_are_not_utf8_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(f"{_line('a')}\n".encode() + b'{"memory": {"content": "\xff"}}\n')
    with pytest.raises(SourceError, match="line 2: not UTF-8"):
        list(open_jsonl(path).records)


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        open_jsonl(tmp_path / "absent.jsonl")


def _records(count: int, size: int = 10) -> list[svc.ExportedMemory]:
    return [
        svc.ExportedMemory(memory=pb.Memory(content="x" * size, scope=pb.Scope(user_id=f"u{i}")))
        for i in range(count)
    ]


def test_batches_hold_batch_size_records_and_the_rest_goes_last() -> None:
    batches = ImportBatches(ScopeWrites(), batch_size=200)
    sizes = [len(message.memories) for message in batches.requests(_records(450))]
    assert sizes == [200, 200, 50]
    batches.finish("token-1")


def test_a_batch_is_sent_early_rather_than_pass_the_byte_budget() -> None:
    big = 32 * 1024
    batches = ImportBatches(ScopeWrites(), batch_size=500)
    messages = list(batches.requests(_records(300, size=big)))
    assert all(message.ByteSize() <= MAX_BATCH_BYTES + 1024 for message in messages)
    assert sum(len(message.memories) for message in messages) == 300
    assert len(messages) > 1


def test_reads_of_imported_scopes_carry_the_imports_token() -> None:
    writes = ScopeWrites()
    batches = ImportBatches(writes, batch_size=2)
    list(batches.requests(_records(3)))
    assert writes.in_flight(frozenset({"user\x1fu2"}))  # sent, not yet answered
    batches.finish("token-7")
    assert writes.token_for(pb.Scope(user_id="u2")) == "token-7"
    assert not writes.in_flight(frozenset({"user\x1fu2"}))


@pytest.mark.parametrize("size", [0, 501])
def test_batch_size_outside_the_contract_is_a_value_error(size: int) -> None:
    with pytest.raises(ValueError, match=f"batch_size is {size}; use 1 to 500"):
        ImportBatches(ScopeWrites(), batch_size=size)
