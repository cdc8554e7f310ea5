"""Maps core.filters trees one to one onto qdrant-client filters (qdrant_filters.py for Edge)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from qdrant_client import models

from memoryd.core.filters import Filter
from memoryd.store.filter_translation import translate_excluding


class ClientDialect:
    """qdrant-client's filter models."""

    def clause(
        self,
        *,
        must: list[Any] | None = None,
        should: list[Any] | None = None,
        must_not: list[Any] | None = None,
    ) -> models.Filter:
        return models.Filter(must=must, should=should, must_not=must_not)

    def match_value(self, key: str, value: str | bool) -> Any:
        return models.FieldCondition(key=key, match=models.MatchValue(value=value))

    def match_any(self, key: str, values: list[str]) -> Any:
        return models.FieldCondition(key=key, match=models.MatchAny(any=values))

    def number_range(self, key: str, bounds: dict[str, float]) -> Any:
        return models.FieldCondition(key=key, range=models.Range(**bounds))

    def time_range(self, key: str, bounds: dict[str, datetime]) -> Any:
        # The same instant iso_time writes, so stored and filtered times agree.
        times = {name: value.astimezone(UTC) for name, value in bounds.items()}
        return models.FieldCondition(key=key, range=models.DatetimeRange(**times))

    def is_empty(self, key: str) -> Any:
        return models.IsEmptyCondition(is_empty=models.PayloadField(key=key))

    def is_null(self, key: str) -> Any:
        return models.IsNullCondition(is_null=models.PayloadField(key=key))

    def has_id(self, ids: list[str]) -> Any:
        return models.HasIdCondition(has_id=list(ids))


_CLIENT = ClientDialect()


def to_client_filter(tree: Filter, *, excluding_ids: Sequence[str] = ()) -> models.Filter:
    """The qdrant-client filter matching exactly the points ``tree`` matches, but
    for those with ``excluding_ids``."""
    result: models.Filter = translate_excluding(tree, excluding_ids, _CLIENT)
    return result
