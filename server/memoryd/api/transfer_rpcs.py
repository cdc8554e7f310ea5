"""ExportMemories and ImportMemories: moving memories out of and into a server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from memoryd.api import transfer_convert
from memoryd.api.auth import current_principal
from memoryd.api.errors import rpc_errors, rpc_stream_errors
from memoryd.core.consistency import ANSWER_MARGIN_SECONDS
from memoryd.core.errors import InvalidArgument
from memoryd.core.transfers import ExportHeader, Transfers
from memoryd.v1 import memory_service_pb2 as svc

type Context = grpc.aio.ServicerContext[Any, Any]


def _wait(context: Context) -> float | None:
    """How long the call may wait for writes: until just before its deadline,
    so that it answers DEADLINE_EXCEEDED itself, naming the write."""
    remaining = context.time_remaining()
    return None if remaining is None else remaining - ANSWER_MARGIN_SECONDS


class TransferRpcs:
    _transfers: Transfers

    @rpc_stream_errors
    async def ExportMemories(
        self, request: svc.ExportMemoriesRequest, context: Context
    ) -> AsyncIterator[svc.ExportMemoriesResponse]:
        query = transfer_convert.export_query_from_proto(request)
        embedder_id = ""
        events = self._transfers.export(
            query, request.consistency_token, _wait(context), principal=current_principal()
        )
        async for event in events:
            if isinstance(event, ExportHeader):
                embedder_id = event.embedder_id  # the snapshot's, should embedders switch
                yield transfer_convert.header_to_proto(event)
            else:
                yield transfer_convert.page_to_proto(event, embedder_id)

    @rpc_errors
    async def ImportMemories(
        self, request_iterator: AsyncIterator[svc.ImportMemoriesRequest], context: Context
    ) -> svc.ImportMemoriesResponse:
        session = self._transfers.importing(current_principal())
        number = 0
        async for message in request_iterator:
            number += 1
            try:
                spec = self._transfers.spec
                items = transfer_convert.imported_from_proto(message, spec)
                await session.add(items, spec.embedder_id, _wait(context))
            except InvalidArgument as error:
                raise InvalidArgument(
                    error.field,
                    f"{error.reason} (in request message {number} of the stream; the "
                    f"{number - 1} before it are imported)",
                ) from error
        result = await session.finish(_wait(context))
        return transfer_convert.import_result_to_proto(result)
