"""Server settings: MEMORYD_* environment variables, then an optional TOML file, then defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


class Settings(BaseSettings):
    """Every setting, with its environment variable in the description.

    A TOML file given as ``config_file`` (MEMORYD_CONFIG_FILE, or --config)
    supplies values that the environment does not.
    """

    model_config = SettingsConfigDict(env_prefix="MEMORYD_", extra="forbid")

    config_file: Path | None = Field(None, description="MEMORYD_CONFIG_FILE: a TOML settings file.")
    host: str = Field("127.0.0.1", description="MEMORYD_HOST: address to listen on.")
    port: int = Field(50051, ge=0, le=65535, description="MEMORYD_PORT: 0 picks a free port.")
    data_dir: Path = Field(
        Path("./data"),
        description="MEMORYD_DATA_DIR: where the write journal and the embedded index live.",
    )
    backend: Literal["edge", "qdrant"] = Field(
        "edge", description="MEMORYD_BACKEND: 'edge' (embedded Qdrant) or 'qdrant' (a server)."
    )
    qdrant_url: str = Field("", description="MEMORYD_QDRANT_URL: Qdrant server or cluster URL.")
    qdrant_api_key: SecretStr | None = Field(None, description="MEMORYD_QDRANT_API_KEY.")
    qdrant_prefer_grpc: bool = Field(True, description="MEMORYD_QDRANT_PREFER_GRPC.")
    qdrant_collection: str = Field("memories", description="MEMORYD_QDRANT_COLLECTION.")
    embedder: Literal["local", "gemini"] = Field(
        "local", description="MEMORYD_EMBEDDER: 'local' (offline MiniLM ONNX) or 'gemini'."
    )
    gemini_api_key: SecretStr | None = Field(None, description="MEMORYD_GEMINI_API_KEY.")
    gemini_model: str = Field("gemini-embedding-001", description="MEMORYD_GEMINI_MODEL.")
    gemini_dimension: int = Field(768, gt=0, description="MEMORYD_GEMINI_DIMENSION.")
    gemini_timeout_seconds: float = Field(
        10.0, gt=0, description="MEMORYD_GEMINI_TIMEOUT_SECONDS: per embedding request."
    )
    embed_batch_size: int = Field(32, gt=0, description="MEMORYD_EMBED_BATCH_SIZE.")
    embed_cache_size: int = Field(10_000, ge=0, description="MEMORYD_EMBED_CACHE_SIZE (texts).")
    dedup_threshold: float = Field(
        0.95, ge=0, le=1, description="MEMORYD_DEDUP_THRESHOLD: similarity of a duplicate."
    )
    max_content_bytes: int = Field(32 * 1024, gt=0, description="MEMORYD_MAX_CONTENT_BYTES.")
    max_metadata_bytes: int = Field(16 * 1024, gt=0, description="MEMORYD_MAX_METADATA_BYTES.")
    max_batch_size: int = Field(100, gt=0, description="MEMORYD_MAX_BATCH_SIZE.")
    max_message_bytes: int = Field(
        8 * 1024 * 1024, gt=0, description="MEMORYD_MAX_MESSAGE_BYTES: gRPC message limit."
    )
    index_threads: int = Field(4, gt=0, description="MEMORYD_INDEX_THREADS: engine call threads.")
    max_write_backlog: int = Field(
        10_000,
        gt=0,
        description="MEMORYD_MAX_WRITE_BACKLOG: journaled writes waiting to be indexed before "
        "new writes get RESOURCE_EXHAUSTED.",
    )
    read_wait_max_seconds: float = Field(
        30.0,
        gt=0,
        description="MEMORYD_READ_WAIT_MAX_SECONDS: longest a read without a deadline waits for "
        "its scope's pending writes.",
    )
    request_id_retention_seconds: float = Field(
        24 * 3600.0,
        gt=0,
        description="MEMORYD_REQUEST_ID_RETENTION_SECONDS: how long a request_id is remembered.",
    )
    indexer_batch_entries: int = Field(
        32, gt=0, description="MEMORYD_INDEXER_BATCH_ENTRIES: writes embedded together."
    )
    indexer_max_attempts: int = Field(
        4, gt=0, description="MEMORYD_INDEXER_MAX_ATTEMPTS: tries before a write is marked failed."
    )
    indexer_apply_delay_seconds: float = Field(
        0.0,
        ge=0,
        description="MEMORYD_INDEXER_APPLY_DELAY_SECONDS: fault injection for tests; slows every "
        "write's indexing. Keep 0 in production.",
    )
    shutdown_drain_seconds: float = Field(
        10.0,
        ge=0,
        description="MEMORYD_SHUTDOWN_DRAIN_SECONDS: time to index the backlog on SIGTERM; the "
        "rest stays journaled for the next start.",
    )
    shutdown_grace_seconds: float = Field(
        10.0, ge=0, description="MEMORYD_SHUTDOWN_GRACE_SECONDS: time to finish RPCs on SIGTERM."
    )
    log_level: str = Field("INFO", description="MEMORYD_LOG_LEVEL.")
    telemetry: Literal["auto", "on", "off"] = Field(
        "auto",
        description="MEMORYD_TELEMETRY: OpenTelemetry traces and metrics over OTLP; 'auto' turns "
        "them on when OTEL_EXPORTER_OTLP_ENDPOINT is set. Exporters follow the OTEL_* variables.",
    )
    telemetry_record_content: bool = Field(
        False,
        description="MEMORYD_TELEMETRY_RECORD_CONTENT: put memory content and query text in span "
        "attributes, for debugging only (they are personal data).",
    )
    default_retrieval_mode: Literal["dense", "hybrid"] = Field(
        "dense",
        description="MEMORYD_DEFAULT_RETRIEVAL_MODE: how searches that name no retrieval_mode "
        "rank; dense won bench/recall.py's paraphrase set (hybrid: dense + BM25, fused by RRF).",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        config_file = _config_file(init_settings, env_settings)
        toml = (
            (TomlConfigSettingsSource(settings_cls, toml_file=config_file),) if config_file else ()
        )
        return (init_settings, env_settings, *toml)


def _config_file(*sources: PydanticBaseSettingsSource) -> Path | None:
    for source in sources:
        value = source().get("config_file")
        if value:
            return Path(value)
    return None
