"""Protobuf <-> domain for Preload: its request and its stream's events.

The Preload half of api/convert.py, kept apart so each stays one concept.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from google.protobuf import duration_pb2
from google.rpc import status_pb2

from memoryd.api import convert
from memoryd.api.errors import internal_status, is_mapped, status_for
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import RetrievalMode
from memoryd.core.preload_events import (
    NotModified,
    PreloadContext,
    PreloadDone,
    PreloadEvent,
    PreloadRequest,
    PreloadScope,
    ScopeHits,
    Turn,
    TurnRole,
)
from memoryd.core.rendering import PreloadFormat
from memoryd.v1 import memory_service_pb2 as svc

logger = logging.getLogger(__name__)

_FORMAT_FROM_PROTO = {
    svc.PRELOAD_FORMAT_UNSPECIFIED: PreloadFormat.TENXGRAPH_AGENT,
    svc.PRELOAD_FORMAT_TENXGRAPH_AGENT: PreloadFormat.TENXGRAPH_AGENT,
    svc.PRELOAD_FORMAT_TENXGRAPH_INTEGRATION: PreloadFormat.TENXGRAPH_INTEGRATION,
    svc.PRELOAD_FORMAT_PLAIN: PreloadFormat.PLAIN,
}
_ROLE_FROM_PROTO = {
    svc.TURN_ROLE_UNSPECIFIED: None,
    svc.TURN_ROLE_USER: TurnRole.USER,
    svc.TURN_ROLE_ASSISTANT: TurnRole.ASSISTANT,
    svc.TURN_ROLE_SYSTEM: TurnRole.SYSTEM,
    svc.TURN_ROLE_TOOL: TurnRole.TOOL,
}
_SCOPE_TO_PROTO = {
    PreloadScope.USER: svc.PRELOAD_SCOPE_USER,
    PreloadScope.AGENT: svc.PRELOAD_SCOPE_AGENT,
}
_MODE_TO_PROTO = {
    RetrievalMode.DENSE: svc.RETRIEVAL_MODE_DENSE,
    RetrievalMode.HYBRID: svc.RETRIEVAL_MODE_HYBRID,
}


def preload_request_from_proto(request: svc.PreloadRequest) -> PreloadRequest:
    if request.format not in _FORMAT_FROM_PROTO:
        raise InvalidArgument("format", f"{request.format} is not a PreloadFormat")
    turns = []
    for i, turn in enumerate(request.turns):
        if turn.role not in _ROLE_FROM_PROTO:
            raise InvalidArgument(f"turns[{i}].role", f"{turn.role} is not a TurnRole")
        turns.append(Turn(_ROLE_FROM_PROTO[turn.role], turn.content))
    selection = convert.selection_from_proto(
        request.user_scope, request.memory_types, request.categories, None
    )
    return PreloadRequest(
        query=request.query,
        turns=tuple(turns),
        user_scope=selection.scope,
        agent_scope=(
            convert.scope_from_proto(request.agent_scope)
            if request.HasField("agent_scope")
            else None
        ),
        limit=request.limit or convert.DEFAULT_SEARCH_LIMIT,
        score_threshold=request.score_threshold if request.HasField("score_threshold") else None,
        max_tokens=request.max_tokens,
        memory_types=selection.memory_types,
        categories=selection.categories,
        format=_FORMAT_FROM_PROTO[request.format],
        mode=convert.retrieval_mode_from_proto(request.retrieval_mode),
        diversity=request.diversity if request.HasField("diversity") else None,
        if_none_match=request.if_none_match,
        consistency_token=request.consistency_token,
    )


def preload_event_to_proto(event: PreloadEvent) -> svc.PreloadResponse:
    match event:
        case ScopeHits():
            hits = svc.ScopeHits(
                scope=_SCOPE_TO_PROTO[event.scope],
                results=convert.search_results_to_proto(event.hits).results,
            )
            if event.error is not None:
                hits.error.CopyFrom(_scope_error(event.error))
            return svc.PreloadResponse(hits=hits)
        case PreloadContext():
            return svc.PreloadResponse(
                context=svc.PreloadContext(
                    text=event.text,
                    memory_ids=event.memory_ids,
                    dropped_count=event.dropped_count,
                    token_count=event.token_count,
                )
            )
        case PreloadDone():
            return svc.PreloadResponse(
                done=svc.PreloadDone(
                    user_hit_count=event.user_hit_count,
                    agent_hit_count=event.agent_hit_count,
                    included_count=event.included_count,
                    token_count=event.token_count,
                    partial=event.is_partial,
                    etag=event.etag,
                    retrieval_mode=_MODE_TO_PROTO[event.mode],
                    embed_duration=_duration(event.embed_seconds),
                    search_duration=_duration(event.search_seconds),
                    render_duration=_duration(event.render_seconds),
                )
            )
        case NotModified():
            return svc.PreloadResponse(not_modified=svc.PreloadNotModified(etag=event.etag))


def _scope_error(error: Exception) -> status_pb2.Status:
    if is_mapped(error):
        return status_for(error)
    incident = uuid.uuid4().hex[:12]
    logger.error("preload scope failed (incident %s)", incident, exc_info=error)
    return internal_status(incident)


def _duration(seconds: float) -> duration_pb2.Duration:
    duration = duration_pb2.Duration()
    duration.FromTimedelta(timedelta(seconds=max(0.0, seconds)))
    return duration
