"""Read-your-writes bookkeeping: the last acknowledged write of each scope.

A read waits until the index has applied the writes acknowledged in its
scope (``pending_seq``). The same record gives each scope a ``version`` that
changes whenever a write reaches the scope, which is what lets Preload answer
"not modified" without searching.
"""

from __future__ import annotations

from memoryd.core.model import Scope

#: Scopes remembered before the already-applied ones are forgotten.
_MAX_SCOPES = 10_000


class WriteTracker:
    """The journal sequence number of each scope's last acknowledged write."""

    def __init__(self) -> None:
        self._last_write: dict[str, int] = {}
        # Stands in for the writes of scopes not (or no longer) in _last_write:
        # the journal's end at start, raised when entries are forgotten. So a
        # scope's version never goes back, across restarts and forgetting alike.
        self._floor = 0

    def start(self, last_seq: int) -> None:
        """Called once the journal's last sequence number is known."""
        self._floor = max(self._floor, last_seq)

    def note(self, scope: Scope, seq: int, applied_seq: int) -> None:
        """Records a write acknowledged at ``seq``; ``applied_seq`` is the
        indexer's progress, below which entries may be forgotten."""
        for key in scope_keys(scope):
            self._last_write[key] = max(seq, self._last_write.get(key, 0))
        if len(self._last_write) > _MAX_SCOPES:
            forgotten = [s for s in self._last_write.values() if s <= applied_seq]
            self._floor = max([self._floor, *forgotten])
            self._last_write = {k: s for k, s in self._last_write.items() if s > applied_seq}

    def pending_seq(self, scope: Scope) -> int:
        """The write a read of ``scope`` must wait for (0: none known)."""
        return max((self._last_write.get(key, 0) for key in scope_keys(scope)), default=0)

    def version(self, scope: Scope) -> int:
        """A number that grows with every write acknowledged in ``scope``."""
        return max(
            (self._last_write.get(key, self._floor) for key in scope_keys(scope)),
            default=self._floor,
        )


def scope_keys(scope: Scope) -> list[str]:
    """The keys a write to, or read of, ``scope`` touches: the user, or the
    agent and the app whose shared memory it is."""
    if scope.user_id:
        return [f"user\x1f{scope.user_id}"]
    return [
        f"{name}\x1f{value}"
        for name, value in (("agent", scope.agent_id), ("app", scope.app_id))
        if value
    ]
