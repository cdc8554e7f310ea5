"""The MemoryService servicer: read the request, convert, call core, convert back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, TypedDict

import grpc

from memoryd.api import convert, preload_convert, query_convert
from memoryd.api.admin_rpcs import AdminRpcs
from memoryd.api.auth import current_principal
from memoryd.api.errors import rpc_errors, rpc_stream_errors, status_for
from memoryd.api.transfer_rpcs import TransferRpcs
from memoryd.api.watch_rpcs import WatchRpcs
from memoryd.api.write_status_convert import write_status_to_proto
from memoryd.core.admin import Admin
from memoryd.core.consistency import ANSWER_MARGIN_SECONDS
from memoryd.core.feed import ChangeFeed
from memoryd.core.model import WriteMode
from memoryd.core.policy import Principal
from memoryd.core.preload import Preloader
from memoryd.core.reads import Reads
from memoryd.core.transfers import Transfers
from memoryd.core.writes import Writes
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

type Context = grpc.aio.ServicerContext[Any, Any]


type _Writing = (
    svc.CreateMemoryRequest
    | svc.BatchCreateMemoriesRequest
    | svc.UpdateMemoryRequest
    | svc.DeleteMemoryRequest
    | svc.ForgetMemoriesRequest
)


class _Read(TypedDict):
    """How the caller's read runs: the write it must see, how long it may wait for it, as whom."""

    consistency_token: str
    wait: float | None
    principal: Principal


class _Write(TypedDict):
    """How the caller's write runs: SYNC or ASYNC, its retry key, as whom."""

    mode: WriteMode
    request_id: str
    principal: Principal


def _read_by_caller(context: Context, consistency_token: str = "") -> _Read:
    # The wait ends short of the deadline, so that we answer DEADLINE_EXCEEDED
    # ourselves, naming the write, before gRPC cancels the call.
    remaining = context.time_remaining()
    wait = None if remaining is None else remaining - ANSWER_MARGIN_SECONDS
    return _Read(consistency_token=consistency_token, wait=wait, principal=current_principal())


def _write_by_caller(request: _Writing) -> _Write:
    mode = convert.mode_from_proto(request.mode)
    return _Write(mode=mode, request_id=request.request_id, principal=current_principal())


class MemoryServicer(
    TransferRpcs, WatchRpcs, AdminRpcs, memory_service_pb2_grpc.MemoryServiceServicer
):
    """Every RPC of MemoryService; the operations RPCs live in their own modules."""

    def __init__(
        self,
        writes: Writes,
        reads: Reads,
        preloader: Preloader,
        *,
        transfers: Transfers,
        feed: ChangeFeed,
        admin: Admin,
    ) -> None:
        self._writes = writes
        self._reads = reads
        self._preloader = preloader
        self._transfers = transfers
        self._feed = feed
        self._admin = admin

    @rpc_errors
    async def CreateMemory(
        self, request: svc.CreateMemoryRequest, context: Context
    ) -> svc.CreateMemoryResponse:
        new = convert.new_memory_from_proto(request)
        receipt = await self._writes.create([new], **_write_by_caller(request))
        return convert.create_result_to_proto(receipt.result[0], receipt.token)

    @rpc_errors
    async def BatchCreateMemories(
        self, request: svc.BatchCreateMemoriesRequest, context: Context
    ) -> svc.BatchCreateMemoriesResponse:
        news = convert.batch_from_proto(request)
        receipt = await self._writes.create(news, is_batch=True, **_write_by_caller(request))
        return convert.batch_results_to_proto(receipt.result, receipt.token)

    @rpc_errors
    async def GetMemory(
        self, request: svc.GetMemoryRequest, context: Context
    ) -> svc.GetMemoryResponse:
        scope = convert.scope_from_proto(request.scope)
        reading = _read_by_caller(context, request.consistency_token)
        memory = await self._reads.get(request.id, scope, **reading)
        response = svc.GetMemoryResponse()
        convert.fill_memory(response.memory, memory)
        return response

    @rpc_errors
    async def ListMemories(
        self, request: svc.ListMemoriesRequest, context: Context
    ) -> svc.ListMemoriesResponse:
        query = query_convert.list_query_from_proto(request)
        reading = _read_by_caller(context, request.consistency_token)
        return query_convert.memory_page_to_proto(await self._reads.list(query, **reading))

    @rpc_errors
    async def UpdateMemory(
        self, request: svc.UpdateMemoryRequest, context: Context
    ) -> svc.UpdateMemoryResponse:
        change = convert.change_from_proto(request)
        receipt = await self._writes.update(change, **_write_by_caller(request))
        return convert.update_result_to_proto(receipt.result, receipt.token)

    @rpc_errors
    async def DeleteMemory(
        self, request: svc.DeleteMemoryRequest, context: Context
    ) -> svc.DeleteMemoryResponse:
        scope = convert.scope_from_proto(request.scope)
        version = convert.expected_version_from_proto(request)
        token = await self._writes.delete(request.id, scope, version, **_write_by_caller(request))
        return svc.DeleteMemoryResponse(write_token=token)

    @rpc_errors
    async def SearchMemories(
        self, request: svc.SearchMemoriesRequest, context: Context
    ) -> svc.SearchMemoriesResponse:
        query = query_convert.search_query_from_proto(request)
        reading = _read_by_caller(context, request.consistency_token)
        return query_convert.search_results_to_proto(await self._reads.search(query, **reading))

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
        selection = query_convert.query_selection_from_proto(request)
        if request.dry_run:
            count = await self._reads.count_forget(selection, **_read_by_caller(context))
            return svc.ForgetMemoriesResponse(deleted_count=count)
        receipt = await self._writes.forget(selection, **_write_by_caller(request))
        return svc.ForgetMemoriesResponse(deleted_count=receipt.result, write_token=receipt.token)

    @rpc_errors
    async def GetWriteStatus(
        self, request: svc.GetWriteStatusRequest, context: Context
    ) -> svc.GetWriteStatusResponse:
        status = await self._writes.write_status(request.write_token, principal=current_principal())
        return write_status_to_proto(status, status_for)
