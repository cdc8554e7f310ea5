"""GetStats, StartReembed and GetReembedStatus: the operator's RPCs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import grpc
from google.protobuf import timestamp_pb2

from memoryd.api.auth import current_principal
from memoryd.api.errors import rpc_errors
from memoryd.core.admin import Admin, Stats
from memoryd.core.reembed_status import ReembedState, ReembedStatus
from memoryd.v1 import memory_service_pb2 as svc

type Context = grpc.aio.ServicerContext[Any, Any]

_STATES = {
    ReembedState.NONE: svc.REEMBED_STATE_UNSPECIFIED,
    ReembedState.RUNNING: svc.REEMBED_STATE_RUNNING,
    ReembedState.SWITCHED: svc.REEMBED_STATE_SWITCHED,
    ReembedState.FAILED: svc.REEMBED_STATE_FAILED,
}


class AdminRpcs:
    _admin: Admin

    @rpc_errors
    async def GetStats(
        self, request: svc.GetStatsRequest, context: Context
    ) -> svc.GetStatsResponse:
        return stats_to_proto(await self._admin.stats(current_principal()))

    @rpc_errors
    async def StartReembed(
        self, request: svc.StartReembedRequest, context: Context
    ) -> svc.StartReembedResponse:
        status = await self._admin.start_reembed(current_principal(), request.embedder)
        return svc.StartReembedResponse(status=reembed_to_proto(status))

    @rpc_errors
    async def GetReembedStatus(
        self, request: svc.GetReembedStatusRequest, context: Context
    ) -> svc.GetReembedStatusResponse:
        status = self._admin.reembed_status(current_principal())
        return svc.GetReembedStatusResponse(status=reembed_to_proto(status))


def stats_to_proto(stats: Stats) -> svc.GetStatsResponse:
    return svc.GetStatsResponse(
        user_memory_count=stats.user_memories,
        agent_memory_count=stats.agent_memories,
        app_memory_count=stats.app_memories,
        expired_memory_count=stats.expired_memories,
        journal_backlog=stats.journal_backlog,
        change_sequence=stats.change_sequence,
        embedder_id=stats.embedder_id,
        dimension=stats.dimension,
        backend=stats.backend,
        index_disk_bytes=stats.index_disk_bytes,
        journal_disk_bytes=stats.journal_disk_bytes,
        reembed=reembed_to_proto(stats.reembed),
    )


def reembed_to_proto(status: ReembedStatus) -> svc.ReembedStatus:
    return svc.ReembedStatus(
        state=_STATES[status.state],
        from_embedder_id=status.from_embedder_id,
        to_embedder_id=status.to_embedder_id,
        done_count=status.done,
        total_count=status.total,
        error=status.error,
        start_time=_timestamp(status.start_time),
        end_time=_timestamp(status.end_time),
    )


def _timestamp(at: datetime | None) -> timestamp_pb2.Timestamp | None:
    if at is None:
        return None
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(at)
    return stamp
