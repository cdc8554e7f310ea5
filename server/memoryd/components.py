"""The concrete components server.py wires: the embedder and the vector index a
configuration names. Also used to build another embedder's index (re-embedding).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memoryd.config import Settings
from memoryd.core.admin import DiskUsage
from memoryd.core.errors import InvalidArgument
from memoryd.core.indexer import Indexer
from memoryd.core.ports import Embedder, IndexSpec, VectorIndex
from memoryd.core.reembed import AfterPage, Reembedder
from memoryd.core.reembed_progress import ReembedTargets
from memoryd.core.switching import SwitchingIndex
from memoryd.core.write_log import WriteLog
from memoryd.embed.batching import MicroBatchingEmbedder
from memoryd.embed.cache import CachedEmbedder
from memoryd.embed.traced import TracedEmbedder
from memoryd.telemetry import Telemetry

if TYPE_CHECKING:
    from qdrant_client import AsyncQdrantClient


def start_local_model(settings: Settings) -> Embedder:
    """The local model as MEMORYD_EMBED_* configure it, its files checked; its
    session starts loading at once, on the model's own thread."""
    from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder(
        intra_op_threads=settings.embed_threads,
        keep_spinning=settings.embed_keep_spinning,
        thread_niceness=settings.embed_thread_niceness,
    )


def make_embedder(
    settings: Settings,
    telemetry: Telemetry,
    gemini_transport: Any | None = None,
    local_model: Embedder | None = None,
) -> Embedder:
    """The embedder MEMORYD_EMBEDDER names, with batching, cache and tracing;
    ``gemini_transport`` (tests only: Seams) replaces Gemini's HTTP transport,
    ``local_model`` is the local model if start_local_model() started it already."""
    provider: Embedder
    if settings.embedder == "gemini":
        from google.genai import types

        from memoryd.embed.gemini import BATCH_SIZE, GeminiEmbedder

        if settings.gemini_api_key is None:
            raise ValueError("MEMORYD_GEMINI_API_KEY is required with MEMORYD_EMBEDDER=gemini")
        provider = GeminiEmbedder(
            api_key=settings.gemini_api_key.get_secret_value(),
            model=settings.gemini_model,
            dimension=settings.gemini_dimension,
            http_options=types.HttpOptions(
                timeout=int(settings.gemini_timeout_seconds * 1000),
                async_client_args=None
                if gemini_transport is None
                else {"transport": gemini_transport},
            ),
        )
    else:
        from memoryd.embed.onnx_local import BATCH_SIZE

        provider = local_model or start_local_model(settings)
    batch = settings.embed_batch_size or BATCH_SIZE
    embedder: Embedder = MicroBatchingEmbedder(provider, max_batch=batch)
    cache = None
    if settings.embed_cache_size:
        embedder = cache = CachedEmbedder(embedder, capacity=settings.embed_cache_size)
    return TracedEmbedder(embedder, telemetry, cache) if telemetry.enabled else embedder


async def open_index(
    settings: Settings, spec: IndexSpec, qdrant_client: Callable[[Settings], AsyncQdrantClient]
) -> VectorIndex:
    if settings.backend == "qdrant":
        from memoryd.store.remote import RemoteIndex

        client = qdrant_client(settings)
        try:
            return await RemoteIndex.open(client, settings.qdrant_collection, spec)
        except BaseException:
            await client.close()
            raise
    from memoryd.store.edge import EdgeIndex

    return EdgeIndex.open(settings.data_dir, spec)


def connect_qdrant(settings: Settings) -> AsyncQdrantClient:
    from memoryd.store.remote import connect

    if not settings.qdrant_url:
        raise ValueError("MEMORYD_QDRANT_URL is required with MEMORYD_BACKEND=qdrant")
    api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
    try:
        return connect(settings.qdrant_url, api_key, prefer_grpc=settings.qdrant_prefer_grpc)
    except ValueError as error:
        raise ValueError(
            f"MEMORYD_QDRANT_URL {settings.qdrant_url!r} is not the URL of a Qdrant server, "
            f"such as http://qdrant:6333: {error}"
        ) from error


