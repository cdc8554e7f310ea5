"""Request builders for awkward message fields: metadata from plain maps, request ids,
consistency tokens."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any, Protocol

from google.protobuf import json_format, struct_pb2


def struct_from_dict(values: Mapping[str, Any]) -> struct_pb2.Struct:
    """A Struct for ``Memory.metadata`` from a plain dict.

    Values that are not JSON (datetimes, UUIDs, ...) are stored as their ``str()``,
    as a JSON encoder with ``default=str`` would.
    """
    plain = json.loads(json.dumps(dict(values), default=str))
    struct = struct_pb2.Struct()
    struct.update(plain)
    return struct


def dict_from_struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    """The plain dict of a Struct (whole numbers come back as floats, as in JSON)."""
    return json_format.MessageToDict(struct)


class _Copyable(Protocol):
    def CopyFrom(self, other: Any, /) -> None: ...  # noqa: N802  # protobuf's name


class _Idempotent(_Copyable, Protocol):
    request_id: str


class _ConsistentRead(_Copyable, Protocol):
    consistency_token: str


def _copy[M: _Copyable](message: M) -> M:
    copy = type(message)()
    copy.CopyFrom(message)
    return copy


def with_request_id[R: _Idempotent](request: R) -> R:
    """``request`` itself if it has a request_id, else a copy with a fresh UUID one.

    Every write goes out with a request_id, so gRPC's retry on UNAVAILABLE (or a
    caller's own retry of the returned request) can never apply it twice.
    """
    if request.request_id:
        return request
    copy = _copy(request)
    copy.request_id = str(uuid.uuid4())
    return copy


def with_consistency_token[R: _ConsistentRead](request: R, write_token: str) -> R:
    """A copy of a read request (Get, List, Search, Preload) that carries
    ``write_token`` as its consistency_token, so the server waits for that write."""
    copy = _copy(request)
    copy.consistency_token = write_token
    return copy
