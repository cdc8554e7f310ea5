"""The journal's tables in SQLite (store/sqlite_journal.py): its entries and request ids."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  operation TEXT NOT NULL,
  state TEXT NOT NULL,
  outcome TEXT,
  create_time REAL NOT NULL,
  apply_time REAL,
  trace_context TEXT
);
CREATE INDEX IF NOT EXISTS entries_pending ON entries (state, seq);
-- The purge finds finished entries by time here, and their request ids by seq
-- below, never by reading rows: an entry's operation can be megabytes (an import
-- message with vectors) and sits before state and apply_time in the row.
CREATE INDEX IF NOT EXISTS entries_finished ON entries (apply_time);
CREATE TABLE IF NOT EXISTS requests (
  request_id TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  seq INTEGER NOT NULL,
  create_time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS requests_by_seq ON requests (seq);
"""
