"""The MemoryService servicer: read the request, convert, call core, convert back."""

from __future__ import annotations

from typing import Any

import grpc

from memoryd.api import convert
from memoryd.api.errors import rpc_errors
from memoryd.core.memories import Memories
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

Context = grpc.aio.ServicerContext[Any, Any]


class MemoryServicer(memory_service_pb2_grpc.MemoryServiceServicer):
    def __init__(self, memories: Memories) -> None:
        self._memories = memories

    @rpc_errors
    async def CreateMemory(
        self, request: svc.CreateMemoryRequest, context: Context
    ) -> svc.CreateMemoryResponse:
        result = await self._memories.create(convert.new_memory_from_proto(request))
        return convert.create_result_to_proto(result)

    @rpc_errors
    async def BatchCreateMemories(
        self, request: svc.BatchCreateMemoriesRequest, context: Context
    ) -> svc.BatchCreateMemoriesResponse:
        news = [
            convert.new_memory_from_proto(item, f"requests[{i}].")
            for i, item in enumerate(request.requests)
        ]
        results = await self._memories.batch_create(news)
        return svc.BatchCreateMemoriesResponse(
            results=[convert.create_result_to_proto(r) for r in results]
        )

    @rpc_errors
    async def GetMemory(
        self, request: svc.GetMemoryRequest, context: Context
    ) -> svc.GetMemoryResponse:
        memory = await self._memories.get(request.id, convert.scope_from_proto(request.scope))
        return svc.GetMemoryResponse(memory=convert.memory_to_proto(memory))

    @rpc_errors
    async def ListMemories(
        self, request: svc.ListMemoriesRequest, context: Context
    ) -> svc.ListMemoriesResponse:
        page = await self._memories.list(convert.list_query_from_proto(request))
        return svc.ListMemoriesResponse(
            memories=[convert.memory_to_proto(m) for m in page.memories],
            next_page_token=page.next_page_token,
        )

    @rpc_errors
    async def UpdateMemory(
        self, request: svc.UpdateMemoryRequest, context: Context
    ) -> svc.UpdateMemoryResponse:
        updated = await self._memories.update(convert.change_from_proto(request))
        return svc.UpdateMemoryResponse(memory=convert.memory_to_proto(updated))

    @rpc_errors
    async def DeleteMemory(
        self, request: svc.DeleteMemoryRequest, context: Context
    ) -> svc.DeleteMemoryResponse:
        expected = request.expected_version if request.HasField("expected_version") else None
        await self._memories.delete(request.id, convert.scope_from_proto(request.scope), expected)
        return svc.DeleteMemoryResponse()

    @rpc_errors
    async def SearchMemories(
        self, request: svc.SearchMemoriesRequest, context: Context
    ) -> svc.SearchMemoriesResponse:
        hits = await self._memories.search(convert.search_query_from_proto(request))
        return convert.search_results_to_proto(hits)

    @rpc_errors
    async def ForgetMemories(
        self, request: svc.ForgetMemoriesRequest, context: Context
    ) -> svc.ForgetMemoriesResponse:
        selection = convert.forget_selection_from_proto(request)
        count = await self._memories.forget(selection, dry_run=request.dry_run)
        return svc.ForgetMemoriesResponse(deleted_count=count)
