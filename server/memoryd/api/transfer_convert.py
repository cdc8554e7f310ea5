"""Protobuf <-> domain for ExportMemories and ImportMemories."""

from __future__ import annotations

from datetime import UTC, datetime

from google.protobuf import timestamp_pb2

from memoryd.api.convert import (
    import_counts_to_proto,
    memory_to_proto,
    metadata_from_proto,
    scope_from_proto,
)
from memoryd.api.enums import MEMORY_TYPES
from memoryd.api.query_convert import selection_from_proto
from memoryd.core.errors import InvalidArgument
from memoryd.core.import_session import ImportResult
from memoryd.core.model import DEFAULT_CATEGORY, ImportedMemory, Memory, MemoryType
from memoryd.core.ports import IndexSpec
from memoryd.core.transfers import ExportedMemory, ExportHeader, ExportQuery
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

#: The times an import accepts: RFC 3339 years, from the Unix epoch on.
_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
_LATEST = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def export_query_from_proto(request: svc.ExportMemoriesRequest) -> ExportQuery:
    selection = selection_from_proto(
        request.scope,
        request.memory_types,
        request.categories,
        request.filter if request.HasField("filter") else None,
    )
    return ExportQuery(selection, request.page_size)


def header_to_proto(header: ExportHeader) -> svc.ExportMemoriesResponse:
    message = svc.ExportHeader(
        memory_count=header.memory_count,
        embedder_id=header.embedder_id,
        dimension=header.dimension,
        change_sequence=header.change_sequence,
    )
    message.snapshot_time.FromDatetime(header.snapshot_time)
    return svc.ExportMemoriesResponse(header=message)


def page_to_proto(page: list[ExportedMemory], embedder_id: str) -> svc.ExportMemoriesResponse:
    return svc.ExportMemoriesResponse(
        memories=[
            svc.ExportedMemory(
                memory=_memory_to_proto(m.memory), vector=m.vector, embedder_id=embedder_id
            )
            for m in page
        ]
    )


def _memory_to_proto(memory: Memory) -> pb.Memory:
    message = memory_to_proto(memory)
    if memory.expire_time is not None:
        message.expire_time.FromDatetime(memory.expire_time)
    return message


def imported_from_proto(
    request: svc.ImportMemoriesRequest, spec: IndexSpec
) -> list[ImportedMemory]:
    """The records of one message. A vector is kept when it is ``spec``'s
    embedder's and of its dimension; otherwise the content is embedded again."""
    return [_imported(record, f"memories[{i}]", spec) for i, record in enumerate(request.memories)]


def _imported(record: svc.ExportedMemory, field: str, spec: IndexSpec) -> ImportedMemory:
    if not record.HasField("memory"):
        raise InvalidArgument(f"{field}.memory", "must be set")
    memory = record.memory
    prefix = f"{field}.memory"
    create_time = _time(memory, "create_time", prefix)
    update_time = _time(memory, "update_time", prefix)
    create_time = create_time or update_time or datetime.now(UTC)
    expire_time = _time(memory, "expire_time", prefix)
    imported = Memory(
        id=memory.id,
        content=memory.content,
        scope=scope_from_proto(memory.scope),
        memory_type=(
            MemoryType.EPISODIC
            if memory.memory_type == pb.MEMORY_TYPE_UNSPECIFIED
            else MEMORY_TYPES.from_proto(memory.memory_type, f"{prefix}.memory_type")
        ),
        category=memory.category or DEFAULT_CATEGORY,
        metadata=metadata_from_proto(memory.metadata, f"{prefix}.metadata"),
        memory_key=memory.memory_key,
        create_time=create_time,
        update_time=update_time or create_time,
        version=memory.version or 1,
        expire_time=expire_time,
    )
    vector = None
    if record.embedder_id == spec.embedder_id and len(record.vector) == spec.dimension:
        vector = tuple(record.vector)
    return ImportedMemory(imported, vector)


def _time(memory: pb.Memory, name: str, prefix: str) -> datetime | None:
    """A timestamp field, None when unset (an unset create_time is the
    update_time, and both unset are the time of the import)."""
    if not memory.HasField(name):
        return None
    value: timestamp_pb2.Timestamp = getattr(memory, name)
    try:
        moment = value.ToDatetime(tzinfo=UTC)
    except (ValueError, OverflowError) as error:
        raise InvalidArgument(f"{prefix}.{name}", "is not a valid timestamp") from error
    if not _EARLIEST <= moment <= _LATEST:
        raise InvalidArgument(f"{prefix}.{name}", "must lie between 1970 and 9999")
    return moment


def import_result_to_proto(result: ImportResult) -> svc.ImportMemoriesResponse:
    response = import_counts_to_proto(result.counts, result.write_token)
    response.received_count = result.received
    return response
