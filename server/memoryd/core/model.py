"""The memory model: what memoryd stores and the requests it serves, in plain Python."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from memoryd.core.filters import Filter

DEFAULT_CATEGORY = "general"


class MemoryType(enum.Enum):
    """The kinds of memory 10xgraph distinguishes; values are its names."""

    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    ENTITY = "entity"
    RELATIONSHIP = "relationship"
    DECLARATIVE = "declarative"
    CUSTOM = "custom"


class WriteOutcome(enum.Enum):
    """What a create did."""

    CREATED = "created"
    UPDATED_EXISTING = "updated_existing"
    SKIPPED_DUPLICATE = "skipped_duplicate"
    #: Journaled, not yet applied (asynchronous writes only).
    ACCEPTED = "accepted"


class WriteMode(enum.Enum):
    """When a write answers: once journaled (ASYNC) or once applied (SYNC)."""

    ASYNC = "async"
    SYNC = "sync"


class WriteState(enum.StrEnum):
    """Where a journaled write stands; the values are stored in the write log."""

    PENDING = "pending"
    APPLIED = "applied"
    FAILED = "failed"


class OperationKind(enum.StrEnum):
    """What a journaled write does; the values are stored in the log."""

    CREATE = "create"
    BATCH_CREATE = "batch_create"
    UPDATE = "update"
    DELETE = "delete"
    FORGET = "forget"
    #: Exported memories brought back, ids, times and versions kept (core/importing.py).
    IMPORT = "import"
    #: The purge of memories past their expire_time (core/expiry.py).
    EXPIRE = "expire"


class RetrievalMode(enum.Enum):
    """How a search ranks: by meaning (DENSE), or by meaning and words fused (HYBRID)."""

    DENSE = "dense"
    HYBRID = "hybrid"


class MetadataMode(enum.Enum):
    """How an update applies new metadata."""

    MERGE = "merge"
    REPLACE = "replace"


@dataclass(frozen=True, slots=True)
class Scope:
    """Who a memory belongs to; see core/scoping.py for what each field means."""

    user_id: str = ""
    agent_id: str = ""
    app_id: str = ""
    thread_id: str = ""


@dataclass(frozen=True, slots=True)
class Memory:
    """A stored memory."""

    id: str
    content: str
    scope: Scope
    memory_type: MemoryType
    category: str
    metadata: Mapping[str, Any]
    memory_key: str
    create_time: datetime
    update_time: datetime
    version: int
    #: When no read returns it any more (core/expiry.py); None: never.
    expire_time: datetime | None = None


#: A vector of 32-bit floats, as the model makes it, the contract carries it
#: (``repeated float``) and the index stores it: the write log keeps it packed
#: (core/codec.py), 2 KB for MiniLM's 384 floats against about 7.5 KB as JSON numbers.
type Float32Vector = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class ImportedMemory:
    """An exported memory to store as it is, with the vector its export
    carried when that vector's embedder is this server's (else None: embed it)."""

    memory: Memory
    vector: Float32Vector | None = None


@dataclass(frozen=True, slots=True)
class ImportCounts:
    """What an import did with its records (ImportMemoriesResponse)."""

    created: int = 0
    updated: int = 0
    #: Already stored at the same or a newer version (a re-run), or expired.
    unchanged: int = 0
    #: Records whose content was embedded again.
    embedded: int = 0


@dataclass(frozen=True, slots=True)
class NewMemory:
    """A memory to create. ``memory_id`` is the caller's id, if any;
    ``generated_id`` the id the server chose for it when journaling."""

    content: str
    scope: Scope
    memory_type: MemoryType = MemoryType.EPISODIC
    category: str = DEFAULT_CATEGORY
    metadata: Mapping[str, Any] = field(default_factory=dict)
    memory_key: str = ""
    memory_id: str | None = None
    dedup_threshold: float | None = None
    generated_id: str = ""
    #: When it expires: an absolute ``expire_time``, or ``ttl_seconds`` after
    #: the write is journaled (at most one is set); neither: never.
    expire_time: datetime | None = None
    ttl_seconds: float | None = None

    def expiry_at(self, at: datetime) -> datetime | None:
        """The expire_time a create journaled at ``at`` stores."""
        if self.ttl_seconds is not None:
            return at + timedelta(seconds=self.ttl_seconds)
        return self.expire_time


def as_memory(new: NewMemory, now: datetime, version: int) -> Memory:
    """The memory a create journaled at ``now`` stores (version 1), or reports
    as accepted (version 0)."""
    return Memory(
        id=new.memory_id or new.generated_id,
        content=new.content,
        scope=new.scope,
        memory_type=new.memory_type,
        category=new.category,
        metadata=new.metadata,
        memory_key=new.memory_key,
        create_time=now,
        update_time=now,
        version=version,
        expire_time=new.expiry_at(now),
    )


@dataclass(frozen=True, slots=True)
class CreateResult:
    """The outcome of a create and the memory it produced or found."""

    memory: Memory
    outcome: WriteOutcome
    duplicate_similarity: float = 0.0
    #: False for an ACCEPTED create that may update an existing memory (it has a
    #: memory_key or memory_id): that memory keeps its own create_time, which
    #: the acknowledgement cannot know yet, so it reports none.
    is_create_time_known: bool = True


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """A partial update: None means "leave as is"."""

    memory_id: str
    scope: Scope
    content: str | None = None
    metadata: Mapping[str, Any] | None = None
    metadata_mode: MetadataMode = MetadataMode.MERGE
    category: str | None = None
    memory_type: MemoryType | None = None
    expected_version: int | None = None
    #: Set the expiry to ``expire_time`` (None: never expires) when
    #: ``changes_expiry``; or to ``ttl_seconds`` after the write is journaled.
    changes_expiry: bool = False
    expire_time: datetime | None = None
    ttl_seconds: float | None = None

    def expiry_at(self, at: datetime, current: datetime | None) -> datetime | None:
        """The expire_time of a memory that had ``current``, after this change
        journaled at ``at``."""
        if self.ttl_seconds is not None:
            return at + timedelta(seconds=self.ttl_seconds)
        return self.expire_time if self.changes_expiry else current


@dataclass(frozen=True, slots=True)
class Selection:
    """Which memories of a scope a read or forget covers."""

    scope: Scope
    memory_types: tuple[MemoryType, ...] = ()
    categories: tuple[str, ...] = ()
    where: Filter | None = None


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """A search by meaning. ``mode`` None means the server's default;
    ``diversity`` (0 to 1) turns on maximal marginal relevance;
    ``recency_half_life`` None means the server's default, zero no recency."""

    text: str
    selection: Selection
    limit: int
    score_threshold: float | None = None
    mode: RetrievalMode | None = None
    diversity: float | None = None
    #: The most content tokens the results may take together; 0: no budget.
    max_tokens: int = 0
    recency_half_life: timedelta | None = None


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """A search hit; score is in [0, 1], higher is more similar."""

    memory: Memory
    score: float


@dataclass(frozen=True, slots=True)
class ListQuery:
    """A page of a scope's memories, newest first."""

    selection: Selection
    page_size: int
    page_token: str = ""


@dataclass(frozen=True, slots=True)
class MemoryPage:
    """One page of ListMemories."""

    memories: tuple[Memory, ...]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class WriteStatus:
    """Where a journaled write stands; ``outcome`` is set once applied, ``error``
    once failed."""

    token: str
    kind: OperationKind
    state: WriteState
    create_time: datetime
    apply_time: datetime | None
    outcome: object = None
    error: Exception | None = None


@dataclass(frozen=True, slots=True)
class WritePolicy:
    """Backpressure and read waits; see config.Settings. (The journal keeps the
    retention of finished writes: core/write_log.py.)"""

    max_backlog: int = 10_000
    read_wait_max_seconds: float = 30.0


@dataclass(frozen=True, slots=True)
class Receipt[T]:
    """A write's token and its result: final in SYNC mode, provisional in ASYNC."""

    token: str
    result: T
