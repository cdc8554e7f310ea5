"""The MemoryService servicer: read the request, convert, call core, convert back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from memoryd.api import convert, preload_convert
from memoryd.api.auth import current_principal
from memoryd.api.errors import rpc_errors, rpc_stream_errors, status_for
from memoryd.core.preload import Preloader
from memoryd.core.reads import Reads
from memoryd.core.writes import Writes
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

type Context = grpc.aio.ServicerContext[Any, Any]

#: Time kept back from a read's deadline to answer DEADLINE_EXCEEDED ourselves,
#: naming the write it waited for, before gRPC cancels the call.
_ANSWER_MARGIN_SECONDS = 0.05


def _wait_budget(context: Context) -> float | None:
    remaining = context.time_remaining()
    return None if remaining is None else remaining - _ANSWER_MARGIN_SECONDS


class MemoryServicer(memory_service_pb2_grpc.MemoryServiceServicer):
    def __init__(self, writes: Writes, reads: Reads, preloader: Preloader) -> None:
        self._writes = writes
        self._reads = reads
        self._preloader = preloader

    @rpc_errors
    async def CreateMemory(
        self, request: svc.CreateMemoryRequest, context: Context
    ) -> svc.CreateMemoryResponse:
        receipt = await self._writes.create(
            [convert.new_memory_from_proto(request)],
            convert.mode_from_proto(request.mode),
            request.request_id,
            principal=current_principal(),
        )
        return convert.create_result_to_proto(receipt.result[0], receipt.token)

    @rpc_errors
    async def BatchCreateMemories(
        self, request: svc.BatchCreateMemoriesRequest, context: Context
    ) -> svc.BatchCreateMemoriesResponse:
        news = [
            convert.new_memory_from_proto(item, f"requests[{i}].")
            for i, item in enumerate(request.requests)
        ]
        mode = convert.mode_from_proto(request.mode)
        receipt = await self._writes.create(
            news, mode, request.request_id, is_batch=True, principal=current_principal()
        )
        return convert.batch_results_to_proto(receipt.result, receipt.token)

    @rpc_errors
    async def GetMemory(
        self, request: svc.GetMemoryRequest, context: Context
    ) -> svc.GetMemoryResponse:
        memory = await self._reads.get(
            request.id,
            convert.scope_from_proto(request.scope),
            request.consistency_token,
            _wait_budget(context),
            principal=current_principal(),
        )
        return svc.GetMemoryResponse(memory=convert.memory_to_proto(memory))

    @rpc_errors
    async def ListMemories(
        self, request: svc.ListMemoriesRequest, context: Context
    ) -> svc.ListMemoriesResponse:
        page = await self._reads.list(
            convert.list_query_from_proto(request),
            request.consistency_token,
            _wait_budget(context),
            principal=current_principal(),
        )
        return svc.ListMemoriesResponse(
            memories=[convert.memory_to_proto(m) for m in page.memories],
            next_page_token=page.next_page_token,
        )

    @rpc_errors
    async def UpdateMemory(
        self, request: svc.UpdateMemoryRequest, context: Context
    ) -> svc.UpdateMemoryResponse:
        receipt = await self._writes.update(
            convert.change_from_proto(request),
            convert.mode_from_proto(request.mode),
            request.request_id,
            principal=current_principal(),
        )
        return convert.update_result_to_proto(receipt.result, receipt.token)

    @rpc_errors
    async def DeleteMemory(
        self, request: svc.DeleteMemoryRequest, context: Context
    ) -> svc.DeleteMemoryResponse:
        token = await self._writes.delete(
            request.id,
            convert.scope_from_proto(request.scope),
            request.expected_version if request.HasField("expected_version") else None,
            convert.mode_from_proto(request.mode),
            request.request_id,
            principal=current_principal(),
        )
        return svc.DeleteMemoryResponse(write_token=token)

    @rpc_errors
    async def SearchMemories(
        self, request: svc.SearchMemoriesRequest, context: Context
    ) -> svc.SearchMemoriesResponse:
        hits = await self._reads.search(
            convert.search_query_from_proto(request),
            request.consistency_token,
            _wait_budget(context),
            principal=current_principal(),
        )
        return convert.search_results_to_proto(hits)

    @rpc_stream_errors
    async def Preload(
        self, request: svc.PreloadRequest, context: Context
    ) -> AsyncIterator[svc.PreloadResponse]:
        events = self._preloader.preload(
            preload_convert.preload_request_from_proto(request),
            context.time_remaining,
            current_principal(),
        )
        async for event in events:
            yield preload_convert.preload_event_to_proto(event)

    @rpc_errors
    async def ForgetMemories(
        self, request: svc.ForgetMemoriesRequest, context: Context
    ) -> svc.ForgetMemoriesResponse:
        selection = convert.forget_selection_from_proto(request)
        if request.dry_run:
            count = await self._reads.count_forget(
                selection, "", _wait_budget(context), principal=current_principal()
            )
            return svc.ForgetMemoriesResponse(deleted_count=count)
        receipt = await self._writes.forget(
            selection,
            convert.mode_from_proto(request.mode),
            request.request_id,
            principal=current_principal(),
        )
        return svc.ForgetMemoriesResponse(deleted_count=receipt.result, write_token=receipt.token)

    @rpc_errors
    async def GetWriteStatus(
        self, request: svc.GetWriteStatusRequest, context: Context
    ) -> svc.GetWriteStatusResponse:
        status = await self._writes.write_status(request.write_token, principal=current_principal())
        return convert.write_status_to_proto(status, status_for)
