"""The limits on what a request may carry, checked before anything is written.

Each message names the limit it enforces (``max_content_bytes``), which is
also the setting that raises it (MEMORYD_MAX_CONTENT_BYTES).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memoryd.core.errors import InvalidArgument
from memoryd.core.filters import validate_client_filter
from memoryd.core.model import MemoryChange, NewMemory, Selection
from memoryd.core.scoping import check_id, check_scope

_METADATA_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The longest ttl: 100 years of 365.25 days (the contract's limit).
MAX_TTL_SECONDS = 36_525 * 86_400
#: How deep metadata may nest (objects and lists). Not a setting: protobuf
#: parsers (Python's, Java's) stop at 100 message levels, and a response wraps
#: a memory deeper than the request that stored it, so metadata 33 levels deep
#: was accepted by CreateMemory yet broke every search, preload and export that
#: returned it. 20 leaves every client's parser room.
MAX_METADATA_DEPTH = 20
#: The lengths of an imported vector that float32 can normalize (its squared
#: length must be a normal float32, about 1e-38 to 3e38), with room to spare.
VECTOR_LENGTHS = (1e-18, 1e18)


@dataclass(frozen=True, slots=True)
class Limits:
    """Configurable maxima; see config.Settings for their defaults."""

    max_content_bytes: int = 32 * 1024
    max_metadata_bytes: int = 16 * 1024
    max_batch_size: int = 100
    max_category_chars: int = 128
    max_metadata_keys: int = 64
    max_search_limit: int = 100
    #: What one answer may take on the wire; ListMemories ends a page early
    #: rather than send more (a client asking for 1000 large memories).
    max_response_bytes: int = 8 * 1024 * 1024


def check_content(content: str, field: str, limits: Limits) -> None:
    if not content.strip():
        raise InvalidArgument(field, "must not be empty")
    size = len(content.encode())
    if size > limits.max_content_bytes:
        raise InvalidArgument(
            field,
            f"is {size} bytes; at most {limits.max_content_bytes} bytes allowed "
            "(limit max_content_bytes)",
        )


def check_category(category: str, field: str, limits: Limits) -> None:
    if len(category) > limits.max_category_chars or not category.isprintable():
        raise InvalidArgument(
            field, f"must be at most {limits.max_category_chars} printable characters"
        )


def check_metadata(metadata: Mapping[str, Any], field: str, limits: Limits) -> None:
    depth = _depth(metadata)
    if depth > MAX_METADATA_DEPTH:
        raise InvalidArgument(
            field,
            f"nests {depth} levels deep (objects and lists); at most {MAX_METADATA_DEPTH} "
            "allowed, so that every client's protobuf parser can read the memory back",
        )
    keys = _check_keys(metadata, field)
    if keys > limits.max_metadata_keys:
        raise InvalidArgument(
            field,
            f"has {keys} keys (nested ones included); at most {limits.max_metadata_keys} "
            "allowed (limit max_metadata_keys)",
        )
    size = len(json.dumps(metadata, separators=(",", ":")).encode())
    if size > limits.max_metadata_bytes:
        raise InvalidArgument(
            field,
            f"is {size} bytes as JSON; at most {limits.max_metadata_bytes} bytes allowed "
            "(limit max_metadata_bytes)",
        )


def _check_keys(value: Any, field: str) -> int:
    """Checks every key's spelling; returns how many keys there are."""
    count = 0
    if isinstance(value, Mapping):
        for key, child in value.items():
            if not _METADATA_KEY.fullmatch(key):
                raise InvalidArgument(
                    field, f"key {key[:80]!r} must be 1-64 letters, digits, '_' or '-'"
                )
            count += 1 + _check_keys(child, f"{field}.{key}")
    elif isinstance(value, list):
        for child in value:
            count += _check_keys(child, field)
    return count


def _depth(value: Any) -> int:
    """How many objects and lists nest at the deepest point of ``value``."""
    if isinstance(value, Mapping):
        return 1 + max((_depth(child) for child in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(child) for child in value), default=0)
    return 0


def check_ttl(ttl_seconds: float | None, field: str) -> None:
    if ttl_seconds is not None and not 0 < ttl_seconds <= MAX_TTL_SECONDS:
        raise InvalidArgument(
            field,
            f"must be positive and at most 100 years ({MAX_TTL_SECONDS} s), got {ttl_seconds} s; "
            "leave it unset for a memory that never expires",
        )


