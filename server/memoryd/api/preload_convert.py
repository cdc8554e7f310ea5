"""Protobuf <-> domain for Preload: its request and its stream's events.

Beside api/convert.py and api/query_convert.py, so each stays one concept.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from google.protobuf import duration_pb2
from google.rpc import status_pb2

from memoryd.api import convert, query_convert
from memoryd.api.enums import PRELOAD_FORMATS, PRELOAD_SCOPES, RETRIEVAL_MODES, TURN_ROLES
from memoryd.api.errors import internal_status, is_mapped, status_for
from memoryd.core.preload_events import (
    NotModified,
    PreloadContext,
    PreloadDone,
    PreloadEvent,
    PreloadRequest,
    ScopeHits,
    Turn,
)
from memoryd.v1 import memory_service_pb2 as svc

logger = logging.getLogger(__name__)


def preload_request_from_proto(request: svc.PreloadRequest) -> PreloadRequest:
    preload_format = PRELOAD_FORMATS.from_proto(request.format, "format")
    turns = tuple(_turn_from_proto(turn, f"turns[{i}]") for i, turn in enumerate(request.turns))
    selection = query_convert.selection_from_proto(
        request.user_scope, request.memory_types, request.categories, None
    )
    return PreloadRequest(
        query=request.query,
        turns=turns,
        user_scope=selection.scope,
        agent_scope=(
            convert.scope_from_proto(request.agent_scope)
            if request.HasField("agent_scope")
            else None
        ),
        limit=request.limit or query_convert.DEFAULT_SEARCH_LIMIT,
        score_threshold=request.score_threshold if request.HasField("score_threshold") else None,
        max_tokens=request.max_tokens,
        memory_types=selection.memory_types,
        categories=selection.categories,
        format=preload_format,
        mode=query_convert.retrieval_mode_from_proto(request.retrieval_mode),
        diversity=request.diversity if request.HasField("diversity") else None,
        recency_half_life=query_convert.recency_half_life_from_proto(request),
        if_none_match=request.if_none_match,
        consistency_token=request.consistency_token,
    )


def _turn_from_proto(turn: svc.ConversationTurn, field: str) -> Turn:
    if turn.role == svc.TURN_ROLE_UNSPECIFIED:
        return Turn(None, turn.content)
    return Turn(TURN_ROLES.from_proto(turn.role, f"{field}.role"), turn.content)


def preload_event_to_proto(event: PreloadEvent) -> svc.PreloadResponse:
    match event:
        case ScopeHits():
            response = svc.PreloadResponse()
            hits = response.hits
            hits.SetInParent()  # set even with no hits and no scope
            hits.scope = PRELOAD_SCOPES.to_proto(event.scope)
            query_convert.add_search_results(hits.results, event.hits)
            if event.error is not None:
                hits.error.CopyFrom(_scope_error(event.error))
            return response
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
                    retrieval_mode=RETRIEVAL_MODES.to_proto(event.mode),
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
