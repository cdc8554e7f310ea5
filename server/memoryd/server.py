"""Wiring: builds the object graph from settings, binds the gRPC server, runs it.

The only module that picks concrete backends and embedders.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from memoryd.api import observability
from memoryd.api.servicer import MemoryServicer
from memoryd.config import Settings
from memoryd.core.applier import Applier
from memoryd.core.indexer import Indexer, IndexerSettings
from memoryd.core.journal import Journal
from memoryd.core.memories import Memories, WritePolicy, utc_now
from memoryd.core.model import RetrievalMode
from memoryd.core.preload import Preloader
from memoryd.core.validation import Limits
from memoryd.embed.base import Embedder
from memoryd.embed.batching import MicroBatchingEmbedder
from memoryd.embed.cache import CachedEmbedder
from memoryd.embed.tokens import WordPieceTokenCounter
from memoryd.embed.traced import TracedEmbedder
from memoryd.store.base import IndexSpec, VectorIndex
from memoryd.store.traced import TracedIndex
from memoryd.telemetry import Telemetry, setup
from memoryd.v1 import memory_service_pb2, memory_service_pb2_grpc

logger = logging.getLogger(__name__)
SERVICE_NAME = memory_service_pb2.DESCRIPTOR.services_by_name["MemoryService"].full_name


@dataclass
class App:
    """The running object graph; closed in reverse order of construction."""

    embedder: Embedder
    index: VectorIndex
    journal: Journal
    memories: Memories
    preloader: Preloader
    telemetry: Telemetry

    async def close(self, drain_seconds: float = 0.0) -> None:
        """Stops the indexer (after draining at most ``drain_seconds``), then
        closes the journal, the index and the embedder."""
        drained = await self.memories.stop(drain_seconds)
        if not drained:
            logger.warning("stopping with journaled writes not yet indexed; they replay on start")
        await self.journal.close()
        await self.index.close()
        await self.embedder.close()


async def build(settings: Settings, telemetry: Telemetry | None = None) -> App:
    """The object graph for ``settings``; ``telemetry`` defaults to none (no-op)."""
    telemetry = telemetry or Telemetry(record_content=settings.telemetry_record_content)
    embedder = _embedder(settings, telemetry)
    spec = IndexSpec(embedder_id=embedder.model_id, dimension=embedder.dimension)
    try:
        engine = await _index(settings, spec)
    except BaseException:
        await embedder.close()
        raise
    collection = settings.qdrant_collection if settings.backend == "qdrant" else "edge"
    index = TracedIndex(engine, telemetry, collection) if telemetry.enabled else engine
    journal = Journal.open(settings.data_dir / "journal.sqlite3")
    limits = Limits(
        max_content_bytes=settings.max_content_bytes,
        max_metadata_bytes=settings.max_metadata_bytes,
        max_batch_size=settings.max_batch_size,
    )
    applier = Applier(
        index,
        limits=limits,
        dedup_threshold=settings.dedup_threshold,
        clock=utc_now,
        telemetry=telemetry,
    )
    indexer = Indexer(
        journal,
        applier,
        embedder,
        IndexerSettings(
            batch_entries=settings.indexer_batch_entries,
            max_attempts=settings.indexer_max_attempts,
            apply_delay=settings.indexer_apply_delay_seconds,
            retention_seconds=settings.request_id_retention_seconds,
        ),
        telemetry,
    )
    telemetry.observe_backlog(lambda: indexer.backlog)
    policy = WritePolicy(
        max_backlog=settings.max_write_backlog,
        read_wait_max_seconds=settings.read_wait_max_seconds,
        request_retention_seconds=settings.request_id_retention_seconds,
    )
    memories = Memories(
        index,
        embedder,
        journal,
        indexer,
        applier,
        limits=limits,
        policy=policy,
        default_mode=RetrievalMode(settings.default_retrieval_mode),
        telemetry=telemetry,
    )
    await memories.start()
    preloader = Preloader(memories, WordPieceTokenCounter(), telemetry=telemetry)
    return App(embedder, index, journal, memories, preloader, telemetry)


def _embedder(settings: Settings, telemetry: Telemetry) -> Embedder:
    provider: Embedder
    if settings.embedder == "gemini":
        from google.genai import types

        from memoryd.embed.gemini import GeminiEmbedder

        if settings.gemini_api_key is None:
            raise ValueError("MEMORYD_GEMINI_API_KEY is required with MEMORYD_EMBEDDER=gemini")
        provider = GeminiEmbedder(
            api_key=settings.gemini_api_key.get_secret_value(),
            model=settings.gemini_model,
            dimension=settings.gemini_dimension,
            http_options=types.HttpOptions(timeout=int(settings.gemini_timeout_seconds * 1000)),
        )
    else:
        from memoryd.embed.onnx_local import OnnxMiniLMEmbedder

        provider = OnnxMiniLMEmbedder()
    embedder: Embedder = MicroBatchingEmbedder(provider, max_batch=settings.embed_batch_size)
    cache = None
    if settings.embed_cache_size:
        embedder = cache = CachedEmbedder(embedder, capacity=settings.embed_cache_size)
    return TracedEmbedder(embedder, telemetry, cache) if telemetry.enabled else embedder


async def _index(settings: Settings, spec: IndexSpec) -> VectorIndex:
    if settings.backend == "qdrant":
        from memoryd.store.remote import RemoteIndex, connect

        if not settings.qdrant_url:
            raise ValueError("MEMORYD_QDRANT_URL is required with MEMORYD_BACKEND=qdrant")
        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        client = connect(settings.qdrant_url, api_key, prefer_grpc=settings.qdrant_prefer_grpc)
        try:
            return await RemoteIndex.open(client, settings.qdrant_collection, spec)
        except BaseException:
            await client.close()
            raise
    from memoryd.store.edge import EdgeIndex

    return EdgeIndex.open(settings.data_dir, spec, threads=settings.index_threads)


async def create_server(settings: Settings, app: App) -> tuple[grpc.aio.Server, int]:
    """A server with MemoryService, health and reflection, bound but not started.

    Returns the server and the port it bound (settings.port 0 picks one).
    """
    options = [
        ("grpc.max_receive_message_length", settings.max_message_bytes),
        ("grpc.max_send_message_length", settings.max_message_bytes),
    ]
    server = grpc.aio.server(
        options=options, interceptors=observability.interceptors(app.telemetry)
    )
    memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(
        MemoryServicer(app.memories, app.preloader), server
    )
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (
            SERVICE_NAME,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    port = server.add_insecure_port(f"{settings.host}:{settings.port}")
    if port == 0:
        raise OSError(f"cannot listen on {settings.host}:{settings.port}")
    return server, port


async def serve(settings: Settings) -> None:
    """Runs until SIGTERM or SIGINT, then lets RPCs in flight finish and closes."""
    telemetry = setup(settings.telemetry, settings.telemetry_record_content)
    app = await build(settings, telemetry)
    server, port = await create_server(settings, app)
    await server.start()
    logger.info("memoryd listening on %s:%d (data dir %s)", settings.host, port, settings.data_dir)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    logger.info(
        "shutting down: refusing writes, finishing RPCs in flight (grace %.1fs)",
        settings.shutdown_grace_seconds,
    )
    app.memories.refuse_writes()
    await server.stop(settings.shutdown_grace_seconds)
    await app.close(settings.shutdown_drain_seconds)
    telemetry.shutdown()
    logger.info("memoryd stopped")