def check_vector(vector: Sequence[float], field: str) -> None:
    """Refuses a vector the index would keep but could never compare: Qdrant
    normalizes in float32, where a length outside VECTOR_LENGTHS squares to 0
    or infinity (an all-zero vector has no direction at all), so it would be
    found by no query and match no near-duplicate."""
    if not all(math.isfinite(x) for x in vector):
        raise InvalidArgument(field, "must hold finite numbers only")
    length = math.sqrt(math.fsum(x * x for x in vector))
    shortest, longest = VECTOR_LENGTHS
    if not shortest <= length <= longest:
        raise InvalidArgument(
            field,
            f"has length {length:.3g}, outside {shortest:g} to {longest:g}; send the vector "
            "ExportMemories gave (its length is 1), or none to have the content embedded",
        )


def check_expected_version(version: int | None) -> None:
    """A version no memory can have would only ever fail, later if the write is ASYNC."""
    if version is not None and version < 1:
        raise InvalidArgument(
            "expected_version",
            f"must be 1 or more (a memory starts at version 1), got {version}; "
            "leave it unset to change whatever version is stored",
        )


def check_new_memory(
    new: NewMemory, field: str, limits: Limits, *, now: datetime | None = None
) -> None:
    """Checks a memory to create at ``now`` (default: the current time);
    ``field`` is the request's name for it."""
    check_content(new.content, f"{field}.content", limits)
    check_scope(new.scope, f"{field}.scope")
    check_category(new.category, f"{field}.category", limits)
    check_metadata(new.metadata, f"{field}.metadata", limits)
    check_id(new.memory_key, f"{field}.memory_key", required=False)
    if new.memory_id is not None:
        check_id(new.memory_id, "memory_id", required=True)
    if new.dedup_threshold is not None and not 0.0 <= new.dedup_threshold <= 1.0:
        raise InvalidArgument("dedup_threshold", "must be between 0 and 1")
    check_ttl(new.ttl_seconds, "ttl")
    if new.expire_time is not None:
        if new.ttl_seconds is not None:
            raise InvalidArgument("ttl", f"set ttl or {field}.expire_time, not both")
        now = now or datetime.now(UTC)
        if new.expire_time <= now:
            raise InvalidArgument(
                f"{field}.expire_time",
                f"{new.expire_time.isoformat()} is not in the future (now {now.isoformat()}); "
                "set a later time, or use ttl",
            )


def check_category_filter(categories: Sequence[str], limits: Limits) -> None:
    """The categories a read or forget selects; an empty one could match nothing."""
    for i, category in enumerate(categories):
        if not category:
            raise InvalidArgument(
                f"categories[{i}]",
                "must not be empty: no memory has an empty category "
                "(a create that leaves it empty stores 'general')",
            )
        check_category(category, f"categories[{i}]", limits)


def check_selection(selection: Selection, limits: Limits) -> None:
    check_scope(selection.scope, "scope")
    check_category_filter(selection.categories, limits)
    if selection.where is not None:
        validate_client_filter(selection.where, "filter")


def check_search_limit(limit: int, limits: Limits) -> None:
    if not 1 <= limit <= limits.max_search_limit:
        raise InvalidArgument(
            "limit",
            f"must be 1 to {limits.max_search_limit} (0 means 5), got {limit} "
            "(limit max_search_limit)",
        )


def check_change(change: MemoryChange, limits: Limits) -> None:
    check_id(change.memory_id, "memory.id", required=True)
    check_scope(change.scope, "memory.scope")
    check_expected_version(change.expected_version)
    if change.content is not None:
        check_content(change.content, "memory.content", limits)
    if change.category is not None:
        check_category(change.category, "memory.category", limits)
    if change.metadata is not None:
        check_metadata(change.metadata, "memory.metadata", limits)
    check_ttl(change.ttl_seconds, "ttl")
    if change.ttl_seconds is not None and change.changes_expiry:
        raise InvalidArgument(
            "ttl", 'set ttl or "expire_time" in update_mask, not both (ttl sets expire_time)'
        )
