"""Domain errors.

MemorydError
  InvalidArgument(field, reason)     bad input; nothing was written
  MemoryNotFound(memory_id)          absent, or outside the caller's scope
  VersionConflict(expected, actual)  expected_version is stale
  IncompatibleIndex(reason)          the stored index was built for another embedder

Each class carries data, never transport codes: api/errors.py maps them.
"""

from __future__ import annotations


class MemorydError(Exception):
    """Base of every error memoryd raises on purpose."""


class InvalidArgument(MemorydError):
    """A request field is malformed or out of range; nothing was written.

    ``field`` names the field as the client sees it (``memory.content``).
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class MemoryNotFound(MemorydError):
    """No memory with this id exists in the caller's scope.

    Raised alike for a memory that never existed and for one owned by another
    scope, so that existence never leaks across scopes.
    """

    def __init__(self, memory_id: str) -> None:
        super().__init__(f"memory {memory_id!r} not found in this scope")
        self.memory_id = memory_id


class VersionConflict(MemorydError):
    """The caller's expected_version is not the memory's current version."""

    def __init__(self, memory_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"memory {memory_id!r} is at version {actual}, not the expected {expected}; "
            "read it again and retry"
        )
        self.memory_id = memory_id
        self.expected = expected
        self.actual = actual


class IncompatibleIndex(MemorydError):
    """The stored index cannot be served with the configured embedder."""
