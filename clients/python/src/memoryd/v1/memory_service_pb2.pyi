import datetime

from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import status_pb2 as _status_pb2
from memoryd.v1 import memory_pb2 as _memory_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_ARGUMENT: _ClassVar[ErrorReason]
    ERROR_REASON_MESSAGE_TOO_LARGE: _ClassVar[ErrorReason]
    ERROR_REASON_MEMORY_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_WRITE_TOKEN: _ClassVar[ErrorReason]
    ERROR_REASON_VERSION_MISMATCH: _ClassVar[ErrorReason]
    ERROR_REASON_INCOMPATIBLE_INDEX: _ClassVar[ErrorReason]
    ERROR_REASON_EMBEDDING_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_WRITE_BACKLOG_FULL: _ClassVar[ErrorReason]
    ERROR_REASON_SHUTTING_DOWN: _ClassVar[ErrorReason]
    ERROR_REASON_WRITE_NOT_YET_APPLIED: _ClassVar[ErrorReason]
    ERROR_REASON_WRITE_FAILED: _ClassVar[ErrorReason]
    ERROR_REASON_PRELOAD_SCOPE_TIMED_OUT: _ClassVar[ErrorReason]
    ERROR_REASON_UNAUTHENTICATED: _ClassVar[ErrorReason]
    ERROR_REASON_SCOPE_NOT_PERMITTED: _ClassVar[ErrorReason]
    ERROR_REASON_RATE_LIMITED: _ClassVar[ErrorReason]
    ERROR_REASON_INTERNAL: _ClassVar[ErrorReason]
    ERROR_REASON_CHANGE_HISTORY_EXPIRED: _ClassVar[ErrorReason]
    ERROR_REASON_REEMBED_IN_PROGRESS: _ClassVar[ErrorReason]

class WriteOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WRITE_OUTCOME_UNSPECIFIED: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_CREATED: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_UPDATED_EXISTING: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_SKIPPED_DUPLICATE: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_ACCEPTED: _ClassVar[WriteOutcome]

class WriteMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WRITE_MODE_UNSPECIFIED: _ClassVar[WriteMode]
    WRITE_MODE_ASYNC: _ClassVar[WriteMode]
    WRITE_MODE_SYNC: _ClassVar[WriteMode]

class WriteState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WRITE_STATE_UNSPECIFIED: _ClassVar[WriteState]
    WRITE_STATE_PENDING: _ClassVar[WriteState]
    WRITE_STATE_APPLIED: _ClassVar[WriteState]
    WRITE_STATE_FAILED: _ClassVar[WriteState]

class RetrievalMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RETRIEVAL_MODE_UNSPECIFIED: _ClassVar[RetrievalMode]
    RETRIEVAL_MODE_DENSE: _ClassVar[RetrievalMode]
    RETRIEVAL_MODE_HYBRID: _ClassVar[RetrievalMode]

class PreloadFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRELOAD_FORMAT_UNSPECIFIED: _ClassVar[PreloadFormat]
    PRELOAD_FORMAT_TENXGRAPH_AGENT: _ClassVar[PreloadFormat]
    PRELOAD_FORMAT_TENXGRAPH_INTEGRATION: _ClassVar[PreloadFormat]
    PRELOAD_FORMAT_PLAIN: _ClassVar[PreloadFormat]

class TurnRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_ROLE_UNSPECIFIED: _ClassVar[TurnRole]
    TURN_ROLE_USER: _ClassVar[TurnRole]
    TURN_ROLE_ASSISTANT: _ClassVar[TurnRole]
    TURN_ROLE_SYSTEM: _ClassVar[TurnRole]
    TURN_ROLE_TOOL: _ClassVar[TurnRole]

class PreloadScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRELOAD_SCOPE_UNSPECIFIED: _ClassVar[PreloadScope]
    PRELOAD_SCOPE_USER: _ClassVar[PreloadScope]
    PRELOAD_SCOPE_AGENT: _ClassVar[PreloadScope]

class MetadataUpdateMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    METADATA_UPDATE_MODE_UNSPECIFIED: _ClassVar[MetadataUpdateMode]
    METADATA_UPDATE_MODE_MERGE: _ClassVar[MetadataUpdateMode]
    METADATA_UPDATE_MODE_REPLACE: _ClassVar[MetadataUpdateMode]

