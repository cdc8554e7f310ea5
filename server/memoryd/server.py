"""Wiring: builds the object graph from settings, binds the gRPC server, runs it.

The only module that picks concrete backends and embedders.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from memoryd.api import observability
from memoryd.api.abuse import Audit, RateLimit, RejectUndecodable, transport_message_limit
from memoryd.api.auth import Authentication
from memoryd.api.servicer import MemoryServicer
from memoryd.components import (
    EdgeReembedTargets,
    connect_qdrant,
    disk_usage,
    make_embedder,
    make_reembedder,
    open_index,
)
from memoryd.config import Settings
from memoryd.core.admin import Admin
from memoryd.core.applier import Applier
from memoryd.core.feed import ChangeFeed
from memoryd.core.indexer import Indexer
from memoryd.core.memories import Memories
from memoryd.core.model import RetrievalMode
from memoryd.core.ports import Embedder, IndexSpec, VectorIndex
from memoryd.core.preload import Preloader
from memoryd.core.ratelimit import RateLimiter
from memoryd.core.reembed import AfterPage
from memoryd.core.switching import SwitchingEmbedder, SwitchingIndex
from memoryd.core.transfers import Transfers
from memoryd.embed.tokens import WordPieceTokenCounter
from memoryd.security import authenticator, is_loopback, server_credentials
from memoryd.stop_signals import ignore_stop_signals, on_stop_signal
from memoryd.store.data_dir_lock import DataDirLock
from memoryd.store.sqlite_journal import SqliteJournal
from memoryd.store.traced import TracedIndex
from memoryd.telemetry import Telemetry, setup
from memoryd.v1 import memory_service_pb2, memory_service_pb2_grpc

if TYPE_CHECKING:
    from qdrant_client import AsyncQdrantClient

logger = logging.getLogger(__name__)
SERVICE_NAME = memory_service_pb2.DESCRIPTOR.services_by_name["MemoryService"].full_name


@dataclass
class App:
    """The running object graph; closed in reverse order of construction."""

    embedder: Embedder
    index: VectorIndex
    journal: SqliteJournal
    memories: Memories
    preloader: Preloader
    telemetry: Telemetry
    transfers: Transfers
    feed: ChangeFeed
    admin: Admin
    data_dir_lock: DataDirLock

    async def close(self, drain_seconds: float = 0.0) -> None:
        """Stops the indexer (after draining at most ``drain_seconds``), then
        closes the journal, the index and the embedder."""
        self.feed.close()
        await self.admin.close()
        drained = await self.memories.stop(drain_seconds)
        if not drained:
            logger.warning("stopping with journaled writes not yet indexed; they replay on start")
        await self.journal.close()
        await self.index.close()
        await self.embedder.close()
        self.data_dir_lock.release()


@dataclass(frozen=True, slots=True)
class Seams:
    """Components a caller of build() may replace or wrap; no setting reaches them.

    Only code that builds a server itself passes them (the tests' own entry
    point, tests/support/serve.py: a stand-in for a Qdrant server, a slowed
    index), so no configuration of ``memoryd serve`` can turn them on.
    """

    #: Makes the Qdrant server backend's client; default: connect to MEMORYD_QDRANT_URL.
    qdrant_client: Callable[[Settings], AsyncQdrantClient] | None = None
    #: Wraps the engine (inside the tracing wrapper); closing the result closes the engine.
    wrap_index: Callable[[VectorIndex], VectorIndex] | None = None
    #: Replaces Gemini's HTTP transport (an httpx2 transport: a fake Gemini API).
    gemini_transport: Any | None = None
    #: Awaited after each page a re-embedding saves (the job waits meanwhile).
    reembed_after_page: AfterPage | None = None


async def build(
    settings: Settings,
    telemetry: Telemetry | None = None,
    seams: Seams | None = None,
    local_model: Embedder | None = None,
) -> App:
    """The object graph for ``settings``; ``telemetry`` defaults to none (no-op),
    ``seams`` to the production components, ``local_model`` to one started here."""
    data_dir_lock = DataDirLock.acquire(settings.data_dir)  # before anything in it opens
    telemetry = telemetry or Telemetry(record_content=settings.telemetry_record_content)
    seams = seams or Seams()
    provider = make_embedder(settings, telemetry, seams.gemini_transport, local_model)
    embedder = SwitchingEmbedder(provider)
    spec = IndexSpec(embedder_id=embedder.model_id, dimension=embedder.dimension)
    try:
        engine = await open_index(settings, spec, seams.qdrant_client or connect_qdrant)
    except BaseException:
        await embedder.close()
        data_dir_lock.release()
        raise
    collection = settings.qdrant_collection if settings.backend == "qdrant" else "edge"

    def wrap(engine: VectorIndex) -> VectorIndex:
        if seams.wrap_index is not None:
            engine = seams.wrap_index(engine)
        return TracedIndex(engine, telemetry, collection) if telemetry.enabled else engine

    # Re-embedding swaps what these two wrap (core/switching.py).
    index = SwitchingIndex(wrap(engine), embedder)
    journal = SqliteJournal.open(
        settings.data_dir / "journal.sqlite3",
        retention_seconds=settings.request_id_retention_seconds,
    )
    limits = settings.limits()
    applier = Applier(
        index,
        limits=limits,
        dedup_threshold=settings.dedup_threshold,
        telemetry=telemetry,
        journal_id=journal.journal_id,
    )
    indexer = Indexer(journal, applier, embedder, settings.indexer_settings(), telemetry)
    telemetry.observe_backlog(lambda: indexer.backlog)
    # One tokenizer for every budget, so Search and Preload count alike.
    tokens = WordPieceTokenCounter()
    memories = Memories(
        index,
        embedder,
        journal,
        indexer,
        applier,
        limits=limits,
        policy=settings.write_policy(),
        tokens=tokens,
        default_mode=RetrievalMode(settings.default_retrieval_mode),
        default_recency_half_life=timedelta(seconds=settings.recency_half_life_seconds),
        telemetry=telemetry,
        expiry_purge_interval_seconds=settings.expiry_purge_interval_seconds,
    )
    await memories.start()
    preloader = Preloader(memories.retrieval, memories.barrier, tokens, telemetry=telemetry)
    transfers = Transfers(
        index,
        journal,
        indexer,
        memories.barrier,
        memories.writes,
        embedder,
        limits=limits,
        read_wait_max_seconds=settings.read_wait_max_seconds,
        spool_dir=settings.data_dir,
    )
    feed = ChangeFeed(journal, indexer, buffer_events=settings.watch_buffer_events)
    targets = EdgeReembedTargets(settings, telemetry, wrap, seams.gemini_transport)
    job = make_reembedder(settings, index, journal, indexer, targets, seams.reembed_after_page)
    admin = Admin(
        index,
        embedder,
        journal,
        indexer,
        backend=settings.backend,
        disk=disk_usage(settings, settings.data_dir / "journal.sqlite3"),
        reembedding=job,
    )
    await admin.resume()
    parts = (embedder, index, journal, memories, preloader, telemetry, transfers, feed, admin)
    return App(*parts, data_dir_lock)


async def create_server(
    settings: Settings, app: App, health_servicer: health.aio.HealthServicer | None = None
) -> tuple[grpc.aio.Server, int]:
    """A server with MemoryService, health and reflection, bound but not started.

    Returns the server and the port it bound (settings.port 0 picks one). Pass
    ``health_servicer`` to change the health status later, as serve() does on shutdown.
    """
    options = [
        # Above the limit, so that RejectUndecodable answers an oversized request
        # with INVALID_ARGUMENT naming the limit, not gRPC with RESOURCE_EXHAUSTED.
        ("grpc.max_receive_message_length", transport_message_limit(settings.max_message_bytes)),
        ("grpc.max_send_message_length", settings.max_message_bytes),
    ]
    # Telemetry first, so rejected calls are traced too; then whether the request fits
    # and parses, who is calling, whether they may call this often, the audit line of
    # what they did: all but the span in one pass. A feature that is off adds nothing.
    limiter = RateLimiter(settings.rate_limit_per_second, settings.rate_limit_burst)
    interceptors = observability.interceptors(
        app.telemetry,
        RejectUndecodable(settings.max_message_bytes),
        Authentication(authenticator(settings)),
        *([RateLimit(limiter)] if limiter.is_enabled else []),
        Audit(),
    )
    server = grpc.aio.server(options=options, interceptors=interceptors)
    memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(
        MemoryServicer(
            app.memories.writes,
            app.memories.reads,
            app.preloader,
            transfers=app.transfers,
            feed=app.feed,
            admin=app.admin,
        ),
        server,
    )
    health_servicer = health_servicer or health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    health_name = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
    services = (SERVICE_NAME, health_name, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(services, server)
    address = f"{settings.host}:{settings.port}"
    credentials = server_credentials(settings)
    if credentials is None:
        port = server.add_insecure_port(address)
    else:
        port = server.add_secure_port(address, credentials)
    if port == 0:
        raise OSError(f"cannot listen on {settings.host}:{settings.port}")
    return server, port


async def serve(
    settings: Settings, seams: Seams | None = None, local_model: Embedder | None = None
) -> None:
    """Runs until SIGTERM or SIGINT, then lets RPCs in flight finish and closes.

    ``seams`` is for the tests' own entry point; ``memoryd serve`` passes none.
    """
    # Handlers first: a SIGTERM during start-up then stops the server cleanly
    # once it is up, instead of killing the process mid-open.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    on_stop_signal(loop, stop)
    telemetry = setup(settings.telemetry, settings.telemetry_record_content)
    if settings.auth_mode == "none" and not is_loopback(settings.host):
        logger.warning(
            "SECURITY WARNING: auth_mode is 'none' and memoryd listens on %s, which is not a "
            "loopback address: anyone who reaches it can read and write every user's memory. "
            "Set MEMORYD_AUTH_MODE to api_key, jwt or mtls.",
            settings.host,
        )
    app = await build(settings, telemetry, seams, local_model)
    health_servicer = health.aio.HealthServicer()
    server, port = await create_server(settings, app, health_servicer)
    await server.start()
    logger.info("memoryd listening on %s:%d (data dir %s)", settings.host, port, settings.data_dir)
    await stop.wait()
    logger.info(
        "shutting down: health NOT_SERVING, refusing writes, finishing RPCs in flight "
        "(grace %.1fs)",
        settings.shutdown_grace_seconds,
    )
    # First, so that load balancers and clients watching health stop sending
    # here while the RPCs already sent still finish.
    await health_servicer.enter_graceful_shutdown()
    if settings.shutdown_announce_seconds:
        # Balancers that poll Check (rather than Watch) need a window in which
        # they can still connect and see NOT_SERVING; stopping closes the port.
        # A second signal ends the window early.
        stop.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), settings.shutdown_announce_seconds)
    app.memories.refuse_writes()
    app.feed.close()  # watches never end by themselves: end them now, not after the grace
    await server.stop(settings.shutdown_grace_seconds)
    await app.close(settings.shutdown_drain_seconds)
    telemetry.shutdown()
    ignore_stop_signals(loop)
    logger.info("memoryd stopped")
