"""WatchMemories: the change feed (core/feed.py) as a server stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any, assert_never

import grpc

from memoryd.api.auth import current_principal
from memoryd.api.convert import memory_to_proto, scope_from_proto
from memoryd.api.errors import rpc_stream_errors
from memoryd.core.changes import Change, ChangeType
from memoryd.core.feed import ChangeFeed, FellBehind, WatchEvent, WatchStarted
from memoryd.v1 import memory_service_pb2 as svc

type Context = grpc.aio.ServicerContext[Any, Any]

_CHANGE_TYPES = {
    ChangeType.CREATED: svc.CHANGE_TYPE_CREATED,
    ChangeType.UPDATED: svc.CHANGE_TYPE_UPDATED,
    ChangeType.DELETED: svc.CHANGE_TYPE_DELETED,
    ChangeType.EXPIRED: svc.CHANGE_TYPE_EXPIRED,
}


class WatchRpcs:
    _feed: ChangeFeed

    @rpc_stream_errors
    async def WatchMemories(
        self, request: svc.WatchMemoriesRequest, context: Context
    ) -> AsyncIterator[svc.WatchMemoriesResponse]:
        start_after = (
            request.start_after_sequence if request.HasField("start_after_sequence") else None
        )
        events = self._feed.watch(current_principal(), scope_from_proto(request.scope), start_after)
        # aclosing: a cancelled call unregisters its watch at once, not at garbage collection.
        async with aclosing(events):
            async for event in events:
                yield watch_event_to_proto(event)


def watch_event_to_proto(event: WatchEvent) -> svc.WatchMemoriesResponse:
    match event:
        case WatchStarted(after_sequence=after):
            return svc.WatchMemoriesResponse(started=svc.WatchStarted(after_sequence=after))
        case Change():
            return svc.WatchMemoriesResponse(change=change_to_proto(event))
        case FellBehind(resume_after_sequence=resume):
            return svc.WatchMemoriesResponse(
                fell_behind=svc.WatchFellBehind(resume_after_sequence=resume)
            )
        case _:
            assert_never(event)


def change_to_proto(change: Change) -> svc.MemoryChange:
    message = svc.MemoryChange(
        sequence=change.seq,
        type=_CHANGE_TYPES[change.type],
        memory=memory_to_proto(change.memory),
    )
    message.change_time.FromDatetime(change.change_time)
    return message
