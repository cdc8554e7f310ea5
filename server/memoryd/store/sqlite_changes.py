"""The change history in the journal's SQLite database (core/changes.py).

Plain functions on the journal's connection, called on its one thread inside
its transactions: a write's changes commit together with its final state.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace

from memoryd.core.changes import Change, change_from_json, change_to_json
from memoryd.core.write_log import ChangeBounds

SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  document TEXT NOT NULL,
  record_time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_by_time ON changes (record_time);
"""


def insert(db: sqlite3.Connection, changes: Sequence[Change], now: float) -> list[Change]:
    """Records changes (inside the caller's transaction); returns them numbered."""
    numbered = []
    for change in changes:
        cursor = db.execute(
            "INSERT INTO changes (document, record_time) VALUES (?, ?)",
            (json.dumps(change_to_json(change)), now),
        )
        numbered.append(replace(change, seq=int(cursor.lastrowid or 0)))
    return numbered


def after(db: sqlite3.Connection, seq: int, limit: int) -> list[Change]:
    rows = db.execute(
        "SELECT seq, document FROM changes WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit)
    ).fetchall()
    return [change_from_json(row_seq, json.loads(document)) for row_seq, document in rows]


def bounds(db: sqlite3.Connection) -> ChangeBounds:
    """The kept range. The last sequence survives the purge of its change
    (sqlite_sequence), so a watcher's position never looks like one from the future."""
    oldest, newest = db.execute("SELECT MIN(seq), MAX(seq) FROM changes").fetchone()
    row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'changes'").fetchone()
    last = max(int(row[0]) if row else 0, int(newest or 0))
    return ChangeBounds(oldest_resumable=int(oldest) - 1 if oldest else last, last=last)


def purge(db: sqlite3.Connection, cutoff: float) -> None:
    """Deletes the changes recorded at or before ``cutoff`` (inside the caller's
    transaction), but none after the index checkpoint: a restart may need them."""
    db.execute(f"DELETE FROM changes WHERE record_time <= ? AND seq <= ({_CHECKPOINT})", (cutoff,))


_CHECKPOINT = "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'index_checkpoint'"


def start_checkpoint(db: sqlite3.Connection) -> None:
    """A log from before checkpoints starts at its last change: its server
    flushed the index only at a clean stop, which a kill -9 does not undo."""
    db.execute(
        "INSERT OR IGNORE INTO meta VALUES "
        "('index_checkpoint', (SELECT COALESCE(MAX(seq), 0) FROM changes))"
    )


def checkpoint(db: sqlite3.Connection) -> int:
    return int(db.execute(_CHECKPOINT).fetchone()[0])


def set_checkpoint(db: sqlite3.Connection, change_seq: int) -> None:
    db.execute("UPDATE meta SET value = ? WHERE key = 'index_checkpoint'", (str(change_seq),))
