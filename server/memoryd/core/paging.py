"""Opaque page tokens for ListMemories, bound to the query that issued them."""

from __future__ import annotations

import base64
import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from memoryd.core.errors import InvalidArgument
from memoryd.core.model import Selection
from memoryd.core.ports import Record, ScrollCursor

#: The create_times (microseconds since the epoch) a token may resume at:
#: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, the times datetime and the
#: index can hold. A token is opaque but not signed, so a client can edit it.
_MIN_ORDER_VALUE = -62_135_596_800 * 10**6
_MAX_ORDER_VALUE = 253_402_300_799 * 10**6


def fingerprint(selection: Selection) -> str:
    """A short digest of a query, so a token cannot resume a different query."""
    return hashlib.sha256(repr(selection).encode()).hexdigest()[:16]


def encode_token(selection: Selection, order_value: int, seen_ids: Sequence[str]) -> str:
    body = {"q": fingerprint(selection), "t": order_value, "ids": list(seen_ids)}
    return base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode()).decode()


def next_token(
    selection: Selection,
    records: Sequence[Record],
    order_values: Sequence[int],
    cursor: ScrollCursor | None,
) -> str:
    """The token of the page after ``records`` (a newest-first page, the
    ``order_values`` lining up with its records) that resumed at ``cursor``."""
    last = order_values[len(records) - 1]
    seen = [r.id for r, v in zip(records, order_values, strict=False) if v == last]
    if cursor is not None and cursor.order_value == last:
        seen = [*cursor.seen_ids, *seen]
    return encode_token(selection, last, seen)


def decode_token(token: str, selection: Selection) -> tuple[int, tuple[str, ...]]:
    """Returns (order value, ids already returned at that value).

    Raises InvalidArgument for a token that is malformed or was issued for
    another query.
    """
    malformed = InvalidArgument("page_token", "is not a token ListMemories returned")
    try:
        body = json.loads(base64.urlsafe_b64decode(token.encode()))
        order_value, raw_ids, query = body["t"], body["ids"], body["q"]
        # Seen ids are point ids, which the index takes only as UUIDs.
        seen_ids = tuple(str(uuid.UUID(i)) for i in raw_ids if isinstance(i, str))
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise malformed from exc
    if type(order_value) is not int or not _MIN_ORDER_VALUE <= order_value <= _MAX_ORDER_VALUE:
        raise malformed
    if not isinstance(raw_ids, list) or len(seen_ids) != len(raw_ids):
        raise malformed
    if query != fingerprint(selection):
        raise InvalidArgument(
            "page_token", "belongs to a different query; send the same scope and filters"
        )
    return order_value, seen_ids


def fitting_count(payloads: Sequence[Mapping[str, Any]], max_bytes: int) -> int:
    """How many of ``payloads``, in order, fit one answer of ``max_bytes`` (at
    least one). Sized as JSON, which is never smaller than their protobuf form
    by more than the half kept back here for field tags and timestamps."""
    budget, count = max_bytes // 2, 0
    for payload in payloads:
        budget -= len(json.dumps(payload, default=str))
        if budget < 0:
            break
        count += 1
    return max(1, count)
