"""Helpers for awkward message fields: metadata from plain maps, and request ids."""

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


class _Idempotent(Protocol):
    request_id: str

    def CopyFrom(self, other: Any, /) -> None: ...  # noqa: N802  # protobuf's name


def with_request_id[R: _Idempotent](request: R) -> R:
    """``request`` itself if it has a request_id, else a copy with a fresh UUID one.

    Every write goes out with a request_id, so gRPC's retry on UNAVAILABLE (or a
    caller's own retry of the returned request) can never apply it twice.
    """
    if request.request_id:
        return request
    copy = type(request)()
    copy.CopyFrom(request)
    copy.request_id = str(uuid.uuid4())
    return copy
