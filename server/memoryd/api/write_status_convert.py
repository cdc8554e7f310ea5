"""Protobuf for GetWriteStatus: a write's state, and once applied, the reply it would have had."""

from __future__ import annotations

from collections.abc import Callable

from google.rpc import status_pb2

from memoryd.api.convert import (
    batch_results_to_proto,
    create_result_to_proto,
    import_counts_to_proto,
    set_time,
    update_result_to_proto,
)
from memoryd.api.enums import WRITE_STATES
from memoryd.core.model import ImportCounts, Memory, OperationKind, WriteState, WriteStatus
from memoryd.v1 import memory_service_pb2 as svc


def write_status_to_proto(
    status: WriteStatus, error_status: Callable[[Exception], status_pb2.Status]
) -> svc.GetWriteStatusResponse:
    """The status of a write; ``error_status`` renders a failed write's error."""
    response = svc.GetWriteStatusResponse(
        write_token=status.token, state=WRITE_STATES.to_proto(status.state)
    )
    set_time(response.create_time, status.create_time)
    if status.apply_time is not None:
        set_time(response.apply_time, status.apply_time)
    if status.error is not None:
        response.error.CopyFrom(error_status(status.error))
    if status.state is not WriteState.APPLIED:
        return response
    outcome, token = status.outcome, status.token
    match status.kind:
        case OperationKind.CREATE if isinstance(outcome, tuple):
            response.create_memory.CopyFrom(create_result_to_proto(outcome[0], token))
        case OperationKind.BATCH_CREATE if isinstance(outcome, tuple):
            response.batch_create_memories.CopyFrom(batch_results_to_proto(outcome, token))
        case OperationKind.UPDATE if isinstance(outcome, Memory):
            response.update_memory.CopyFrom(update_result_to_proto(outcome, token))
        case OperationKind.DELETE:
            response.delete_memory.CopyFrom(svc.DeleteMemoryResponse(write_token=token))
        case OperationKind.FORGET if isinstance(outcome, int):
            response.forget_memories.CopyFrom(
                svc.ForgetMemoriesResponse(deleted_count=outcome, write_token=token)
            )
        case OperationKind.IMPORT if isinstance(outcome, ImportCounts):
            response.import_memories.CopyFrom(import_counts_to_proto(outcome, token))
    return response
