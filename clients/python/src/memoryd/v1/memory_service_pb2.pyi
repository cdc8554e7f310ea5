from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import field_mask_pb2 as _field_mask_pb2
from memoryd.v1 import memory_pb2 as _memory_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WriteOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    WRITE_OUTCOME_UNSPECIFIED: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_CREATED: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_UPDATED_EXISTING: _ClassVar[WriteOutcome]
    WRITE_OUTCOME_SKIPPED_DUPLICATE: _ClassVar[WriteOutcome]

class MetadataUpdateMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    METADATA_UPDATE_MODE_UNSPECIFIED: _ClassVar[MetadataUpdateMode]
    METADATA_UPDATE_MODE_MERGE: _ClassVar[MetadataUpdateMode]
    METADATA_UPDATE_MODE_REPLACE: _ClassVar[MetadataUpdateMode]
WRITE_OUTCOME_UNSPECIFIED: WriteOutcome
WRITE_OUTCOME_CREATED: WriteOutcome
WRITE_OUTCOME_UPDATED_EXISTING: WriteOutcome
WRITE_OUTCOME_SKIPPED_DUPLICATE: WriteOutcome
METADATA_UPDATE_MODE_UNSPECIFIED: MetadataUpdateMode
METADATA_UPDATE_MODE_MERGE: MetadataUpdateMode
METADATA_UPDATE_MODE_REPLACE: MetadataUpdateMode

class CreateMemoryRequest(_message.Message):
    __slots__ = ("memory", "memory_id", "dedup_threshold", "request_id")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    MEMORY_ID_FIELD_NUMBER: _ClassVar[int]
    DEDUP_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    memory_id: str
    dedup_threshold: float
    request_id: str
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., memory_id: _Optional[str] = ..., dedup_threshold: _Optional[float] = ..., request_id: _Optional[str] = ...) -> None: ...

class CreateMemoryResponse(_message.Message):
    __slots__ = ("memory", "outcome", "duplicate_similarity")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    outcome: WriteOutcome
    duplicate_similarity: float
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., outcome: _Optional[_Union[WriteOutcome, str]] = ..., duplicate_similarity: _Optional[float] = ...) -> None: ...

class BatchCreateMemoriesRequest(_message.Message):
    __slots__ = ("requests", "request_id")
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[CreateMemoryRequest]
    request_id: str
    def __init__(self, requests: _Optional[_Iterable[_Union[CreateMemoryRequest, _Mapping]]] = ..., request_id: _Optional[str] = ...) -> None: ...

class BatchCreateMemoriesResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[CreateMemoryResponse]
    def __init__(self, results: _Optional[_Iterable[_Union[CreateMemoryResponse, _Mapping]]] = ...) -> None: ...

class GetMemoryRequest(_message.Message):
    __slots__ = ("id", "scope")
    ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    id: str
    scope: _memory_pb2.Scope
    def __init__(self, id: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ...) -> None: ...

class GetMemoryResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ...) -> None: ...

class ListMemoriesRequest(_message.Message):
    __slots__ = ("scope", "page_size", "page_token", "memory_types", "categories", "filter")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    page_size: int
    page_token: str
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ...) -> None: ...

class ListMemoriesResponse(_message.Message):
    __slots__ = ("memories", "next_page_token")
    MEMORIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    memories: _containers.RepeatedCompositeFieldContainer[_memory_pb2.Memory]
    next_page_token: str
    def __init__(self, memories: _Optional[_Iterable[_Union[_memory_pb2.Memory, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateMemoryRequest(_message.Message):
    __slots__ = ("memory", "update_mask", "metadata_update_mode", "expected_version", "request_id")
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    METADATA_UPDATE_MODE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    update_mask: _field_mask_pb2.FieldMask
    metadata_update_mode: MetadataUpdateMode
    expected_version: int
    request_id: str
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ..., metadata_update_mode: _Optional[_Union[MetadataUpdateMode, str]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class UpdateMemoryResponse(_message.Message):
    __slots__ = ("memory",)
    MEMORY_FIELD_NUMBER: _ClassVar[int]
    memory: _memory_pb2.Memory
    def __init__(self, memory: _Optional[_Union[_memory_pb2.Memory, _Mapping]] = ...) -> None: ...

class DeleteMemoryRequest(_message.Message):
    __slots__ = ("id", "scope", "expected_version", "request_id")
    ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    scope: _memory_pb2.Scope
    expected_version: int
    request_id: str
    def __init__(self, id: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ...) -> None: ...

class DeleteMemoryResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SearchMemoriesRequest(_message.Message):
    __slots__ = ("query", "scope", "limit", "memory_types", "categories", "filter", "score_threshold")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    SCORE_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    query: str
    scope: _memory_pb2.Scope
    limit: int
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    score_threshold: float
    def __init__(self, query: _Optional[str] = ..., scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., limit: _Optional[int] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., score_threshold: _Optional[float] = ...) -> None: ...

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
    __slots__ = ("scope", "memory_types", "categories", "filter", "dry_run", "request_id")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPES_FIELD_NUMBER: _ClassVar[int]
    CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    FILTER_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    scope: _memory_pb2.Scope
    memory_types: _containers.RepeatedScalarFieldContainer[_memory_pb2.MemoryType]
    categories: _containers.RepeatedScalarFieldContainer[str]
    filter: _memory_pb2.Filter
    dry_run: bool
    request_id: str
    def __init__(self, scope: _Optional[_Union[_memory_pb2.Scope, _Mapping]] = ..., memory_types: _Optional[_Iterable[_Union[_memory_pb2.MemoryType, str]]] = ..., categories: _Optional[_Iterable[str]] = ..., filter: _Optional[_Union[_memory_pb2.Filter, _Mapping]] = ..., dry_run: _Optional[bool] = ..., request_id: _Optional[str] = ...) -> None: ...

class ForgetMemoriesResponse(_message.Message):
    __slots__ = ("deleted_count",)
    DELETED_COUNT_FIELD_NUMBER: _ClassVar[int]
    deleted_count: int
    def __init__(self, deleted_count: _Optional[int] = ...) -> None: ...
