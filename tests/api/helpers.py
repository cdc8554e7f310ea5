"""Request builders and status assertions shared by the API tests."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from support import ServerProcess


def new_memory(content: str, *, user: str = "", **fields: Any) -> svc.CreateMemoryRequest:
    scope_fields = {k: fields.pop(k) for k in ("agent_id", "app_id", "thread_id") if k in fields}
    request_fields = {
        k: fields.pop(k) for k in ("memory_id", "dedup_threshold", "request_id") if k in fields
    }
    request_fields["mode"] = fields.pop("mode", svc.WRITE_MODE_SYNC)
    metadata = fields.pop("metadata", None)
    memory = pb.Memory(content=content, scope=pb.Scope(user_id=user, **scope_fields), **fields)
    if metadata is not None:
        memory.metadata.update(metadata)
    return svc.CreateMemoryRequest(memory=memory, **request_fields)


def create(
    stub: memory_service_pb2_grpc.MemoryServiceStub, content: str, *, user: str = "", **fields: Any
) -> svc.CreateMemoryResponse:
    response: svc.CreateMemoryResponse = stub.CreateMemory(new_memory(content, user=user, **fields))
    return response


def search(
    stub: memory_service_pb2_grpc.MemoryServiceStub, query: str, *, user: str = "", **fields: Any
) -> list[svc.SearchResult]:
    scope = pb.Scope(
        user_id=user,
        **{k: fields.pop(k) for k in ("agent_id", "app_id", "thread_id") if k in fields},
    )
    response = stub.SearchMemories(svc.SearchMemoriesRequest(query=query, scope=scope, **fields))
    return list(response.results)


def list_all(
    stub: memory_service_pb2_grpc.MemoryServiceStub,
    scope: pb.Scope,
    page_size: int = 1000,
    timeout: float | None = None,
) -> list[pb.Memory]:
    memories: list[pb.Memory] = []
    token = ""
    while True:
        page = stub.ListMemories(
            svc.ListMemoriesRequest(scope=scope, page_size=page_size, page_token=token),
            timeout=timeout,
        )
        memories.extend(page.memories)
        token = page.next_page_token
        if not token:
            return memories


def condition(field: str, operator: int, *values: Any) -> pb.Filter:
    return pb.Filter(
        condition=pb.Condition(field=field, operator=operator, values=[_value(v) for v in values])
    )


def _value(value: Any) -> pb.FilterValue:
    if isinstance(value, bool):
        return pb.FilterValue(bool_value=value)
    if isinstance(value, str):
        return pb.FilterValue(string_value=value)
    if isinstance(value, int | float):
        return pb.FilterValue(number_value=value)
    if isinstance(value, pb.FilterValue):
        return value
    raise TypeError(value)


def expect_error(code: grpc.StatusCode, call: Any, *args: Any, **kwargs: Any) -> grpc.RpcError:
    """Calls and asserts the RPC fails with ``code`` and the memoryd error details."""
    with pytest.raises(grpc.RpcError) as info:
        call(*args, **kwargs)
    error = info.value
    assert error.code() == code, f"{error.code()}: {error.details()}"
    status = rich_status(error)
    assert status.message == error.details()
    infos = [
        unpack(d, error_details_pb2.ErrorInfo)
        for d in status.details
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)
    ]
    assert len(infos) == 1 and infos[0].domain == "memoryd"
    return error


def field_violations(error: grpc.RpcError) -> list[str]:
    status = rich_status(error)
    fields = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            fields.extend(
                v.field for v in unpack(detail, error_details_pb2.BadRequest).field_violations
            )
    return fields


def rich_status(error: grpc.RpcError) -> status_pb2.Status:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            return status_pb2.Status.FromString(value)
    raise AssertionError("no google.rpc.Status in the trailers")


def unpack(detail: Any, message_type: Any) -> Any:
    message = message_type()
    detail.Unpack(message)
    return message


#: Generous: a watch that hangs fails the test instead of the run.
WATCH_TIMEOUT = 120.0


class Watch:
    """One open WatchMemories call, read event by event."""

    def __init__(self, call: Any) -> None:
        self.call = call
        first = self.next()
        assert first.WhichOneof("event") == "started", first
        self.started = first.started.after_sequence

    def next(self) -> svc.WatchMemoriesResponse:
        event: svc.WatchMemoriesResponse = next(self.call)
        return event

    def changes(self, count: int) -> list[svc.MemoryChange]:
        """The next ``count`` events, each of which must be a change."""
        events = [self.next() for _ in range(count)]
        assert all(e.WhichOneof("event") == "change" for e in events), events
        return [e.change for e in events]

    def cancel(self) -> None:
        self.call.cancel()


def open_watch(
    stub: memory_service_pb2_grpc.MemoryServiceStub,
    scope: pb.Scope | None = None,
    metadata: Any = None,
    **fields: Any,
) -> Watch:
    request = svc.WatchMemoriesRequest(scope=scope, **fields)
    return Watch(stub.WatchMemories(request, timeout=WATCH_TIMEOUT, metadata=metadata))


def failed_start(process: ServerProcess) -> str:
    """Starts ``process``, expecting it to exit before it listens; returns its log."""
    try:
        with pytest.raises(RuntimeError, match="memoryd did not start"):
            process.start()
    finally:
        process.stop()
    return "".join(process.log)
