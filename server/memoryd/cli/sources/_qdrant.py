"""What the 10xgraph and mem0 readers share: a Qdrant collection read page by page,
and the conversions of payload values (times, metadata, keys) into memoryd's."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from google.protobuf.struct_pb2 import Struct
from google.protobuf.timestamp_pb2 import Timestamp
from qdrant_client import QdrantClient
from qdrant_client.http.exceptions import ApiException
from qdrant_client.models import Record

from memoryd.cli.sources.base import SourceError
from memoryd.v1 import memory_service_pb2

logger = logging.getLogger(__name__)

#: Points per scroll request: a page is held in memory, never the collection.
PAGE_SIZE = 256
#: memoryd's rules for metadata keys and for ids (memory_key, scope ids).
_METADATA_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NOT_KEY_CHAR = re.compile(r"[^A-Za-z0-9_-]")
_MAX_ID_CHARS = 128
_MAX_CATEGORY_CHARS = 128
#: How many skipped point ids the closing warning names.
_NAMED_SKIPS = 5


def connect(*, path: Path | None, url: str | None, api_key: str | None) -> QdrantClient:
    """A client for a local Qdrant directory (``path``) or a Qdrant server (``url``).

    Raises SourceError unless exactly one of them is given, if ``path`` holds
    no local Qdrant store (qdrant-client would silently start an empty one
    there), or if another process has it open.
    """
    if (path is None) == (url is None):
        raise SourceError("give either --path (a local Qdrant directory) or --url, not both")
    if path is None:
        return QdrantClient(url=url, api_key=api_key)
    if not (path / "meta.json").is_file():
        raise SourceError(f"{path} holds no local Qdrant store (it has no meta.json)")
    try:
        return QdrantClient(path=str(path))
    except RuntimeError as exc:  # qdrant-client's lock on a local store another client holds
        raise SourceError(f"cannot open {path}: {exc}") from exc


def count_points(client: QdrantClient, collection: str, where: str) -> int:
    """The collection's exact point count. Raises SourceError if the store
    cannot be reached, or if it has no such collection (naming the ones it has)."""
    try:
        if client.collection_exists(collection):
            return client.count(collection, exact=True).count
        names = sorted(c.name for c in client.get_collections().collections)
    except ApiException as exc:
        client.close()
        raise SourceError(f"cannot read {where}: {exc}") from exc
    client.close()
    raise SourceError(
        f"no collection {collection!r} in {where}; it has: {', '.join(names) or 'none'}"
    )


def scroll(
    client: QdrantClient, collection: str, where: str, *, with_vectors: bool
) -> Iterator[Record]:
    """Every point of the collection in id order, PAGE_SIZE at a time; closes
    the client when done (or when the consumer stops early). A failed read
    raises SourceError."""
    try:
        offset: Any = None
        while True:
            try:
                points, offset = client.scroll(
                    collection,
                    limit=PAGE_SIZE,
                    offset=offset,
                    with_payload=True,
                    with_vectors=with_vectors,
                )
            except ApiException as exc:
                raise SourceError(f"reading {collection!r} at {where} failed: {exc}") from exc
            yield from points
            if offset is None:
                return
    finally:
        client.close()


def dense_vector(point: Record) -> list[float]:
    """The point's dense vector: the unnamed one, whether the collection also
    holds named sparse vectors (mem0's "bm25") or not. Empty if it has none."""
    vector: Any = point.vector
    if isinstance(vector, dict):
        vector = vector.get("", next((v for v in vector.values() if isinstance(v, list)), None))
    if isinstance(vector, list) and all(isinstance(x, int | float) for x in vector):
        return [float(x) for x in vector]
    return []


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 string or epoch seconds as an aware datetime; None if it is
    neither. A time without an offset is read in this machine's local zone,
    which is how both peers wrote naive times (``datetime.now()``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(value, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.astimezone()


def timestamp(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment.astimezone(UTC))
    return stamp


def as_id(value: Any) -> str:
    """``value`` if it is a valid memoryd id (a memory_key, a scope id), else "".
    An integer id (some stores write numeric user ids) is taken as its digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value or len(value) > _MAX_ID_CHARS:
        return ""
    return value if value.isprintable() and value.strip() == value else ""


def bad_id_key(payload: Mapping[str, Any], keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` the payload sets to something memoryd cannot take as
    an id. Such a memory is skipped rather than imported without that id: a
    user memory without its user_id would become shared memory."""
    for key in keys:
        if payload.get(key) not in (None, "") and not as_id(payload[key]):
            return key
    return None


def as_category(value: Any) -> str:
    """``value`` if memoryd takes it as a category (1-128 printable characters), else ""."""
    if isinstance(value, str) and len(value) <= _MAX_CATEGORY_CHARS and value.isprintable():
        return value
    return ""


def metadata_struct(values: Mapping[str, Any]) -> Struct:
    """The values as memoryd metadata. Keys memoryd would refuse (anything but
    1-64 letters, digits, '_' and '-') are rewritten: other characters become
    '_', cut at 64, and a clash with another key gets a numeric suffix."""
    struct = Struct()
    struct.update(_clean_keys(values))
    return struct


def _clean_keys(value: Any) -> Any:
    if isinstance(value, Mapping):
        # valid keys keep their names; a rewritten one takes a suffix on a clash
        cleaned = {k: _clean_keys(v) for k, v in value.items() if _METADATA_KEY.fullmatch(str(k))}
        for key, child in value.items():
            if _METADATA_KEY.fullmatch(str(key)):
                continue
            name = base = _NOT_KEY_CHAR.sub("_", str(key))[:64] or "_"
            suffix = 2
            while name in cleaned:
                name = f"{base[:60]}_{suffix}"
                suffix += 1
            cleaned[name] = _clean_keys(child)
        return cleaned
    if isinstance(value, list | tuple):
        return [_clean_keys(child) for child in value]
    return value


@dataclass
class Skips:
    """Points left out (no owner, no content), reported once the scroll ends."""

    source: str
    reasons: dict[str, list[str]] = field(default_factory=dict)

    def add(self, point_id: str, reason: str) -> None:
        self.reasons.setdefault(reason, []).append(point_id)

    def report(self) -> None:
        for reason, ids in self.reasons.items():
            named = ", ".join(ids[:_NAMED_SKIPS]) + (", ..." if len(ids) > _NAMED_SKIPS else "")
            logger.warning(
                "%s: skipped %d point(s) with %s: %s", self.source, len(ids), reason, named
            )


def mapped(
    points: Iterator[Record],
    to_record: Callable[[Record, Skips], memory_service_pb2.ExportedMemory | None],
    skips: Skips,
) -> Iterator[memory_service_pb2.ExportedMemory]:
    """The points mapped one by one; the ones ``to_record`` skips are reported at the end."""
    for point in points:
        record = to_record(point, skips)
        if record is not None:
            yield record
    skips.report()