class ChangeType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHANGE_TYPE_UNSPECIFIED: _ClassVar[ChangeType]
    CHANGE_TYPE_CREATED: _ClassVar[ChangeType]
    CHANGE_TYPE_UPDATED: _ClassVar[ChangeType]
    CHANGE_TYPE_DELETED: _ClassVar[ChangeType]
    CHANGE_TYPE_EXPIRED: _ClassVar[ChangeType]

class ReembedState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REEMBED_STATE_UNSPECIFIED: _ClassVar[ReembedState]
    REEMBED_STATE_RUNNING: _ClassVar[ReembedState]
    REEMBED_STATE_SWITCHED: _ClassVar[ReembedState]
    REEMBED_STATE_FAILED: _ClassVar[ReembedState]
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_INVALID_ARGUMENT: ErrorReason
ERROR_REASON_MESSAGE_TOO_LARGE: ErrorReason
ERROR_REASON_MEMORY_NOT_FOUND: ErrorReason
ERROR_REASON_UNKNOWN_WRITE_TOKEN: ErrorReason
ERROR_REASON_VERSION_MISMATCH: ErrorReason
ERROR_REASON_INCOMPATIBLE_INDEX: ErrorReason
ERROR_REASON_EMBEDDING_UNAVAILABLE: ErrorReason
ERROR_REASON_WRITE_BACKLOG_FULL: ErrorReason
ERROR_REASON_SHUTTING_DOWN: ErrorReason
ERROR_REASON_WRITE_NOT_YET_APPLIED: ErrorReason
ERROR_REASON_WRITE_FAILED: ErrorReason
ERROR_REASON_PRELOAD_SCOPE_TIMED_OUT: ErrorReason
ERROR_REASON_UNAUTHENTICATED: ErrorReason
ERROR_REASON_SCOPE_NOT_PERMITTED: ErrorReason
ERROR_REASON_RATE_LIMITED: ErrorReason
ERROR_REASON_INTERNAL: ErrorReason
ERROR_REASON_CHANGE_HISTORY_EXPIRED: ErrorReason
ERROR_REASON_REEMBED_IN_PROGRESS: ErrorReason
WRITE_OUTCOME_UNSPECIFIED: WriteOutcome
WRITE_OUTCOME_CREATED: WriteOutcome
WRITE_OUTCOME_UPDATED_EXISTING: WriteOutcome
WRITE_OUTCOME_SKIPPED_DUPLICATE: WriteOutcome
WRITE_OUTCOME_ACCEPTED: WriteOutcome
WRITE_MODE_UNSPECIFIED: WriteMode
WRITE_MODE_ASYNC: WriteMode
WRITE_MODE_SYNC: WriteMode
WRITE_STATE_UNSPECIFIED: WriteState
WRITE_STATE_PENDING: WriteState
WRITE_STATE_APPLIED: WriteState
WRITE_STATE_FAILED: WriteState
RETRIEVAL_MODE_UNSPECIFIED: RetrievalMode
RETRIEVAL_MODE_DENSE: RetrievalMode
RETRIEVAL_MODE_HYBRID: RetrievalMode
PRELOAD_FORMAT_UNSPECIFIED: PreloadFormat
PRELOAD_FORMAT_TENXGRAPH_AGENT: PreloadFormat
PRELOAD_FORMAT_TENXGRAPH_INTEGRATION: PreloadFormat
PRELOAD_FORMAT_PLAIN: PreloadFormat
TURN_ROLE_UNSPECIFIED: TurnRole
TURN_ROLE_USER: TurnRole
TURN_ROLE_ASSISTANT: TurnRole
TURN_ROLE_SYSTEM: TurnRole
TURN_ROLE_TOOL: TurnRole
PRELOAD_SCOPE_UNSPECIFIED: PreloadScope
PRELOAD_SCOPE_USER: PreloadScope
PRELOAD_SCOPE_AGENT: PreloadScope
METADATA_UPDATE_MODE_UNSPECIFIED: MetadataUpdateMode
METADATA_UPDATE_MODE_MERGE: MetadataUpdateMode
METADATA_UPDATE_MODE_REPLACE: MetadataUpdateMode
CHANGE_TYPE_UNSPECIFIED: ChangeType
CHANGE_TYPE_CREATED: ChangeType
CHANGE_TYPE_UPDATED: ChangeType
CHANGE_TYPE_DELETED: ChangeType
CHANGE_TYPE_EXPIRED: ChangeType
REEMBED_STATE_UNSPECIFIED: ReembedState
REEMBED_STATE_RUNNING: ReembedState
REEMBED_STATE_SWITCHED: ReembedState
REEMBED_STATE_FAILED: ReembedState

