import datetime

from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MemoryType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MEMORY_TYPE_UNSPECIFIED: _ClassVar[MemoryType]
    MEMORY_TYPE_EPISODIC: _ClassVar[MemoryType]
    MEMORY_TYPE_SEMANTIC: _ClassVar[MemoryType]
    MEMORY_TYPE_PROCEDURAL: _ClassVar[MemoryType]
    MEMORY_TYPE_ENTITY: _ClassVar[MemoryType]
    MEMORY_TYPE_RELATIONSHIP: _ClassVar[MemoryType]
    MEMORY_TYPE_DECLARATIVE: _ClassVar[MemoryType]
    MEMORY_TYPE_CUSTOM: _ClassVar[MemoryType]

class ComparisonOperator(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMPARISON_OPERATOR_UNSPECIFIED: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_EQ: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_NE: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_IN: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_NOT_IN: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_GT: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_GTE: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_LT: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_LTE: _ClassVar[ComparisonOperator]
    COMPARISON_OPERATOR_EXISTS: _ClassVar[ComparisonOperator]
MEMORY_TYPE_UNSPECIFIED: MemoryType
MEMORY_TYPE_EPISODIC: MemoryType
MEMORY_TYPE_SEMANTIC: MemoryType
MEMORY_TYPE_PROCEDURAL: MemoryType
MEMORY_TYPE_ENTITY: MemoryType
MEMORY_TYPE_RELATIONSHIP: MemoryType
MEMORY_TYPE_DECLARATIVE: MemoryType
MEMORY_TYPE_CUSTOM: MemoryType
COMPARISON_OPERATOR_UNSPECIFIED: ComparisonOperator
COMPARISON_OPERATOR_EQ: ComparisonOperator
COMPARISON_OPERATOR_NE: ComparisonOperator
COMPARISON_OPERATOR_IN: ComparisonOperator
COMPARISON_OPERATOR_NOT_IN: ComparisonOperator
COMPARISON_OPERATOR_GT: ComparisonOperator
COMPARISON_OPERATOR_GTE: ComparisonOperator
COMPARISON_OPERATOR_LT: ComparisonOperator
COMPARISON_OPERATOR_LTE: ComparisonOperator
COMPARISON_OPERATOR_EXISTS: ComparisonOperator

class Memory(_message.Message):
    __slots__ = ("id", "content", "scope", "memory_type", "category", "metadata", "memory_key", "create_time", "update_time", "version", "expire_time")
    ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    MEMORY_TYPE_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MEMORY_KEY_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    id: str
    content: str
    scope: Scope
    memory_type: MemoryType
    category: str
    metadata: _struct_pb2.Struct
    memory_key: str
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    version: int
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., content: _Optional[str] = ..., scope: _Optional[_Union[Scope, _Mapping]] = ..., memory_type: _Optional[_Union[MemoryType, str]] = ..., category: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., memory_key: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Scope(_message.Message):
    __slots__ = ("user_id", "agent_id", "app_id", "thread_id")
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_ID_FIELD_NUMBER: _ClassVar[int]
    APP_ID_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    agent_id: str
    app_id: str
    thread_id: str
    def __init__(self, user_id: _Optional[str] = ..., agent_id: _Optional[str] = ..., app_id: _Optional[str] = ..., thread_id: _Optional[str] = ...) -> None: ...

class Filter(_message.Message):
    __slots__ = ("condition", "all", "any")
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    ALL_FIELD_NUMBER: _ClassVar[int]
    ANY_FIELD_NUMBER: _ClassVar[int]
    NOT_FIELD_NUMBER: _ClassVar[int]
    condition: Condition
    all: FilterList
    any: FilterList
    def __init__(self, condition: _Optional[_Union[Condition, _Mapping]] = ..., all: _Optional[_Union[FilterList, _Mapping]] = ..., any: _Optional[_Union[FilterList, _Mapping]] = ..., **kwargs) -> None: ...

class FilterList(_message.Message):
    __slots__ = ("filters",)
    FILTERS_FIELD_NUMBER: _ClassVar[int]
    filters: _containers.RepeatedCompositeFieldContainer[Filter]
    def __init__(self, filters: _Optional[_Iterable[_Union[Filter, _Mapping]]] = ...) -> None: ...

class Condition(_message.Message):
    __slots__ = ("field", "operator", "values")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    field: str
    operator: ComparisonOperator
    values: _containers.RepeatedCompositeFieldContainer[FilterValue]
    def __init__(self, field: _Optional[str] = ..., operator: _Optional[_Union[ComparisonOperator, str]] = ..., values: _Optional[_Iterable[_Union[FilterValue, _Mapping]]] = ...) -> None: ...

class FilterValue(_message.Message):
    __slots__ = ("string_value", "number_value", "bool_value", "time_value")
    STRING_VALUE_FIELD_NUMBER: _ClassVar[int]
    NUMBER_VALUE_FIELD_NUMBER: _ClassVar[int]
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    TIME_VALUE_FIELD_NUMBER: _ClassVar[int]
    string_value: str
    number_value: float
    bool_value: bool
    time_value: _timestamp_pb2.Timestamp
    def __init__(self, string_value: _Optional[str] = ..., number_value: _Optional[float] = ..., bool_value: _Optional[bool] = ..., time_value: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
