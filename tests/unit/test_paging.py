"""core.paging: page tokens are opaque and bound to their query."""

from __future__ import annotations

import pytest

from memoryd.core.errors import InvalidArgument
from memoryd.core.model import MemoryType, Scope, Selection
from memoryd.core.paging import decode_token, encode_token

QUERY = Selection(Scope(user_id="u1"), memory_types=(MemoryType.SEMANTIC,))


#: Seen ids are index point ids, which are UUIDs (core/scoping.point_id).
SEEN = ("0b6f1a52-5c2e-5d1a-9d43-5f0f6f0e8a01", "8c9d0e1f-2a3b-5c4d-8e5f-6a7b8c9d0e1f")


def test_token_round_trips():
    token = encode_token(QUERY, 1_767_225_600_000_000, SEEN)
    assert decode_token(token, QUERY) == (1_767_225_600_000_000, SEEN)


@pytest.mark.parametrize(
    "other",
    [
        Selection(Scope(user_id="u2"), memory_types=(MemoryType.SEMANTIC,)),
        Selection(Scope(user_id="u1")),
        Selection(Scope(user_id="u1"), memory_types=(MemoryType.SEMANTIC,), categories=("x",)),
    ],
)
def test_token_of_another_query_is_refused(other):
    token = encode_token(QUERY, 1, [])
    with pytest.raises(InvalidArgument, match="different query"):
        decode_token(token, other)


@pytest.mark.parametrize("token", ["", "%%%", "bm90IGpzb24=", "eyJ0IjogMX0="])
def test_malformed_token_is_refused(token):
    with pytest.raises(InvalidArgument) as info:
        decode_token(token, QUERY)
    assert info.value.field == "page_token"
