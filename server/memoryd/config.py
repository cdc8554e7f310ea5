"""Server settings: MEMORYD_* environment variables, then an optional TOML file, then defaults."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from memoryd.core.indexer import IndexerSettings
from memoryd.core.model import WritePolicy
from memoryd.core.recency import DEFAULT_HALF_LIFE, MAX_HALF_LIFE
from memoryd.core.validation import Limits
from memoryd.core.write_log import DEFAULT_RETENTION_SECONDS

_SHA256_HEX = re.compile(r"[0-9a-fA-F]{64}")


class PrincipalSettings(BaseModel):
    """Who an API key or a client certificate is: an end user (``user_id``) or a
    service (``service``), with its grants (see core/policy.py)."""

    model_config = {"extra": "forbid"}

    user_id: str = ""
    service: str = ""
    scopes: list[str] = []

    @model_validator(mode="after")
    def _names_one(self) -> PrincipalSettings:
        if bool(self.user_id) == bool(self.service):
            raise ValueError("set exactly one of user_id and service")
        return self


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
    embed_batch_size: int | None = Field(
        None, gt=0, description="MEMORYD_EMBED_BATCH_SIZE: texts per call (local 16, Gemini 32)."
    )
    embed_threads: int = Field(
        0, ge=0, description="MEMORYD_EMBED_THREADS: the local model's threads; 0: one per core."
    )
    embed_keep_spinning: bool = Field(
        False, description="MEMORYD_EMBED_KEEP_SPINNING: model threads spin between calls."
    )
    embed_thread_niceness: int = Field(
        10, ge=0, le=19, description="MEMORYD_EMBED_THREAD_NICENESS: model threads yield (0: no)."
    )
    embed_cache_size: int = Field(10_000, ge=0, description="MEMORYD_EMBED_CACHE_SIZE (texts).")
    dedup_threshold: float = Field(
        0.95, ge=0, le=1, description="MEMORYD_DEDUP_THRESHOLD: similarity of a duplicate."
    )
    max_content_bytes: int = Field(32 * 1024, gt=0, description="MEMORYD_MAX_CONTENT_BYTES.")
    max_metadata_bytes: int = Field(16 * 1024, gt=0, description="MEMORYD_MAX_METADATA_BYTES.")
    max_batch_size: int = Field(100, gt=0, description="MEMORYD_MAX_BATCH_SIZE.")
    max_metadata_keys: int = Field(
        64, gt=0, description="MEMORYD_MAX_METADATA_KEYS: keys per memory, nested ones included."
    )
    max_search_limit: int = Field(
        100, gt=0, description="MEMORYD_MAX_SEARCH_LIMIT: results a search may ask for."
    )
    auth_mode: Literal["none", "api_key", "jwt", "mtls"] = Field(
        "none",
        description="MEMORYD_AUTH_MODE: 'none' (scopes come from requests; development only), "
        "'api_key', 'jwt' or 'mtls'.",
    )
    api_keys: dict[str, PrincipalSettings] = Field(
        default_factory=dict,
        description="MEMORYD_API_KEYS: SHA-256 (hex) of each API key -> its principal.",
    )
    jwt_secret: SecretStr | None = Field(None, description="MEMORYD_JWT_SECRET: HS256 secret.")
    jwt_public_key_file: Path | None = Field(
        None, description="MEMORYD_JWT_PUBLIC_KEY_FILE: PEM public key for RS256 tokens."
    )
    jwt_jwks_file: Path | None = Field(
        None, description="MEMORYD_JWT_JWKS_FILE: a local JWKS file of token keys."
    )
    jwt_algorithms: list[str] = Field(
        default_factory=list,
        description="MEMORYD_JWT_ALGORITHMS: accepted; default HS256 with a secret, else RS256.",
    )
    jwt_audience: str = Field("", description="MEMORYD_JWT_AUDIENCE: required 'aud', if set.")
    jwt_issuer: str = Field("", description="MEMORYD_JWT_ISSUER: required 'iss', if set.")
    mtls_principals: dict[str, PrincipalSettings] = Field(
        default_factory=dict,
        description="MEMORYD_MTLS_PRINCIPALS: client certificate SAN -> its principal (mtls).",
    )
    tls_cert_file: Path | None = Field(None, description="MEMORYD_TLS_CERT_FILE: PEM chain.")
    tls_key_file: Path | None = Field(None, description="MEMORYD_TLS_KEY_FILE: PEM key.")
    tls_client_ca_file: Path | None = Field(
        None, description="MEMORYD_TLS_CLIENT_CA_FILE: require client certificates from this CA."
    )
    rate_limit_per_second: float = Field(
        0.0, ge=0, description="MEMORYD_RATE_LIMIT_PER_SECOND: per principal; 0 turns it off."
    )
    rate_limit_burst: int = Field(
        50, gt=0, description="MEMORYD_RATE_LIMIT_BURST: requests a principal may send at once."
    )
    max_message_bytes: int = Field(
        8 * 1024 * 1024, gt=0, description="MEMORYD_MAX_MESSAGE_BYTES: gRPC message limit."
    )
    reembed_page_size: int = Field(
        256, gt=0, description="MEMORYD_REEMBED_PAGE_SIZE: memories re-embedded and saved at once."
    )
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
        DEFAULT_RETENTION_SECONDS,
        gt=0,
        description="MEMORYD_REQUEST_ID_RETENTION_SECONDS: how long a finished write's request_id "
        "and GetWriteStatus are remembered, counted from when it finished.",
    )
    indexer_batch_entries: int = Field(
        32, gt=0, description="MEMORYD_INDEXER_BATCH_ENTRIES: writes embedded together."
    )
    indexer_max_attempts: int = Field(
        4, gt=0, description="MEMORYD_INDEXER_MAX_ATTEMPTS: tries before a write is marked failed."
    )
    index_flush_interval_seconds: float = Field(
        30.0, ge=0, description="MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS: how often the index syncs."
    )
    index_flush_max_changes: int = Field(
        10_000, gt=0, description="MEMORYD_INDEX_FLUSH_MAX_CHANGES: it syncs sooner past these."
    )
    shutdown_drain_seconds: float = Field(
        10.0,
        ge=0,
        description="MEMORYD_SHUTDOWN_DRAIN_SECONDS: time to index the backlog on SIGTERM; the "
        "rest stays journaled for the next start.",
    )
    shutdown_announce_seconds: float = Field(
        0.0,
        ge=0,
        description="MEMORYD_SHUTDOWN_ANNOUNCE_SECONDS: on SIGTERM, how long health answers "
        "NOT_SERVING while RPCs are still accepted, for load balancers that poll Check.",
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
    watch_buffer_events: int = Field(
        1024,
        gt=0,
        description="MEMORYD_WATCH_BUFFER_EVENTS: changes queued for a WatchMemories stream "
        "that reads slowly; when they overflow, the stream ends with fell_behind.",
    )
    default_retrieval_mode: Literal["dense", "hybrid"] = Field(
        "hybrid", description="MEMORYD_DEFAULT_RETRIEVAL_MODE: for searches that name none."
    )
    recency_half_life_seconds: float = Field(
        DEFAULT_HALF_LIFE.total_seconds(),
        ge=0,
        le=MAX_HALF_LIFE.total_seconds(),
        description="MEMORYD_RECENCY_HALF_LIFE_SECONDS: searches that set no recency_half_life "
        "weight a memory by the age of its last update, from 1 down towards 0.5, halfway there "
        "after this long (default 30 days); 0 turns recency off.",
    )
    expiry_purge_interval_seconds: float = Field(
        60.0,
        ge=0,
        description="MEMORYD_EXPIRY_PURGE_INTERVAL_SECONDS: how often expired memories are "
        "deleted from the index (reads hide them at once); 0 turns the purge off.",
    )

    @model_validator(mode="after")
    def _auth_is_complete(self) -> Settings:
        if (self.tls_cert_file is None) != (self.tls_key_file is None):
            raise ValueError("set both MEMORYD_TLS_CERT_FILE and MEMORYD_TLS_KEY_FILE, or neither")
        if self.tls_client_ca_file is not None and self.tls_cert_file is None:
            raise ValueError("MEMORYD_TLS_CLIENT_CA_FILE needs MEMORYD_TLS_CERT_FILE")
        if self.auth_mode == "api_key" and not self.api_keys:
            raise ValueError("auth_mode 'api_key' needs MEMORYD_API_KEYS")
        for digest in self.api_keys:
            if not _SHA256_HEX.fullmatch(digest):
                raise ValueError(
                    "MEMORYD_API_KEYS are keyed by the SHA-256 of each key, in hex "
                    "(echo -n KEY | sha256sum), never by the key itself"
                )
        key_sources = [self.jwt_secret, self.jwt_public_key_file, self.jwt_jwks_file]
        if self.auth_mode == "jwt" and sum(k is not None for k in key_sources) != 1:
            raise ValueError(
                "auth_mode 'jwt' needs exactly one of MEMORYD_JWT_SECRET, "
                "MEMORYD_JWT_PUBLIC_KEY_FILE and MEMORYD_JWT_JWKS_FILE"
            )
        if self.auth_mode == "mtls" and (
            self.tls_client_ca_file is None or not self.mtls_principals
        ):
            raise ValueError(
                "auth_mode 'mtls' needs MEMORYD_TLS_CLIENT_CA_FILE and MEMORYD_MTLS_PRINCIPALS"
            )
        return self

    def limits(self) -> Limits:
        """What a request may carry, for core's validation."""
        return Limits(
            max_content_bytes=self.max_content_bytes,
            max_metadata_bytes=self.max_metadata_bytes,
            max_batch_size=self.max_batch_size,
            max_metadata_keys=self.max_metadata_keys,
            max_search_limit=self.max_search_limit,
            max_response_bytes=self.max_message_bytes,
        )

    def write_policy(self) -> WritePolicy:
        """Backpressure and read waits, for core's write and read paths."""
        return WritePolicy(
            max_backlog=self.max_write_backlog, read_wait_max_seconds=self.read_wait_max_seconds
        )

    def indexer_settings(self) -> IndexerSettings:
        return IndexerSettings(
            batch_entries=self.indexer_batch_entries,
            max_attempts=self.indexer_max_attempts,
            flush_interval_seconds=self.index_flush_interval_seconds,
            flush_max_changes=self.index_flush_max_changes,
            redo_lost_writes=self.backend == "edge",
            embed_ahead=self.embed_cache_size > 0,
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
