"""Protobuf <-> domain for memories and writes: the resource, its changes, write results.

Checks wire shape (enum values defined, oneofs set, masks known, numbers that
JSON can hold) and names each field as the client sees it; ranges and limits
are core's business. Reads, Preload, filter trees and write statuses have
their own *_convert.py modules beside this one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, NoReturn

from google.protobuf import duration_pb2, json_format, struct_pb2, timestamp_pb2

from memoryd.api.enums import (
    MEMORY_TYPES,
    METADATA_MODES,
    WRITE_MODES,
    WRITE_OUTCOMES,
)
from memoryd.api.filter_convert import MAX_NANOS, time_from_proto
from memoryd.core.documents import micros
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import (
    DEFAULT_CATEGORY,
    CreateResult,
    ImportCounts,
    Memory,
    MemoryChange,
    MemoryType,
    NewMemory,
    Scope,
    WriteMode,
)
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

UPDATABLE_FIELDS = ("content", "metadata", "category", "memory_type", "expire_time")
#: google.protobuf.Duration's documented range: about +-10,000 years.
MAX_DURATION_SECONDS = 315_576_000_000


# --- to proto ---------------------------------------------------------------


def memory_to_proto(memory: Memory) -> pb.Memory:
    message = pb.Memory()
    fill_memory(message, memory)
    return message


def fill_memory(message: pb.Memory, memory: Memory) -> None:
    """Writes ``memory`` into ``message``, a fresh one inside a reply: filled in
    place, a reply's memories are not copied into it, which halves the time a
    5-hit search reply takes to make (33 -> 17 µs)."""
    message.id = memory.id
    message.content = memory.content
    scope = message.scope
    scope.SetInParent()
    scope.user_id = memory.scope.user_id
    scope.agent_id = memory.scope.agent_id
    scope.app_id = memory.scope.app_id
    scope.thread_id = memory.scope.thread_id
    message.memory_type = MEMORY_TYPES.to_proto(memory.memory_type)
    message.category = memory.category
    message.memory_key = memory.memory_key
    message.version = memory.version
    if memory.metadata:
        message.metadata.update(dict(memory.metadata))
    set_time(message.create_time, memory.create_time)
    set_time(message.update_time, memory.update_time)
    if memory.expire_time is not None:
        set_time(message.expire_time, memory.expire_time)


def set_time(field: timestamp_pb2.Timestamp, value: datetime) -> None:
    """As ``field.FromDatetime(value)``, in a quarter of the time (three per search hit)."""
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)  # as FromDatetime reads it
    field.seconds, microseconds = divmod(micros(aware), 1_000_000)
    field.nanos = microseconds * 1000


def create_result_to_proto(result: CreateResult, write_token: str) -> svc.CreateMemoryResponse:
    response = svc.CreateMemoryResponse()
    fill_create_result(response, result, write_token)
    return response


def fill_create_result(
    response: svc.CreateMemoryResponse, result: CreateResult, write_token: str
) -> None:
    """Writes ``result`` into ``response``, a fresh one (see fill_memory)."""
    fill_memory(response.memory, result.memory)
    response.outcome = WRITE_OUTCOMES.to_proto(result.outcome)
    response.duplicate_similarity = result.duplicate_similarity
    response.write_token = write_token
    if not result.is_create_time_known:
        response.memory.ClearField("create_time")


def batch_results_to_proto(
    results: Iterable[CreateResult], write_token: str
) -> svc.BatchCreateMemoriesResponse:
    response = svc.BatchCreateMemoriesResponse(write_token=write_token)
    for result in results:
        fill_create_result(response.results.add(), result, write_token)
    return response


def update_result_to_proto(memory: Memory | None, write_token: str) -> svc.UpdateMemoryResponse:
    response = svc.UpdateMemoryResponse(write_token=write_token)
    if memory is not None:
        fill_memory(response.memory, memory)
    return response


def import_counts_to_proto(counts: ImportCounts, token: str) -> svc.ImportMemoriesResponse:
    """What one import write did; ``received_count`` is every record it carried."""
    return svc.ImportMemoriesResponse(
        received_count=counts.created + counts.updated + counts.unchanged,
        created_count=counts.created,
        updated_count=counts.updated,
        unchanged_count=counts.unchanged,
        embedded_count=counts.embedded,
        write_token=token,
    )


def mode_from_proto(value: int) -> WriteMode:
    return WRITE_MODES.from_proto(value, "mode")


# --- from proto -------------------------------------------------------------


def scope_from_proto(scope: pb.Scope) -> Scope:
    return Scope(
        user_id=scope.user_id,
        agent_id=scope.agent_id,
        app_id=scope.app_id,
        thread_id=scope.thread_id,
    )


def new_memory_from_proto(request: svc.CreateMemoryRequest, field: str = "") -> NewMemory:
    memory = request.memory
    if memory.id:
        raise InvalidArgument(
            f"{field}memory.id", "must be empty on create; set memory_id to choose the id"
        )
    return NewMemory(
        content=memory.content,
        scope=scope_from_proto(memory.scope),
        memory_type=(
            MemoryType.EPISODIC
            if memory.memory_type == pb.MEMORY_TYPE_UNSPECIFIED
            else MEMORY_TYPES.from_proto(memory.memory_type, f"{field}memory.memory_type")
        ),
        category=memory.category or DEFAULT_CATEGORY,
        metadata=metadata_from_proto(memory.metadata, f"{field}memory.metadata"),
        memory_key=memory.memory_key,
        memory_id=request.memory_id or None,
        dedup_threshold=request.dedup_threshold if request.HasField("dedup_threshold") else None,
        expire_time=_expire_time_from_proto(memory, f"{field}memory.expire_time"),
        ttl_seconds=_ttl_from_proto(request, f"{field}ttl"),
    )


def batch_from_proto(request: svc.BatchCreateMemoriesRequest) -> list[NewMemory]:
    """The creates of a batch. The batch's mode and request_id govern them all,
    so a create that sets another one is refused rather than quietly overruled."""
    batch_mode = mode_from_proto(request.mode)
    for i, item in enumerate(request.requests):
        if item.mode and WRITE_MODES.from_proto(item.mode, f"requests[{i}].mode") != batch_mode:
            _refuse_in_batch(i, "mode")
        if item.request_id and item.request_id != request.request_id:
            _refuse_in_batch(i, "request_id")
    return [
        new_memory_from_proto(item, f"requests[{i}].") for i, item in enumerate(request.requests)
    ]


def _refuse_in_batch(index: int, name: str) -> NoReturn:
    raise InvalidArgument(
        f"requests[{index}].{name}",
        f"differs from the batch's, which applies to every create in it; set {name} "
        "on BatchCreateMemoriesRequest and leave it unset here",
    )


def metadata_from_proto(metadata: struct_pb2.Struct, field: str) -> dict[str, Any]:
    """The metadata as plain JSON values; ``field`` is its name in the request.

    Raises InvalidArgument naming a NaN or infinite number (``field.key``,
    ``field.key[2]``): JSON, which the journal and Qdrant's payload store, has no
    such numbers, so protobuf's JSON mapping refuses them too.
    """
    pending = [(value, f"{field}.{key[:64]}") for key, value in metadata.fields.items()]
    while pending:
        value, path = pending.pop()
        match value.WhichOneof("kind"):
            case "number_value" if not math.isfinite(value.number_value):
                raise InvalidArgument(path, f"{value.number_value} is not a finite number")
            case "struct_value":
                pending += [(v, f"{path}.{k[:64]}") for k, v in value.struct_value.fields.items()]
            case "list_value":
                pending += [(v, f"{path}[{i}]") for i, v in enumerate(value.list_value.values)]
    return json_format.MessageToDict(metadata)


def change_from_proto(request: svc.UpdateMemoryRequest) -> MemoryChange:
    memory = request.memory
    paths = list(request.update_mask.paths)
    if not paths:
        paths = [name for name in UPDATABLE_FIELDS if _is_set(memory, name)]
        if not paths and not request.HasField("ttl"):
            raise InvalidArgument(
                "update_mask",
                f"nothing to update; set update_mask to some of {UPDATABLE_FIELDS}, or set ttl",
            )
    elif paths == ["*"]:
        paths = list(UPDATABLE_FIELDS)
    for path in paths:
        if path not in UPDATABLE_FIELDS:
            raise InvalidArgument(
                "update_mask", f"{path!r} cannot be updated; allowed: {', '.join(UPDATABLE_FIELDS)}"
            )
    mode = METADATA_MODES.from_proto(request.metadata_update_mode, "metadata_update_mode")
    memory_type = None
    if "memory_type" in paths:
        if memory.memory_type == pb.MEMORY_TYPE_UNSPECIFIED:
            raise InvalidArgument("memory.memory_type", "must be set when in update_mask")
        memory_type = MEMORY_TYPES.from_proto(memory.memory_type, "memory.memory_type")
    return MemoryChange(
        memory_id=memory.id,
        scope=scope_from_proto(memory.scope),
        content=memory.content if "content" in paths else None,
        metadata=(
            metadata_from_proto(memory.metadata, "memory.metadata") if "metadata" in paths else None
        ),
        metadata_mode=mode,
        category=(memory.category or DEFAULT_CATEGORY) if "category" in paths else None,
        memory_type=memory_type,
        expected_version=expected_version_from_proto(request),
        changes_expiry="expire_time" in paths,
        expire_time=(
            _expire_time_from_proto(memory, "memory.expire_time")
            if "expire_time" in paths
            else None
        ),
        ttl_seconds=_ttl_from_proto(request, "ttl"),
    )


def expected_version_from_proto(
    request: svc.UpdateMemoryRequest | svc.DeleteMemoryRequest,
) -> int | None:
    """None when the request sets no expected_version: any version will do."""
    return request.expected_version if request.HasField("expected_version") else None


def duration_from_proto(value: duration_pb2.Duration, field: str) -> float:
    """A Duration in seconds; InvalidArgument outside Duration's documented range."""
    if not -MAX_DURATION_SECONDS <= value.seconds <= MAX_DURATION_SECONDS:
        raise InvalidArgument(
            field,
            f"seconds {value.seconds} is outside +-{MAX_DURATION_SECONDS}, the range of a "
            "google.protobuf.Duration",
        )
    if not -MAX_NANOS <= value.nanos <= MAX_NANOS:
        raise InvalidArgument(
            field, f"nanos must be -{MAX_NANOS} to {MAX_NANOS}, got {value.nanos}"
        )
    if value.seconds * value.nanos < 0:
        raise InvalidArgument(field, "seconds and nanos must have the same sign")
    return value.seconds + value.nanos / 1e9


def _ttl_from_proto(
    request: svc.CreateMemoryRequest | svc.UpdateMemoryRequest, field: str
) -> float | None:
    return duration_from_proto(request.ttl, field) if request.HasField("ttl") else None


def _expire_time_from_proto(memory: pb.Memory, field: str) -> datetime | None:
    if not memory.HasField("expire_time"):
        return None
    return time_from_proto(memory.expire_time, field)


def _is_set(memory: pb.Memory, name: str) -> bool:
    if name in ("metadata", "expire_time"):
        return memory.HasField(name)
    return bool(getattr(memory, name))