def disk_usage(settings: Settings, journal_path: Path) -> DiskUsage:
    """Measures the index (Edge's shard directories; 0 for a Qdrant server) and
    the journal (its file and write-ahead log)."""

    def index_bytes() -> int:
        if settings.backend == "qdrant":
            return 0
        shards = settings.data_dir.glob("shard*")
        return sum(_tree_bytes(shard) for shard in shards if shard.is_dir())

    def journal_bytes() -> int:
        files = (journal_path, journal_path.with_name(journal_path.name + "-wal"))
        return sum(_tree_bytes(f) for f in files)

    return DiskUsage(index_bytes, journal_bytes)


def _tree_bytes(path: Path) -> int:
    """Bytes of a file, or of every file under a directory; 0 if it is gone."""
    try:
        if path.is_file():
            return path.stat().st_size
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    except FileNotFoundError:  # deleted while measured (a shard being dropped)
        return 0


class EdgeReembedTargets:
    """core.reembed_progress.ReembedTargets for the Edge backend: new shards
    beside the active one in MEMORYD_DATA_DIR (store/edge_shards.py), embedders
    from this server's settings. ``wrap`` wraps a new engine as the active one
    is wrapped (tracing, test seams)."""

    def __init__(
        self,
        settings: Settings,
        telemetry: Telemetry,
        wrap: Callable[[VectorIndex], VectorIndex],
        gemini_transport: Any | None = None,
    ) -> None:
        self._settings = settings
        self._telemetry = telemetry
        self._wrap = wrap
        self._gemini_transport = gemini_transport

    def embedder(self, target: str) -> Embedder:
        if self._settings.backend != "edge":
            raise InvalidArgument(
                "embedder",
                "re-embedding runs on the edge backend only; with a Qdrant server, start a "
                "server with the new embedder on a new collection (MEMORYD_QDRANT_COLLECTION) "
                "and import an export into it",
            )
        kind, _, model = target.partition(":")
        update: dict[str, Any] = {"embedder": kind}
        if kind not in ("local", "gemini") or (kind == "local" and model):
            raise InvalidArgument(
                "embedder",
                f"unknown embedder {target!r}: use 'local', 'gemini' or 'gemini:<model>'",
            )
        if model:
            update["gemini_model"] = model
        if kind == "gemini" and self._settings.gemini_api_key is None:
            raise InvalidArgument(
                "embedder", "'gemini' needs the server setting MEMORYD_GEMINI_API_KEY"
            )
        settings = self._settings.model_copy(update=update)
        return make_embedder(settings, self._telemetry, self._gemini_transport)

    async def open_index(self, name: str | None, embedder: Embedder) -> tuple[str, VectorIndex]:
        from memoryd.store.edge import EdgeIndex
        from memoryd.store.edge_shards import new_shard_name

        name = name or new_shard_name()
        spec = IndexSpec(embedder_id=embedder.model_id, dimension=embedder.dimension)
        engine = await asyncio.to_thread(EdgeIndex.open_beside, self._settings.data_dir, name, spec)
        return name, self._wrap(engine)

    async def activate(self, name: str, embedder: Embedder) -> str:
        from memoryd.store.edge_shards import activate

        spec = IndexSpec(embedder_id=embedder.model_id, dimension=embedder.dimension)
        return await asyncio.to_thread(activate, self._settings.data_dir, name, spec)

    async def drop(self, name: str) -> None:
        from memoryd.store.edge_shards import drop

        await asyncio.to_thread(drop, self._settings.data_dir, name)


def make_reembedder(
    settings: Settings,
    index: SwitchingIndex,
    journal: WriteLog,
    indexer: Indexer,
    targets: ReembedTargets,
    after_page: AfterPage | None = None,
) -> Reembedder:
    """The re-embedding job of ``index``, its progress in MEMORYD_DATA_DIR/reembed.json."""
    from memoryd.store.json_file import JsonFile

    return Reembedder(
        index,
        journal,
        indexer,
        targets,
        JsonFile(settings.data_dir / "reembed.json"),
        page_size=settings.reembed_page_size,
        after_page=after_page,
    )
