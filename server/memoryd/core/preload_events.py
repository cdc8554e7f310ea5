"""Preload's request and the events of its stream, in plain Python (see core/preload.py)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import timedelta

from memoryd.core.model import MemoryType, RetrievalMode, Scope, ScoredMemory
from memoryd.core.rendering import PreloadFormat


class TurnRole(enum.Enum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class PreloadScope(enum.Enum):
    USER = "user"
    AGENT = "agent"


@dataclass(frozen=True, slots=True)
class Turn:
    """One conversation turn; ``role`` None for a role the caller left unset."""

    role: TurnRole | None
    content: str


@dataclass(frozen=True, slots=True)
class PreloadRequest:
    """See PreloadRequest in the contract; ``limit`` is already defaulted."""

    query: str
    turns: tuple[Turn, ...]
    user_scope: Scope
    agent_scope: Scope | None
    limit: int
    score_threshold: float | None = None
    max_tokens: int = 0
    memory_types: tuple[MemoryType, ...] = ()
    categories: tuple[str, ...] = ()
    format: PreloadFormat = PreloadFormat.TENXGRAPH_AGENT
    mode: RetrievalMode | None = None
    diversity: float | None = None
    if_none_match: str = ""
    consistency_token: str = ""
    recency_half_life: timedelta | None = None


@dataclass(frozen=True, slots=True)
class ScopeHits:
    """One scope's results, or the error that kept it from having any."""

    scope: PreloadScope
    hits: tuple[ScoredMemory, ...]
    error: Exception | None = None


@dataclass(frozen=True, slots=True)
class PreloadContext:
    text: str
    memory_ids: tuple[str, ...]
    dropped_count: int
    token_count: int


@dataclass(frozen=True, slots=True)
class PreloadDone:
    user_hit_count: int
    agent_hit_count: int
    included_count: int
    token_count: int
    is_partial: bool
    etag: str
    mode: RetrievalMode
    embed_seconds: float
    search_seconds: float
    render_seconds: float


@dataclass(frozen=True, slots=True)
class NotModified:
    etag: str


PreloadEvent = ScopeHits | PreloadContext | PreloadDone | NotModified
