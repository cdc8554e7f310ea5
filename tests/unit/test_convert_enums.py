"""api/enums.py: each domain enum converts to its contract twin and back, by name."""

from __future__ import annotations

import enum
from typing import Any

import pytest

from memoryd.api import enums
from memoryd.api.enums import EnumPair
from memoryd.core import filters, model, preload_events, rendering
from memoryd.core.errors import InvalidArgument
from memoryd.core.model import MetadataMode, WriteMode
from memoryd.core.rendering import PreloadFormat

PAIRS = {name: pair for name, pair in vars(enums).items() if isinstance(pair, EnumPair)}
DOMAIN_ENUMS: dict[str, type[enum.Enum]] = {
    "MEMORY_TYPES": model.MemoryType,
    "OPERATORS": filters.Operator,
    "WRITE_MODES": model.WriteMode,
    "WRITE_OUTCOMES": model.WriteOutcome,
    "WRITE_STATES": model.WriteState,
    "METADATA_MODES": model.MetadataMode,
    "RETRIEVAL_MODES": model.RetrievalMode,
    "PRELOAD_FORMATS": rendering.PreloadFormat,
    "PRELOAD_SCOPES": preload_events.PreloadScope,
    "TURN_ROLES": preload_events.TurnRole,
}


def test_each_pair_is_tested() -> None:
    assert PAIRS.keys() == DOMAIN_ENUMS.keys()


@pytest.mark.parametrize("name", DOMAIN_ENUMS)
def test_every_member_round_trips_through_its_twin(name: str) -> None:
    pair: EnumPair[Any, int] = PAIRS[name]
    wire = {pair.to_proto(member) for member in DOMAIN_ENUMS[name]}
    assert len(wire) == len(DOMAIN_ENUMS[name]) and 0 not in wire
    for member in DOMAIN_ENUMS[name]:
        assert pair.from_proto(pair.to_proto(member), "field") is member


@pytest.mark.parametrize("pair", PAIRS.values(), ids=PAIRS.keys())
def test_an_undefined_value_names_the_field(pair: EnumPair[Any, int]) -> None:
    with pytest.raises(InvalidArgument) as raised:
        pair.from_proto(999, "memory.memory_type")
    assert raised.value.field == "memory.memory_type"
    assert raised.value.reason.startswith("999 is not a ")


def test_unspecified_means_the_documented_default_or_is_refused() -> None:
    assert enums.WRITE_MODES.from_proto(0, "mode") is WriteMode.ASYNC
    assert enums.METADATA_MODES.from_proto(0, "metadata_update_mode") is MetadataMode.MERGE
    assert enums.PRELOAD_FORMATS.from_proto(0, "format") is PreloadFormat.TENXGRAPH_AGENT
    with pytest.raises(InvalidArgument, match="0 is not a MemoryType"):
        enums.MEMORY_TYPES.from_proto(0, "memory.memory_type")
