"""The Qdrant Edge shards of a data directory, and which one is active.

A data directory holds one active shard, named in its manifest
(``index.json``: the embedder and dimension it was built for, the schema,
and ``shard``, the directory name; "shard" when absent, as before
re-embedding existed). Re-embedding builds a second shard beside it, with a
manifest of its own (``<name>.json``), and switches by rewriting the data
directory's manifest, atomically; the old shard is then dropped.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from memoryd.core.errors import IncompatibleIndex
from memoryd.core.ports import IndexSpec
from memoryd.store.base import DENSE, payload_indexes
from memoryd.store.data_dir_lock import DataDirInUse
from memoryd.store.lexical import SPARSE, document_terms

logger = logging.getLogger(__name__)

MANIFEST = "index.json"
SCHEMA = 4
DEFAULT_SHARD = "shard"
_MIGRATION_PAGE = 1_000
SEARCH_THREADS = 1
_REEMBED_HINT = (
    "configure the embedder it was built with (after `memoryd reembed` switched it, the new "
    "one), or run `memoryd reembed --to <embedder>` against a server started with the "
    "original embedder to move the index to a new one"
)


def sparse(text: str) -> Any:
    return qe.SparseVector(*document_terms(text))


def active_shard(data_dir: Path) -> str:
    """The directory name of the shard the data directory's manifest names."""
    manifest = data_dir / MANIFEST
    if not manifest.exists():
        return DEFAULT_SHARD
    return str(json.loads(manifest.read_text()).get("shard", DEFAULT_SHARD))


def new_shard_name() -> str:
    return f"shard-{uuid.uuid4().hex[:12]}"


def open_shard(data_dir: Path, name: str, spec: IndexSpec) -> Any:
    """Opens (or creates) a shard beside the active one, built for ``spec``.

    Raises IncompatibleIndex if it exists built for another embedder."""
    _check_name(name)
    if name == active_shard(data_dir):
        raise ValueError(f"shard {name!r} is active; build the new one under another name")
    manifest = data_dir / f"{name}.json"
    if manifest.exists():
        check_manifest(manifest, spec)
        return load_shard(data_dir / name, spec)
    if (data_dir / name).exists():  # created, but its manifest was never written
        shutil.rmtree(data_dir / name)
    shard = create_shard(data_dir / name, spec)
    write_manifest(manifest, spec)
    return shard


def activate(data_dir: Path, name: str, spec: IndexSpec) -> str:
    """Makes shard ``name`` the one the server opens: the switch, durable once
    this returns. Returns the name of the shard it replaces."""
    previous = active_shard(data_dir)
    write_manifest(data_dir / MANIFEST, spec, shard=name)
    (data_dir / f"{name}.json").unlink(missing_ok=True)
    return previous


def drop(data_dir: Path, name: str) -> None:
    """Deletes a shard that is not active; gone already is fine."""
    _check_name(name)
    if name == active_shard(data_dir):
        raise ValueError(f"shard {name!r} is active; it cannot be dropped")
    shutil.rmtree(data_dir / name, ignore_errors=True)
    (data_dir / f"{name}.json").unlink(missing_ok=True)
    logger.info("dropped the Qdrant Edge shard %s", data_dir / name)


def _check_name(name: str) -> None:
    """A shard is a directory right in the data directory, named shard…"""
    if not name.startswith("shard") or "/" in name or "\\" in name or ".." in name:
        raise ValueError(f"{name!r} is not the name of a shard")


def shard_config(spec: IndexSpec) -> Any:
    """The vectors of schema 2 and up, and one search thread.

    One thread: Edge's default hands a query to a thread pool, and the hand-off
    waits for a core. Beside the embedding model, which takes both cores of a
    small machine, a user-filtered query at 100k points took 0.80 ms on average
    (p95 4.1 ms) against 0.15 ms (p95 0.21 ms) on one thread; idle, 0.28
    against 0.18 ms (bench/edge_search_threads.py).
    """
    return qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=spec.dimension, distance=qe.Distance.Cosine)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        max_search_threads=SEARCH_THREADS,
    )


def create_shard(shard_dir: Path, spec: IndexSpec) -> Any:
    shard = qe.EdgeShard.create(str(shard_dir), shard_config(spec))
    add_payload_indexes(shard)
    shard.flush()
    logger.info("created Qdrant Edge shard at %s (dimension %d)", shard_dir, spec.dimension)
    return shard


