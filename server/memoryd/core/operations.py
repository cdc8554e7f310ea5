"""Journaled writes and their outcomes as JSON documents, and back.

The journal stores exactly what the indexer needs to apply a write after a
restart, and the outcome GetWriteStatus reports once it is applied.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memoryd.core import filters
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
    Memory,
    MemoryChange,
    MemoryType,
    MetadataMode,
    NewMemory,
    Scope,
    Selection,
    WriteOutcome,
)

CREATE, BATCH_CREATE = "create", "batch_create"
UPDATE, DELETE, FORGET = "update", "delete", "forget"


@dataclass(frozen=True, slots=True)
class Delete:
    memory_id: str
    scope: Scope
    expected_version: int | None


Operation = tuple[NewMemory, ...] | MemoryChange | Delete | Selection


def kind_of(operation: Operation) -> str:
    match operation:
        case tuple():
            return CREATE
        case MemoryChange():
            return UPDATE
        case Delete():
            return DELETE
        case Selection():
            return FORGET


def operation_to_json(operation: Operation) -> dict[str, Any]:
    match operation:
        case tuple():
            return {"items": [_new_memory_json(item) for item in operation]}
        case MemoryChange():
            return {
                "memory_id": operation.memory_id,
                "scope": _scope_json(operation.scope),
                "content": operation.content,
                "metadata": dict(operation.metadata) if operation.metadata is not None else None,
                "metadata_mode": operation.metadata_mode.value,
                "category": operation.category,
                "memory_type": operation.memory_type.value if operation.memory_type else None,
                "expected_version": operation.expected_version,
            }
        case Delete():
            return {
                "memory_id": operation.memory_id,
                "scope": _scope_json(operation.scope),
                "expected_version": operation.expected_version,
            }
        case Selection():
            return {
                "scope": _scope_json(operation.scope),
                "memory_types": [t.value for t in operation.memory_types],
                "categories": list(operation.categories),
                "where": filters.to_json(operation.where) if operation.where else None,
            }


def operation_from_json(kind: str, document: Mapping[str, Any]) -> Operation:
    if kind in (CREATE, BATCH_CREATE):
        return tuple(_new_memory_from_json(item) for item in document["items"])
    scope = Scope(**document["scope"])
    if kind == UPDATE:
        memory_type = document["memory_type"]
        return MemoryChange(
            memory_id=document["memory_id"],
            scope=scope,
            content=document["content"],
            metadata=document["metadata"],
            metadata_mode=MetadataMode(document["metadata_mode"]),
            category=document["category"],
            memory_type=MemoryType(memory_type) if memory_type else None,
            expected_version=document["expected_version"],
        )
    if kind == DELETE:
        return Delete(document["memory_id"], scope, document["expected_version"])
    where = document["where"]
    return Selection(
        scope=scope,
        memory_types=tuple(MemoryType(t) for t in document["memory_types"]),
        categories=tuple(document["categories"]),
        where=filters.from_json(where) if where else None,
    )


def _scope_json(scope: Scope) -> dict[str, str]:
    return {
        "user_id": scope.user_id,
        "agent_id": scope.agent_id,
        "app_id": scope.app_id,
        "thread_id": scope.thread_id,
    }


def _new_memory_json(new: NewMemory) -> dict[str, Any]:
    return {
        "content": new.content,
        "scope": _scope_json(new.scope),
        "memory_type": new.memory_type.value,
        "category": new.category,
        "metadata": dict(new.metadata),
        "memory_key": new.memory_key,
        "memory_id": new.memory_id,
        "dedup_threshold": new.dedup_threshold,
        "generated_id": new.generated_id,
    }


def _new_memory_from_json(document: Mapping[str, Any]) -> NewMemory:
    return NewMemory(
        content=document["content"],
        scope=Scope(**document["scope"]),
        memory_type=MemoryType(document["memory_type"]),
        category=document["category"],
        metadata=document["metadata"],
        memory_key=document["memory_key"],
        memory_id=document["memory_id"],
        dedup_threshold=document["dedup_threshold"],
        generated_id=document["generated_id"],
    )


# --- outcomes -----------------------------------------------------------------

Outcome = tuple[CreateResult, ...] | Memory | int | None


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    match outcome:
        case tuple():
            return {"created": [_create_result_json(r) for r in outcome]}
        case Memory():
            return {"memory": to_document(outcome)}
        case int():
            return {"deleted_count": outcome}
        case None:
            return {}


def outcome_from_json(kind: str, document: Mapping[str, Any]) -> Outcome:
    if kind in (CREATE, BATCH_CREATE):
        return tuple(_create_result_from_json(r) for r in document["created"])
    if kind == UPDATE:
        return from_document(document["memory"])
    if kind == FORGET:
        return int(document["deleted_count"])
    return None


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


def scopes_of(operation: Operation) -> list[Scope]:
    """The scopes a write changes, for read-your-writes."""
    match operation:
        case tuple():
            return [item.scope for item in operation]
        case MemoryChange() | Delete() | Selection():
            return [operation.scope]


def fingerprint(kind: str, document: dict[str, Any]) -> str:
    """A digest of a request, without the ids the server generates for it."""
    if kind in (CREATE, BATCH_CREATE):
        document = {"items": [{**i, "generated_id": ""} for i in document["items"]]}
    body = json.dumps([kind, document], sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()