class CreateMemoryRequest(_message.Message):
    __slots__ = ("memory", "memory_id", "dedup_threshold", "request_id", "mode", "ttl")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    DEDUP_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TTL_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    memory_id: str
    dedup_threshold: float
    request_id: str
    mode: WriteMode
    ttl: _duration_pb2.Duration
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., memory_id: _Optional[str] = ..., dedup_threshold: _Optional[float] = ..., request_id: _Optional[str] = ..., mode: _Optional[_Union[WriteMode, str]] = ..., ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateMemoryResponse(_message.Message):
    __slots__ = ("memory", "outcome", "duplicate_similarity", "write_token")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    outcome: WriteOutcome
    duplicate_similarity: float
    write_token: str
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., outcome: _Optional[_Union[WriteOutcome, str]] = ..., duplicate_similarity: _Optional[float] = ..., write_token: _Optional[str] = ...) -> None: ...

class BatchCreateMemoriesRequest(_message.Message):
    __slots__ = ("requests", "request_id", "mode")
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[CreateMemoryRequest]
    request_id: str
    mode: WriteMode
    def __init__(self, requests: _Optional[_Iterable[_Union[CreateMemoryRequest, _Mapping]]] = ..., request_id: _Optional[str] = ..., mode: _Optional[_Union[WriteMode, str]] = ...) -> None: ...

class BatchCreateMemoriesResponse(_message.Message):
    __slots__ = ("results", "write_token")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[CreateMemoryResponse]
    write_token: str
    def __init__(self, results: _Optional[_Iterable[_Union[CreateMemoryResponse, _Mapping]]] = ..., write_token: _Optional[str] = ...) -> None: ...

class GetMemoryRequest(_message.Message):
    __slots__ = ("id", "scope", "consistency_token")
    ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    CONSISTENCY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    id: str
    scope: _memory_pb2.Scope
    consistency_token: str
    def __init__(self, id: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., consistency_token: _Optional[str] = ...) -> None: ...

class GetMemoryResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ...) -> None: ...

class ListMemoriesRequest(_message.Message):
    __slots__ = ("scope", "page_size", "page_token", "memory_types", "categories", "filter", "consistency_token")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    CONSISTENCY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    page_size: int
    page_token: str
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    consistency_token: str
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., consistency_token: _Optional[str] = ...) -> None: ...

