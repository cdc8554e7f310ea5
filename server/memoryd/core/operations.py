"""Journaled writes, typed, and their outcomes as JSON documents and back.

The write log stores exactly what the indexer needs to apply a write after a
restart (the operation, through core/codec.py), and the outcome GetWriteStatus
reports once it is applied.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, assert_never

from memoryd.core import codec
from memoryd.core.documents import from_document, to_document
from memoryd.core.errors import (
    InvalidArgument,
    MemorydError,
    MemoryNotFound,
    VersionConflict,
    WriteFailed,
)
from memoryd.core.model import (
    CreateResult,
    ImportCounts,
    ImportedMemory,
    Memory,
    MemoryChange,
    NewMemory,
    OperationKind,
    Scope,
    Selection,
    WriteOutcome,
)


@dataclass(frozen=True, slots=True)
class Create:
    """Creates memories in order (CreateMemory, or BatchCreateMemories with ``is_batch``)."""

    items: tuple[NewMemory, ...]
    is_batch: bool = False


@dataclass(frozen=True, slots=True)
class Update:
    change: MemoryChange


@dataclass(frozen=True, slots=True)
class Delete:
    memory_id: str
    scope: Scope
    expected_version: int | None


@dataclass(frozen=True, slots=True)
class Forget:
    selection: Selection


@dataclass(frozen=True, slots=True)
class Import:
    """Stores exported memories as they are (core/importing.py)."""

    items: tuple[ImportedMemory, ...]
    #: The embedder that made the items' vectors; if the server's has changed
    #: since (a re-embedding switched), they are embedded again.
    embedder_id: str = ""


@dataclass(frozen=True, slots=True)
class Expire:
    """Deletes the memories expired at ``cutoff`` (core/expiry.py)."""

    cutoff: datetime


Operation = Create | Update | Delete | Forget | Import | Expire


def kind_of(operation: Operation) -> OperationKind:
    match operation:
        case Create(is_batch=is_batch):
            return OperationKind.BATCH_CREATE if is_batch else OperationKind.CREATE
        case Update():
            return OperationKind.UPDATE
        case Delete():
            return OperationKind.DELETE
        case Forget():
            return OperationKind.FORGET
        case Import():
            return OperationKind.IMPORT
        case Expire():
            return OperationKind.EXPIRE
        case _:
            assert_never(operation)


def operation_to_json(operation: Operation) -> dict[str, Any]:
    """The document the write log keeps (the same as earlier versions wrote)."""
    match operation:
        case Create(items):
            return {"items": codec.to_json(items)}
        case Update(change):
            return codec.document(change)
        case Delete():
            return codec.document(operation)
        case Forget(selection):
            return codec.document(selection)
        case Import() | Expire():
            return codec.document(operation)
        case _:
            assert_never(operation)


def operation_from_json(kind: OperationKind, document: Mapping[str, Any]) -> Operation:
    match kind:
        case OperationKind.CREATE | OperationKind.BATCH_CREATE:
            items = tuple(codec.from_json(NewMemory, item) for item in document["items"])
            return Create(items, is_batch=kind is OperationKind.BATCH_CREATE)
        case OperationKind.UPDATE:
            return Update(codec.from_json(MemoryChange, document))
        case OperationKind.DELETE:
            return codec.from_json(Delete, document)
        case OperationKind.FORGET:
            return Forget(codec.from_json(Selection, document))
        case OperationKind.IMPORT:
            return codec.from_json(Import, document)
        case OperationKind.EXPIRE:
            return codec.from_json(Expire, document)
        case _:
            assert_never(kind)


def kept_once_finished(kind: OperationKind, document: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the log keeps of a finished write, when less than it journaled
    (None: all of it). An import's vectors are in the index once it is applied:
    without them a message of 500 memories keeps about 0.25 MB instead of 1.3 MB
    until its retention has passed, and the pages it frees take the next
    messages, so a large import no longer grows the journal by its vectors."""
    if kind is not OperationKind.IMPORT or not any(i.get("vector") for i in document["items"]):
        return None
    return {**document, "items": [{**item, "vector": None} for item in document["items"]]}


def texts_to_embed(kind: OperationKind, document: Mapping[str, Any]) -> list[str]:
    """The texts a journaled write embeds, read from its document without decoding it whole."""
    if kind in (OperationKind.CREATE, OperationKind.BATCH_CREATE):
        return [item["content"] for item in document["items"]]
    if kind is OperationKind.UPDATE and document["content"] is not None:
        return [document["content"]]
    return []


def scopes_of(operation: Operation) -> list[Scope]:
    """The scopes a write changes, for read-your-writes."""
    match operation:
        case Create(items):
            return [item.scope for item in items]
        case Update(change):
            return [change.scope]
        case Delete(scope=scope) | Forget(Selection(scope=scope)):
            return [scope]
        case Import(items):
            return [item.memory.scope for item in items]
        case Expire():
            return []  # no read waits for a purge: reads filter expired memories themselves
        case _:
            assert_never(operation)


def fingerprint(kind: OperationKind, document: dict[str, Any]) -> str:
    """A digest of a request, without the ids the server generates for it."""
    if kind in (OperationKind.CREATE, OperationKind.BATCH_CREATE):
        document = {"items": [{**i, "generated_id": ""} for i in document["items"]]}
    body = json.dumps([kind.value, document], sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


# --- outcomes -----------------------------------------------------------------

Outcome = tuple[CreateResult, ...] | Memory | int | ImportCounts | None


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    match outcome:
        case tuple():
            return {"created": [_create_result_json(r) for r in outcome]}
        case Memory():
            return {"memory": to_document(outcome)}
        case int():
            return {"deleted_count": outcome}
        case ImportCounts():
            return {"imported": codec.document(outcome)}
        case None:
            return {}


def outcome_from_json(kind: OperationKind, document: Mapping[str, Any]) -> Outcome:
    match kind:
        case OperationKind.CREATE | OperationKind.BATCH_CREATE:
            return tuple(_create_result_from_json(r) for r in document["created"])
        case OperationKind.UPDATE:
            return from_document(document["memory"])
        case OperationKind.FORGET | OperationKind.EXPIRE:
            return int(document["deleted_count"])
        case OperationKind.IMPORT:
            return codec.from_json(ImportCounts, document["imported"])
        case OperationKind.DELETE:
            return None
        case _:
            assert_never(kind)


def _create_result_json(result: CreateResult) -> dict[str, Any]:
    return {
        "memory": to_document(result.memory),
        "outcome": result.outcome.value,
        "similarity": result.duplicate_similarity,
    }


def _create_result_from_json(document: Mapping[str, Any]) -> CreateResult:
    return CreateResult(
        from_document(document["memory"]),
        WriteOutcome(document["outcome"]),
        document["similarity"],
    )


def error_to_json(error: MemorydError) -> dict[str, Any]:
    match error:
        case MemoryNotFound():
            return {"error": "not_found", "memory_id": error.memory_id}
        case VersionConflict():
            return {
                "error": "version",
                "memory_id": error.memory_id,
                "expected": error.expected,
                "actual": error.actual,
            }
        case InvalidArgument():
            return {"error": "invalid", "field": error.field, "reason": error.reason}
        case _:
            return {"error": "failed", "reason": str(error)}


def error_from_json(document: Mapping[str, Any]) -> MemorydError:
    match document["error"]:
        case "not_found":
            return MemoryNotFound(document["memory_id"])
        case "version":
            return VersionConflict(document["memory_id"], document["expected"], document["actual"])
        case "invalid":
            return InvalidArgument(document["field"], document["reason"])
        case _:
            return WriteFailed(document["reason"])
