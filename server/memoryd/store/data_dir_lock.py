"""One memoryd process per data directory, locked before anything in it is opened.

Qdrant Edge locks its shard too, but only once it has opened the shard's files:
a second process refused that way had already rewritten a file of the running
server's sparse vector storage, whose next flush then failed for good ("tracker
journal is shorter than expected"). Two processes must not share a write
journal either, on any backend. The lock is the operating system's (flock): it
goes with the process, also when the process is killed.
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import IO

from memoryd.core.errors import IncompatibleIndex

LOCK_FILE = "memoryd.lock"


class DataDirInUse(IncompatibleIndex):
    """Another process owns the data directory."""


class DataDirLock:
    """The lock on a data directory, held until ``release``."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file

    @classmethod
    def acquire(cls, data_dir: Path) -> DataDirLock:
        """Locks ``data_dir`` (creating it); raises DataDirInUse if another process holds it."""
        data_dir.mkdir(parents=True, exist_ok=True)
        file = (data_dir / LOCK_FILE).open("a")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.close()
            raise DataDirInUse(
                f"{data_dir} is in use by another memoryd process; stop it or use another "
                "data directory (MEMORYD_DATA_DIR)"
            ) from None
        return cls(file)

    def release(self) -> None:
        self._file.close()  # closing the file releases its lock