class ListMemoriesResponse(_message.Message):
    __slots__ = ("memories", "next_page_token")
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    memories: _containers.RepeatedCompositeFieldContainer[_memory_pb2.Memory]
    next_page_token: str
    def __init__(self, memories: _Optional[_Iterable[_Union[_memory_pb2.Memory, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateMemoryRequest(_message.Message):
    __slots__ = ("memory", "update_mask", "metadata_update_mode", "expected_version", "request_id", "mode", "ttl")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    METADATA_UPDATE_MODE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TTL_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    update_mask: _field_mask_pb2.FieldMask
    metadata_update_mode: MetadataUpdateMode
    expected_version: int
    request_id: str
    mode: WriteMode
    ttl: _duration_pb2.Duration
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., metadata_update_mode: _Optional[_Union[MetadataUpdateMode, str]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ..., mode: _Optional[_Union[WriteMode, str]] = ..., ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class UpdateMemoryResponse(_message.Message):
    __slots__ = ("memory", "write_token")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    write_token: str
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., write_token: _Optional[str] = ...) -> None: ...

class DeleteMemoryRequest(_message.Message):
    __slots__ = ("id", "scope", "expected_version", "request_id", "mode")
    ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    id: str
    scope: _memory_pb2.Scope
    expected_version: int
    request_id: str
    mode: WriteMode
    def __init__(self, id: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ..., mode: _Optional[_Union[WriteMode, str]] = ...) -> None: ...

class DeleteMemoryResponse(_message.Message):
    __slots__ = ("write_token",)
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    write_token: str
    def __init__(self, write_token: _Optional[str] = ...) -> None: ...

class SearchMemoriesRequest(_message.Message):
    __slots__ = ("query", "scope", "limit", "memory_types", "categories", "filter", "score_threshold", "consistency_token", "retrieval_mode", "diversity", "max_tokens", "recency_half_life")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    SCORE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    CONSISTENCY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_MODE_FIELD_NUMBER: _ClassVar[int]
    DIVERSITY_FIELD_NUMBER: _ClassVar[int]
    MAX_TOKENS_FIELD_NUMBER: _ClassVar[int]
    RECENCY_HALF_LIFE_FIELD_NUMBER: _ClassVar[int]
    query: str
    scope: _memory_pb2.Scope
    limit: int
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    score_threshold: float
    consistency_token: str
    retrieval_mode: RetrievalMode
    diversity: float
    max_tokens: int
    recency_half_life: _duration_pb2.Duration
    def __init__(self, query: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., limit: _Optional[int] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., score_threshold: _Optional[float] = ..., consistency_token: _Optional[str] = ..., retrieval_mode: _Optional[_Union[RetrievalMode, str]] = ..., diversity: _Optional[float] = ..., max_tokens: _Optional[int] = ..., recency_half_life: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class SearchMemoriesResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SearchResult]
    def __init__(self, results: _Optional[_Iterable[_Union[SearchResult, _Mapping]]] = ...) -> None: ...

class SearchResult(_message.Message):
    __slots__ = ("memory", "score")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    score: float
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., score: _Optional[float] = ...) -> None: ...

class ForgetMemoriesRequest(_message.Message):
    __slots__ = ("scope", "memory_types", "categories", "filter", "dry_run", "request_id", "mode")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    dry_run: bool
    request_id: str
    mode: WriteMode
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., dry_run: _Optional[bool] = ..., request_id: _Optional[str] = ..., mode: _Optional[_Union[WriteMode, str]] = ...) -> None: ...

class ForgetMemoriesResponse(_message.Message):
    __slots__ = ("deleted_count", "write_token")
    DELETED_COUNT_FIELD_NUMBER: _ClassVar[int]
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    deleted_count: int
    write_token: str
    def __init__(self, deleted_count: _Optional[int] = ..., write_token: _Optional[str] = ...) -> None: ...

class GetWriteStatusRequest(_message.Message):
    __slots__ = ("write_token",)
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    write_token: str
    def __init__(self, write_token: _Optional[str] = ...) -> None: ...

class GetWriteStatusResponse(_message.Message):
    __slots__ = ("write_token", "state", "create_time", "apply_time", "create_memory", "batch_create_memories", "update_memory", "delete_memory", "forget_memories", "import_memories", "error")
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    APPLY_TIME_FIELD_NUMBER: _ClassVar[int]
    CREATE_MEMORY_FIELD_NUMBER: _ClassVar[int]
    BATCH_CREATE_MEMORIES_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MEMORY_FIELD_NUMBER: _ClassVar[int]
    DELETE_MEMORY_FIELD_NUMBER: _ClassVar[int]
    FORGET_MEMORIES_FIELD_NUMBER: _ClassVar[int]
    IMPORT_MEMORIES_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    write_token: str
    state: WriteState
    create_time: _timestamp_pb2.Timestamp
    apply_time: _timestamp_pb2.Timestamp
    create_memory: CreateMemoryResponse
    batch_create_memories: BatchCreateMemoriesResponse
    update_memory: UpdateMemoryResponse
    delete_memory: DeleteMemoryResponse
    forget_memories: ForgetMemoriesResponse
    import_memories: ImportMemoriesResponse
    error: _status_pb2.Status
    def __init__(self, write_token: _Optional[str] = ..., state: _Optional[_Union[WriteState, str]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., apply_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., create_memory: _Optional[_Union[CreateMemoryResponse, _Mapping]] = ..., batch_create_memories: _Optional[_Union[BatchCreateMemoriesResponse, _Mapping]] = ..., update_memory: _Optional[_Union[UpdateMemoryResponse, _Mapping]] = ..., delete_memory: _Optional[_Union[DeleteMemoryResponse, _Mapping]] = ..., forget_memories: _Optional[_Union[ForgetMemoriesResponse, _Mapping]] = ..., import_memories: _Optional[_Union[ImportMemoriesResponse, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...

class PreloadRequest(_message.Message):
    __slots__ = ("query", "turns", "user_scope", "agent_scope", "limit", "score_threshold", "max_tokens", "memory_types", "categories", "format", "retrieval_mode", "diversity", "if_none_match", "consistency_token", "recency_half_life")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    USER_SCOPE_FIELD_NUMBER: _ClassVar[int]
    AGENT_SCOPE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SCORE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    MAX_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_MODE_FIELD_NUMBER: _ClassVar[int]
    DIVERSITY_FIELD_NUMBER: _ClassVar[int]
    IF_NONE_MATCH_FIELD_NUMBER: _ClassVar[int]
    CONSISTENCY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RECENCY_HALF_LIFE_FIELD_NUMBER: _ClassVar[int]
    query: str
    turns: _containers.RepeatedCompositeFieldContainer[ConversationTurn]
    user_scope: _memory_pb2.Scope
    agent_scope: _memory_pb2.Scope
    limit: int
    score_threshold: float
    max_tokens: int
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    format: PreloadFormat
    retrieval_mode: RetrievalMode
    diversity: float
    if_none_match: str
    consistency_token: str
    recency_half_life: _duration_pb2.Duration
    def __init__(self, query: _Optional[str] = ..., turns: _Optional[_Iterable[_Union[ConversationTurn, _Mapping]]] = ..., user_scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., agent_scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., limit: _Optional[int] = ..., score_threshold: _Optional[float] = ..., max_tokens: _Optional[int] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., format: _Optional[_Union[PreloadFormat, str]] = ..., retrieval_mode: _Optional[_Union[RetrievalMode, str]] = ..., diversity: _Optional[float] = ..., if_none_match: _Optional[str] = ..., consistency_token: _Optional[str] = ..., recency_half_life: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ConversationTurn(_message.Message):
    __slots__ = ("role", "content")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    role: TurnRole
    content: str
    def __init__(self, role: _Optional[_Union[TurnRole, str]] = ..., content: _Optional[str] = ...) -> None: ...

class PreloadResponse(_message.Message):
    __slots__ = ("hits", "context", "done", "not_modified")
    HITS_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    NOT_MODIFIED_FIELD_NUMBER: _ClassVar[int]
    hits: ScopeHits
    context: PreloadContext
    done: PreloadDone
    not_modified: PreloadNotModified
    def __init__(self, hits: _Optional[_Union[ScopeHits, _Mapping]] = ..., context: _Optional[_Union[PreloadContext, _Mapping]] = ..., done: _Optional[_Union[PreloadDone, _Mapping]] = ..., not_modified: _Optional[_Union[PreloadNotModified, _Mapping]] = ...) -> None: ...

class ScopeHits(_message.Message):
    __slots__ = ("scope", "results", "error")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    scope: PreloadScope
    results: _containers.RepeatedCompositeFieldContainer[SearchResult]
    error: _status_pb2.Status
    def __init__(self, scope: _Optional[_Union[PreloadScope, str]] = ..., results: _Optional[_Iterable[_Union[SearchResult, _Mapping]]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...

class PreloadContext(_message.Message):
    __slots__ = ("text", "memory_ids", "dropped_count", "token_count")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_IDS_FIELD_NUMBER: _ClassVar[int]
    DROPPED_COUNT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    text: str
    memory_ids: _containers.RepeatedScalarFieldContainer[str]
    dropped_count: int
    token_count: int
    def __init__(self, text: _Optional[str] = ..., memory_ids: _Optional[_Iterable[str]] = ..., dropped_count: _Optional[int] = ..., token_count: _Optional[int] = ...) -> None: ...

class PreloadDone(_message.Message):
    __slots__ = ("user_hit_count", "agent_hit_count", "included_count", "token_count", "partial", "etag", "retrieval_mode", "embed_duration", "search_duration", "render_duration")
    USER_HIT_COUNT_FIELD_NUMBER: _ClassVar[int]
    AGENT_HIT_COUNT_FIELD_NUMBER: _ClassVar[int]
    INCLUDED_COUNT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_COUNT_FIELD_NUMBER: _ClassVar[int]
    PARTIAL_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_MODE_FIELD_NUMBER: _ClassVar[int]
    EMBED_DURATION_FIELD_NUMBER: _ClassVar[int]
    SEARCH_DURATION_FIELD_NUMBER: _ClassVar[int]
    RENDER_DURATION_FIELD_NUMBER: _ClassVar[int]
    user_hit_count: int
    agent_hit_count: int
    included_count: int
    token_count: int
    partial: bool
    etag: str
    retrieval_mode: RetrievalMode
    embed_duration: _duration_pb2.Duration
    search_duration: _duration_pb2.Duration
    render_duration: _duration_pb2.Duration
    def __init__(self, user_hit_count: _Optional[int] = ..., agent_hit_count: _Optional[int] = ..., included_count: _Optional[int] = ..., token_count: _Optional[int] = ..., partial: _Optional[bool] = ..., etag: _Optional[str] = ..., retrieval_mode: _Optional[_Union[RetrievalMode, str]] = ..., embed_duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., search_duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., render_duration: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class PreloadNotModified(_message.Message):
    __slots__ = ("etag",)
    ETAG_FIELD_NUMBER: _ClassVar[int]
    etag: str
    def __init__(self, etag: _Optional[str] = ...) -> None: ...

class ExportMemoriesRequest(_message.Message):
    __slots__ = ("scope", "memory_types", "categories", "filter", "page_size", "consistency_token")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    CONSISTENCY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    page_size: int
    consistency_token: str
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., page_size: _Optional[int] = ..., consistency_token: _Optional[str] = ...) -> None: ...

class ExportMemoriesResponse(_message.Message):
    __slots__ = ("header", "memories")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    header: ExportHeader
    memories: _containers.RepeatedCompositeFieldContainer[ExportedMemory]
    def __init__(self, header: _Optional[_Union[ExportHeader, _Mapping]] = ..., memories: _Optional[_Iterable[_Union[ExportedMemory, _Mapping]]] = ...) -> None: ...

class ExportHeader(_message.Message):
    __slots__ = ("memory_count", "embedder_id", "dimension", "change_sequence", "snapshot_time")
    MEMORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_ID_FIELD_NUMBER: _ClassVar[int]
    DIMENSION_FIELD_NUMBER: _ClassVar[int]
    CHANGE_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_TIME_FIELD_NUMBER: _ClassVar[int]
    memory_count: int
    embedder_id: str
    dimension: int
    change_sequence: int
    snapshot_time: _timestamp_pb2.Timestamp
    def __init__(self, memory_count: _Optional[int] = ..., embedder_id: _Optional[str] = ..., dimension: _Optional[int] = ..., change_sequence: _Optional[int] = ..., snapshot_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ExportedMemory(_message.Message):
    __slots__ = ("memory", "vector", "embedder_id")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    VECTOR_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_ID_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    vector: _containers.RepeatedScalarFieldContainer[float]
    embedder_id: str
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., vector: _Optional[_Iterable[float]] = ..., embedder_id: _Optional[str] = ...) -> None: ...

class ImportMemoriesRequest(_message.Message):
    __slots__ = ("memories",)
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    memories: _containers.RepeatedCompositeFieldContainer[ExportedMemory]
    def __init__(self, memories: _Optional[_Iterable[_Union[ExportedMemory, _Mapping]]] = ...) -> None: ...

class ImportMemoriesResponse(_message.Message):
    __slots__ = ("received_count", "created_count", "updated_count", "unchanged_count", "embedded_count", "write_token")
    RECEIVED_COUNT_FIELD_NUMBER: _ClassVar[int]
    CREATED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_COUNT_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_COUNT_FIELD_NUMBER: _ClassVar[int]
    EMBEDDED_COUNT_FIELD_NUMBER: _ClassVar[int]
    WRITE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    received_count: int
    created_count: int
    updated_count: int
    unchanged_count: int
    embedded_count: int
    write_token: str
    def __init__(self, received_count: _Optional[int] = ..., created_count: _Optional[int] = ..., updated_count: _Optional[int] = ..., unchanged_count: _Optional[int] = ..., embedded_count: _Optional[int] = ..., write_token: _Optional[str] = ...) -> None: ...

class WatchMemoriesRequest(_message.Message):
    __slots__ = ("scope", "start_after_sequence")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    START_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    start_after_sequence: int
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., start_after_sequence: _Optional[int] = ...) -> None: ...

class WatchMemoriesResponse(_message.Message):
    __slots__ = ("started", "change", "fell_behind")
    STARTED_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    FELL_BEHIND_FIELD_NUMBER: _ClassVar[int]
    started: WatchStarted
    change: MemoryChange
    fell_behind: WatchFellBehind
    def __init__(self, started: _Optional[_Union[WatchStarted, _Mapping]] = ..., change: _Optional[_Union[MemoryChange, _Mapping]] = ..., fell_behind: _Optional[_Union[WatchFellBehind, _Mapping]] = ...) -> None: ...

class WatchStarted(_message.Message):
    __slots__ = ("after_sequence",)
    AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    after_sequence: int
    def __init__(self, after_sequence: _Optional[int] = ...) -> None: ...

class WatchFellBehind(_message.Message):
    __slots__ = ("resume_after_sequence",)
    RESUME_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    resume_after_sequence: int
    def __init__(self, resume_after_sequence: _Optional[int] = ...) -> None: ...

class MemoryChange(_message.Message):
    __slots__ = ("sequence", "type", "memory", "change_time")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    CHANGE_TIME_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    type: ChangeType
    memory: _memory_pb2.Memory
    change_time: _timestamp_pb2.Timestamp
    def __init__(self, sequence: _Optional[int] = ..., type: _Optional[_Union[ChangeType, str]] = ..., memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., change_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class GetStatsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetStatsResponse(_message.Message):
    __slots__ = ("user_memory_count", "agent_memory_count", "app_memory_count", "expired_memory_count", "journal_backlog", "change_sequence", "embedder_id", "dimension", "backend", "index_disk_bytes", "journal_disk_bytes", "reembed")
    USER_MEMORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    AGENT_MEMORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    APP_MEMORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    EXPIRED_MEMORY_COUNT_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_BACKLOG_FIELD_NUMBER: _ClassVar[int]
    CHANGE_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_ID_FIELD_NUMBER: _ClassVar[int]
    DIMENSION_FIELD_NUMBER: _ClassVar[int]
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    INDEX_DISK_BYTES_FIELD_NUMBER: _ClassVar[int]
    JOURNAL_DISK_BYTES_FIELD_NUMBER: _ClassVar[int]
    REEMBED_FIELD_NUMBER: _ClassVar[int]
    user_memory_count: int
    agent_memory_count: int
    app_memory_count: int
    expired_memory_count: int
    journal_backlog: int
    change_sequence: int
    embedder_id: str
    dimension: int
    backend: str
    index_disk_bytes: int
    journal_disk_bytes: int
    reembed: ReembedStatus
    def __init__(self, user_memory_count: _Optional[int] = ..., agent_memory_count: _Optional[int] = ..., app_memory_count: _Optional[int] = ..., expired_memory_count: _Optional[int] = ..., journal_backlog: _Optional[int] = ..., change_sequence: _Optional[int] = ..., embedder_id: _Optional[str] = ..., dimension: _Optional[int] = ..., backend: _Optional[str] = ..., index_disk_bytes: _Optional[int] = ..., journal_disk_bytes: _Optional[int] = ..., reembed: _Optional[_Union[ReembedStatus, _Mapping]] = ...) -> None: ...

class StartReembedRequest(_message.Message):
    __slots__ = ("embedder",)
    EMBEDDER_FIELD_NUMBER: _ClassVar[int]
    embedder: str
    def __init__(self, embedder: _Optional[str] = ...) -> None: ...

class StartReembedResponse(_message.Message):
    __slots__ = ("status",)
    STATUS_FIELD_NUMBER: _ClassVar[int]
    status: ReembedStatus
    def __init__(self, status: _Optional[_Union[ReembedStatus, _Mapping]] = ...) -> None: ...

class GetReembedStatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetReembedStatusResponse(_message.Message):
    __slots__ = ("status",)
    STATUS_FIELD_NUMBER: _ClassVar[int]
    status: ReembedStatus
    def __init__(self, status: _Optional[_Union[ReembedStatus, _Mapping]] = ...) -> None: ...

class ReembedStatus(_message.Message):
    __slots__ = ("state", "from_embedder_id", "to_embedder_id", "done_count", "total_count", "error", "start_time", "end_time")
    STATE_FIELD_NUMBER: _ClassVar[int]
    FROM_EMBEDDER_ID_FIELD_NUMBER: _ClassVar[int]
    TO_EMBEDDER_ID_FIELD_NUMBER: _ClassVar[int]
    DONE_COUNT_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    state: ReembedState
    from_embedder_id: str
    to_embedder_id: str
    done_count: int
    total_count: int
    error: str
    start_time: _timestamp_pb2.Timestamp
    end_time: _timestamp_pb2.Timestamp
    def __init__(self, state: _Optional[_Union[ReembedState, str]] = ..., from_embedder_id: _Optional[str] = ..., to_embedder_id: _Optional[str] = ..., done_count: _Optional[int] = ..., total_count: _Optional[int] = ..., error: _Optional[str] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