def load_shard(shard_dir: Path, spec: IndexSpec | None = None) -> Any:
    """Opens an existing shard; with ``spec`` (a shard of schema 2 and up) it
    takes shard_config's search threads too, which Edge checks against the
    shard's vectors and writes into it."""
    try:
        if spec is None:
            return qe.EdgeShard.load(str(shard_dir))
        return qe.EdgeShard.load(str(shard_dir), shard_config(spec))
    except Exception as exc:  # the binding raises plain exceptions; WouldBlock means locked
        if "WouldBlock" in str(exc) or "lock" in str(exc).lower():
            raise DataDirInUse(
                f"{shard_dir} is in use by another memoryd process; stop it or use another "
                "data directory (MEMORYD_DATA_DIR)"
            ) from exc
        raise


def add_payload_indexes(shard: Any) -> None:
    """Creates every payload index the shard lacks (schema 3 added expire_time's,
    which keeps the not-expired filter of every read as cheap as the scope's;
    schema 4 update_time's, which the recency weight reads)."""
    indexes: dict[str, qe.PayloadSchemaType | qe.KeywordIndexParams] = payload_indexes(
        qe.KeywordIndexParams(is_tenant=True),
        qe.PayloadSchemaType.Keyword,
        qe.PayloadSchemaType.Datetime,
    )
    present = shard.info().payload_schema
    for name, schema in indexes.items():
        if name not in present:
            shard.update(qe.UpdateOperation.create_field_index(name, schema))


def add_sparse_vectors(shard: Any) -> None:
    """Migrates a schema 1 shard: creates the BM25 vector and fills it from
    each point's content, a page at a time. Safe to run again if interrupted,
    since the manifest moves to schema 2 only afterwards."""
    info = shard.info()
    logger.info("migrating the index to schema %d: adding BM25 vectors", SCHEMA)
    try:
        shard.update(qe.UpdateOperation.create_sparse_vector(SPARSE, qe.Modifier.Idf))
    except Exception as exc:  # the binding raises plain exceptions; a rerun finds it created
        if "exist" not in str(exc).lower():
            raise
    offset = None
    migrated = 0
    while True:
        request = qe.ScrollRequest(
            offset=offset, limit=_MIGRATION_PAGE, with_payload=True, with_vector=False
        )
        records, offset = shard.scroll(request)
        if records:
            vectors = [
                qe.PointVectors(r.id, {SPARSE: sparse(str((r.payload or {}).get("content", "")))})
                for r in records
            ]
            shard.update(qe.UpdateOperation.update_vectors(vectors))
            migrated += len(records)
        if offset is None:
            break
    shard.flush()
    logger.info("migrated %d of %d points to schema %d", migrated, info.points_count, SCHEMA)


def check_manifest(manifest: Path, spec: IndexSpec) -> int:
    """Returns the stored schema; raises IncompatibleIndex on another embedder."""
    stored = json.loads(manifest.read_text())
    if (stored.get("embedder_id"), stored.get("dimension")) != (spec.embedder_id, spec.dimension):
        raise IncompatibleIndex(
            f"the index in {manifest.parent} was built with embedder "
            f"{stored.get('embedder_id')!r} (dimension {stored.get('dimension')}), but this "
            f"server is configured with {spec.embedder_id!r} (dimension {spec.dimension}); "
            f"{_REEMBED_HINT}"
        )
    schema = int(stored.get("schema", 1))
    if schema > SCHEMA:
        raise IncompatibleIndex(
            f"the index in {manifest.parent} has schema {schema}, newer than this server's "
            f"{SCHEMA}; upgrade memoryd"
        )
    return schema


def write_manifest(manifest: Path, spec: IndexSpec, *, shard: str | None = None) -> None:
    """Writes the manifest atomically; ``shard`` (a data directory's manifest
    only) names the active shard, which stays what it was when None."""
    body: dict[str, Any] = {
        "embedder_id": spec.embedder_id,
        "dimension": spec.dimension,
        "schema": SCHEMA,
    }
    if manifest.name == MANIFEST:
        body["shard"] = shard or active_shard(manifest.parent)
    tmp = manifest.with_suffix(".tmp")
    with tmp.open("w") as file:
        file.write(json.dumps(body, indent=2) + "\n")
        file.flush()
        os.fsync(file.fileno())
    tmp.replace(manifest)
