"""core.paging: page tokens are opaque and bound to their query."""

from __future__ import annotations

import pytest

from memoryd.core.errors import InvalidArgument
from memoryd.core.model import MemoryType, Scope, Selection
from memoryd.core.paging import decode_token, encode_token

QUERY = Selection(Scope(user_id="u1"), memory_types=(MemoryType.SEMANTIC,))


def test_token_round_trips():
    token = encode_token(QUERY, 1_767_225_600_000_000, ["a", "b"])
    assert decode_token(token, QUERY) == (1_767_225_600_000_000, ("a", "b"))


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
