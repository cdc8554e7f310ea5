"""config.Settings: environment over TOML file over defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from memoryd.config import Settings


def test_defaults_are_the_embedded_setup(monkeypatch):
    for name in ("MEMORYD_PORT", "MEMORYD_BACKEND", "MEMORYD_EMBEDDER", "MEMORYD_CONFIG_FILE"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert (settings.host, settings.port) == ("127.0.0.1", 50051)
    assert settings.backend == "edge" and settings.embedder == "local"
    assert settings.dedup_threshold == 0.95
    assert settings.max_content_bytes == 32 * 1024


def test_toml_file_fills_in_and_environment_wins(tmp_path: Path, monkeypatch):
    config = tmp_path / "memoryd.toml"
    config.write_text('port = 6000\ndedup_threshold = 0.9\ndata_dir = "/srv/memoryd"\n')
    monkeypatch.setenv("MEMORYD_CONFIG_FILE", str(config))
    monkeypatch.setenv("MEMORYD_PORT", "7000")
    settings = Settings()
    assert settings.port == 7000
    assert settings.dedup_threshold == 0.9
    assert settings.data_dir == Path("/srv/memoryd")


def test_cli_style_overrides_win_over_everything(tmp_path: Path, monkeypatch):
    config = tmp_path / "memoryd.toml"
    config.write_text("port = 6000\n")
    monkeypatch.setenv("MEMORYD_PORT", "7000")
    assert Settings(config_file=config, port=8000).port == 8000


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("MEMORYD_DEDUP_THRESHOLD", "1.5"),
        ("MEMORYD_BACKEND", "redis"),
        ("MEMORYD_PORT", "-1"),
        # Negative needs privileges; Linux's nice values end at 19.
        ("MEMORYD_EMBED_THREAD_NICENESS", "-1"),
        ("MEMORYD_EMBED_THREAD_NICENESS", "20"),
    ],
)
def test_invalid_values_are_refused(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as info:
        Settings()
    assert name.removeprefix("MEMORYD_").lower() in str(info.value)


def test_unknown_keys_in_the_file_are_refused(tmp_path: Path):
    config = tmp_path / "memoryd.toml"
    config.write_text("prot = 6000\n")
    with pytest.raises(ValidationError, match="prot"):
        Settings(config_file=config)


def test_the_flush_settings_reach_the_indexer(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MEMORYD_INDEX_FLUSH_INTERVAL_SECONDS", "12.5")
    monkeypatch.setenv("MEMORYD_INDEX_FLUSH_MAX_CHANGES", "250")
    indexer = Settings().indexer_settings()
    assert (indexer.flush_interval_seconds, indexer.flush_max_changes) == (12.5, 250)
    monkeypatch.setenv("MEMORYD_INDEX_FLUSH_MAX_CHANGES", "0")
    with pytest.raises(ValidationError, match="index_flush_max_changes"):
        Settings()


def test_only_the_embedded_index_is_repaired_after_a_power_loss():
    """A Qdrant server keeps applied writes itself, and other servers may write
    the same collection: putting back this journal's older changes would undo theirs."""
    assert Settings(backend="edge").indexer_settings().redo_lost_writes
    remote = Settings(backend="qdrant", qdrant_url="http://qdrant:6333")
    assert not remote.indexer_settings().redo_lost_writes
    assert (
        Settings(backend="edge", qdrant_url="http://qdrant:6333")
        .indexer_settings()
        .redo_lost_writes
    )
