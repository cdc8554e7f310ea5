"""Read-your-writes bookkeeping: the last acknowledged write of each scope.

A read waits until the index has applied the writes acknowledged in its
scope (``pending_seq``). The same record gives each scope a ``version`` that
changes whenever a write reaches the scope, which is what lets Preload answer
"not modified" without searching.

A forget of shared memory reaches further than its scope's keys: without an
app_id it deletes the agent's memory in every app, which a reader of one app's
shared memory sees (and likewise without an agent_id). Such a forget also marks
a wildcard key, which the readers it reaches consult.
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

    def note(self, scope: Scope, seq: int, applied_seq: int, *, is_forget: bool = False) -> None:
        """Records a write acknowledged at ``seq`` (a forget, if ``is_forget``);
        ``applied_seq`` is the indexer's progress, below which entries may be
        forgotten."""
        for key in forget_keys(scope) if is_forget else scope_keys(scope):
            self._last_write[key] = max(seq, self._last_write.get(key, 0))
        if len(self._last_write) > _MAX_SCOPES:
            forgotten = [s for s in self._last_write.values() if s <= applied_seq]
            self._floor = max([self._floor, *forgotten])
            self._last_write = {k: s for k, s in self._last_write.items() if s > applied_seq}

    def pending_seq(self, scope: Scope) -> int:
        """The write a read of ``scope`` must wait for (0: none known)."""
        return max((self._last_write.get(key, 0) for key in read_keys(scope)), default=0)

    def version(self, scope: Scope) -> int:
        """A number that grows with every write acknowledged in ``scope``."""
        return max(
            (self._last_write.get(key, self._floor) for key in read_keys(scope)),
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


#: Marked by a forget of shared memory that names no app (no agent): it reaches
#: every app's (agent's) shared memory. No id holds \x1f, so no scope key is these.
_EVERY_APP, _EVERY_AGENT = "every-app\x1f", "every-agent\x1f"


def forget_keys(scope: Scope) -> list[str]:
    """The keys a forget in ``scope`` touches: the scope's, and a wildcard for
    an app_id or agent_id that shared memory leaves out (see the module doc)."""
    keys = scope_keys(scope)
    if not scope.user_id:
        keys += [_EVERY_APP] if not scope.app_id else []
        keys += [_EVERY_AGENT] if not scope.agent_id else []
    return keys


def read_keys(scope: Scope) -> list[str]:
    """The keys a read of ``scope`` consults: the scope's, and the wildcard of
    the forgets that reach it. A read naming an app but no agent sees every
    agent's memory in that app, so a forget of any agent's memory reaches it."""
    keys = scope_keys(scope)
    if not scope.user_id:
        keys += [_EVERY_APP] if scope.app_id and not scope.agent_id else []
        keys += [_EVERY_AGENT] if scope.agent_id and not scope.app_id else []
    return keys
