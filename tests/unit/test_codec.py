"""The write log's documents: an import's vectors are journaled packed and read back exactly."""

from __future__ import annotations

import base64
import json
from array import array
from datetime import UTC, datetime

import pytest

from memoryd.core import operations
from memoryd.core.model import ImportedMemory, Memory, MemoryType, Scope

AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _memory(memory_id: str) -> Memory:
    return Memory(
        id=memory_id,
        content=f"memory {memory_id}",
        scope=Scope(user_id="u1"),
        memory_type=MemoryType.SEMANTIC,
        category="general",
        metadata={"source": "export"},
        memory_key="",
        create_time=AT,
        update_time=AT,
        version=3,
    )


def _float32s(*values: float) -> tuple[float, ...]:
    """Values as the contract's ``repeated float`` carries them: 32-bit floats."""
    return tuple(array("f", values))


def _journaled(items: tuple[ImportedMemory, ...]) -> tuple[dict, operations.Operation]:
    """The document as the journal stores it (JSON text), and the operation read back."""
    document = json.loads(json.dumps(operations.operation_to_json(operations.Import(items))))
    return document, operations.operation_from_json(operations.OperationKind.IMPORT, document)


def test_an_imports_vectors_read_back_exactly_with_every_other_field() -> None:
    vector = _float32s(0.1, -0.25, 1e-30, 3.4e38, -0.0, 0.7071067690849304)
    items = (ImportedMemory(_memory("a"), vector), ImportedMemory(_memory("b"), None))
    _, read = _journaled(items)
    assert read == operations.Import(items)
    assert read.items[0].vector == vector  # type: ignore[attr-defined]
    assert read.items[1].vector is None  # type: ignore[attr-defined]


def test_a_vector_is_journaled_as_four_bytes_per_float_not_as_json_numbers() -> None:
    vector = _float32s(*(i / 385 for i in range(384)))
    document, _ = _journaled((ImportedMemory(_memory("a"), vector),))
    stored = document["items"][0]["vector"]
    assert isinstance(stored, str)
    assert len(base64.b64decode(stored)) == 4 * 384
    assert len(stored) < len(json.dumps(list(vector))) / 3


def test_a_vector_journaled_as_a_list_before_packing_still_reads() -> None:
    vector = _float32s(0.5, -0.125, 0.3333333432674408)
    document, _ = _journaled((ImportedMemory(_memory("a"), vector),))
    document["items"][0]["vector"] = list(vector)  # as versions before packing wrote it
    read = operations.operation_from_json(operations.OperationKind.IMPORT, document)
    assert read.items[0].vector == vector  # type: ignore[attr-defined]


def test_a_damaged_packed_vector_is_refused_not_misread() -> None:
    document, _ = _journaled((ImportedMemory(_memory("a"), _float32s(0.5, 0.25)),))
    document["items"][0]["vector"] = "not base64!"
    with pytest.raises(ValueError):
        operations.operation_from_json(operations.OperationKind.IMPORT, document)
