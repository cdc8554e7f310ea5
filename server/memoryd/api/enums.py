"""Domain enums and their twins in the contract, paired by member name."""

from __future__ import annotations

import enum
from typing import cast

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from memoryd.core import filters
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import (
    MemoryType,
    MetadataMode,
    RetrievalMode,
    WriteMode,
    WriteOutcome,
    WriteState,
)
from memoryd.core.preload_events import PreloadScope, TurnRole
from memoryd.core.rendering import PreloadFormat
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc


class EnumPair[Domain: enum.Enum, Wire: int]:
    """A domain enum and the contract's enum with the same members
    (MemoryType.EPISODIC is MEMORY_TYPE_EPISODIC).

    Pairing by name at import means a domain member without a twin fails the
    server's start, not a call. ``unspecified`` is what the zero value means
    where the contract documents a default; without one it is refused.
    """

    def __init__(
        self,
        domain: type[Domain],
        wire: type[Wire],
        *,
        unspecified: Domain | None = None,
        hint: str = "",
    ) -> None:
        # Generated enum classes have EnumTypeWrapper as their metaclass.
        values = cast(EnumTypeWrapper, wire)
        prefix = values.Name(0).removesuffix("UNSPECIFIED")
        self._to_proto = {m: cast(Wire, values.Value(prefix + m.name)) for m in domain}
        self._from_proto: dict[int, Domain] = {v: m for m, v in self._to_proto.items()}
        if unspecified is not None:
            self._from_proto[0] = unspecified
        self._name = values.DESCRIPTOR.name
        self._hint = hint

    def to_proto(self, member: Domain) -> Wire:
        return self._to_proto[member]

    def from_proto(self, value: int, field: str) -> Domain:
        """The member for ``value``, which may be any number (proto3 enums are
        open). Raises InvalidArgument naming ``field`` for a value the contract
        does not define, and for UNSPECIFIED where it has no default."""
        member = self._from_proto.get(value)
        if member is None:
            raise InvalidArgument(field, f"{value} is not a {self._name}{self._hint}")
        return member


MEMORY_TYPES = EnumPair(MemoryType, pb.MemoryType)
OPERATORS = EnumPair(
    filters.Operator,
    pb.ComparisonOperator,
    hint="; set EQ, NE, IN, NOT_IN, GT, GTE, LT, LTE or EXISTS",
)
WRITE_MODES = EnumPair(
    WriteMode, svc.WriteMode, unspecified=WriteMode.ASYNC, hint="; use WRITE_MODE_ASYNC or _SYNC"
)
WRITE_OUTCOMES = EnumPair(WriteOutcome, svc.WriteOutcome)
WRITE_STATES = EnumPair(WriteState, svc.WriteState)
METADATA_MODES = EnumPair(MetadataMode, svc.MetadataUpdateMode, unspecified=MetadataMode.MERGE)
#: UNSPECIFIED, the server's default mode, is refused here: query_convert reads it as None.
RETRIEVAL_MODES = EnumPair(RetrievalMode, svc.RetrievalMode)
PRELOAD_FORMATS = EnumPair(
    PreloadFormat, svc.PreloadFormat, unspecified=PreloadFormat.TENXGRAPH_AGENT
)
PRELOAD_SCOPES = EnumPair(PreloadScope, svc.PreloadScope)
#: UNSPECIFIED, a turn without a role, is refused here: preload_convert reads it as None.
TURN_ROLES = EnumPair(TurnRole, svc.TurnRole)
