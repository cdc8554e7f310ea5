"""memoryd_client: sync and async Python clients for memoryd (memoryd.v1.MemoryService).

    from memoryd_client import MemorydClient, pb, svc

    with MemorydClient("localhost:50051") as client:
        client.create_memory(svc.CreateMemoryRequest(
            memory=pb.Memory(content="I'm in UTC-5", scope=pb.Scope(user_id="u1"))))

Requests and responses are the generated messages, re-exported as ``pb``
(memoryd.v1.memory_pb2) and ``svc`` (memoryd.v1.memory_service_pb2). The 10xgraph
store lives in ``memoryd_client.tenxgraph``.
"""

from __future__ import annotations

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import filters
from memoryd_client._status import error_from_status
from memoryd_client.aio import AsyncMemorydClient
from memoryd_client.client import MemorydClient
from memoryd_client.consistency import ScopeWrites
from memoryd_client.errors import (
    ChangeHistoryExpired,
    DeadlineExceeded,
    EmbeddingUnavailable,
    FailedPrecondition,
    FieldViolation,
    IncompatibleIndex,
    InternalError,
    InvalidArgument,
    MemorydError,
    MemoryNotFound,
    MessageTooLarge,
    NotFound,
    Overloaded,
    PermissionDenied,
    PreloadScopeTimedOut,
    RateLimited,
    ReembedInProgress,
    ScopeNotPermitted,
    ShuttingDown,
    TransientError,
    Unauthenticated,
    Unavailable,
    Unimplemented,
    UnknownWriteToken,
    VersionConflict,
    WriteApplyFailed,
    WriteBacklogFull,
    WriteFailed,
    WriteInFlight,
    WriteNotYetApplied,
)
from memoryd_client.interceptors import tracing_available
from memoryd_client.messages import dict_from_struct, struct_from_dict, with_request_id
from memoryd_client.options import ClientOptions
from memoryd_client.preload import PreloadEvent, preload_event
from memoryd_client.transfers import ExportItem, WatchEvent, export_items, watch_event

__all__ = [
    "AsyncMemorydClient",
    "ChangeHistoryExpired",
    "ClientOptions",
    "DeadlineExceeded",
    "EmbeddingUnavailable",
    "ExportItem",
    "FailedPrecondition",
    "FieldViolation",
    "IncompatibleIndex",
    "InternalError",
    "InvalidArgument",
    "MemoryNotFound",
    "MemorydClient",
    "MemorydError",
    "MessageTooLarge",
    "NotFound",
    "Overloaded",
    "PermissionDenied",
    "PreloadEvent",
    "PreloadScopeTimedOut",
    "RateLimited",
    "ReembedInProgress",
    "ScopeNotPermitted",
    "ScopeWrites",
    "ShuttingDown",
    "TransientError",
    "Unauthenticated",
    "Unavailable",
    "Unimplemented",
    "UnknownWriteToken",
    "VersionConflict",
    "WatchEvent",
    "WriteApplyFailed",
    "WriteBacklogFull",
    "WriteFailed",
    "WriteInFlight",
    "WriteNotYetApplied",
    "dict_from_struct",
    "error_from_status",
    "export_items",
    "filters",
    "pb",
    "preload_event",
    "struct_from_dict",
    "svc",
    "tracing_available",
    "watch_event",
    "with_request_id",
]
