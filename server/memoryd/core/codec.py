"""Domain dataclasses as JSON documents and back, derived from their type hints.

The write log stores requests this way, so a field added to NewMemory,
MemoryChange or Selection is journaled without a serialiser written by hand.
Enums are stored by value, times as RFC 3339 text, tuples as lists, filter trees as core.filters
writes them, and a Float32Vector as the base64 text of its little-endian
floats: written and read float by float, vectors held an import with vectors
to about 540 memories/s; packed, it reaches about 2,000/s
(bench/compare/million.py).
The documents of earlier versions read back unchanged, because they were
written with the same field names (and a vector as a list still reads).
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import sys
import types
import typing
from array import array
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any

from memoryd.core import filters
from memoryd.core.model import Float32Vector


def to_json(value: Any) -> Any:
    """A JSON-ready document of a domain value."""
    match value:
        case filters.Condition() | filters.AllOf() | filters.AnyOf() | filters.Not():
            return filters.to_json(value)
        case enum.Enum():
            return value.value
        case datetime():
            return value.astimezone(UTC).isoformat()
        case _ if dataclasses.is_dataclass(value) and not isinstance(value, type):
            packed = _vector_fields(type(value))
            return {
                f.name: (
                    _pack(getattr(value, f.name))
                    if f.name in packed
                    else to_json(getattr(value, f.name))
                )
                for f in dataclasses.fields(value)
            }
        case tuple() | list():
            return [to_json(item) for item in value]
        case Mapping():
            return {key: to_json(item) for key, item in value.items()}
        case _:
            return value


def document(value: object) -> dict[str, Any]:
    """The document of a dataclass instance."""
    result = to_json(value)
    assert isinstance(result, dict), f"{type(value).__name__} is not a dataclass"
    return result


def from_json[T](cls: type[T], document: Mapping[str, Any]) -> T:
    """The dataclass ``cls`` a document of ``to_json`` describes. A field the
    document lacks (one added since an earlier version wrote it) takes its default."""
    hints = _hints(cls)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # cls is a dataclass
    return cls(
        **{
            f.name: _read(hints[f.name], document[f.name])
            for f in fields
            if f.init and f.name in document
        }
    )


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


@cache
def _vector_fields(cls: type) -> frozenset[str]:
    """The fields of dataclass ``cls`` that hold a Float32Vector (or None)."""
    return frozenset(name for name, hint in _hints(cls).items() if _is_vector(hint))


def _is_vector(hint: Any) -> bool:
    return hint is Float32Vector or (
        typing.get_origin(hint) in (typing.Union, types.UnionType)
        and Float32Vector in typing.get_args(hint)
    )


def _pack(vector: Sequence[float] | None) -> str | None:
    if vector is None:
        return None
    floats = array("f", vector)
    if sys.byteorder == "big":
        floats.byteswap()
    return base64.b64encode(floats.tobytes()).decode("ascii")


def _unpack(value: str | list[float]) -> tuple[float, ...]:
    if isinstance(value, list):  # written before vectors were packed
        return tuple(float(x) for x in value)
    floats = array("f", base64.b64decode(value, validate=True))
    if sys.byteorder == "big":
        floats.byteswap()
    return tuple(floats)


def _read(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if hint is Float32Vector:
        return _unpack(value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is filters.Filter or hint == filters.Filter | None:
        return filters.from_json(value)
    if origin in (typing.Union, types.UnionType):
        (present,) = (arg for arg in args if arg is not type(None))
        return _read(present, value)
    if origin is tuple:
        return tuple(_read(args[0], item) for item in value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if hint is datetime:
        return datetime.fromisoformat(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return from_json(hint, value)
    return value
