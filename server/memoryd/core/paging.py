"""Opaque page tokens for ListMemories, bound to the query that issued them."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence

from memoryd.core.errors import InvalidArgument
from memoryd.core.model import Selection


def fingerprint(selection: Selection) -> str:
    """A short digest of a query, so a token cannot resume a different query."""
    return hashlib.sha256(repr(selection).encode()).hexdigest()[:16]


def encode_token(selection: Selection, order_value: int, seen_ids: Sequence[str]) -> str:
    body = {"q": fingerprint(selection), "t": order_value, "ids": list(seen_ids)}
    return base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode()).decode()


def decode_token(token: str, selection: Selection) -> tuple[int, tuple[str, ...]]:
    """Returns (order value, ids already returned at that value).

    Raises InvalidArgument for a token that is malformed or was issued for
    another query.
    """
    try:
        body = json.loads(base64.urlsafe_b64decode(token.encode()))
        order_value, seen_ids, query = int(body["t"]), tuple(map(str, body["ids"])), body["q"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidArgument("page_token", "is not a token ListMemories returned") from exc
    if query != fingerprint(selection):
        raise InvalidArgument(
            "page_token", "belongs to a different query; send the same scope and filters"
        )
    return order_value, seen_ids
