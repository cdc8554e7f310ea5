"""Read-your-writes: a read waits until the writes acknowledged in its scope are applied.

Writes note themselves here as they are acknowledged (``note``); every read,
SearchMemories, Get, List, Preload and a dry-run forget alike, calls
``wait_for_scope`` before it looks at the index. A caller's
``consistency_token`` (a write_token, possibly of another caller) adds that
write to the wait. The per-scope bookkeeping is core/freshness.py's.
"""

from __future__ import annotations

from memoryd.core import operations
from memoryd.core.errors import InvalidArgument, WriteNotApplied
from memoryd.core.freshness import WriteTracker
from memoryd.core.indexer import Indexer
from memoryd.core.model import Scope
from memoryd.core.write_tokens import WriteTokens

#: Seconds kept back from a caller's deadline to answer it ourselves (a read
#: naming the write it waited for, Preload's last events) before gRPC cancels
#: the call.
ANSWER_MARGIN_SECONDS = 0.05


class ReadBarrier:
    """Holds reads back until the writes they must see are applied.

    ``read_wait_max_seconds`` bounds a wait when the caller set no deadline.
    """

    def __init__(
        self, indexer: Indexer, tokens: WriteTokens, *, read_wait_max_seconds: float
    ) -> None:
        self._indexer = indexer
        self._tokens = tokens
        self._read_wait_max = read_wait_max_seconds
        self._writes = WriteTracker()

    @property
    def journal_id(self) -> str:
        """Identifies the journal whose writes reads wait for (and its tokens)."""
        return self._tokens.journal_id

    def start(self, last_seq: int) -> None:
        """Called once the journal's last sequence number is known."""
        self._writes.start(last_seq)

    def note(self, operation: operations.Operation, seq: int) -> None:
        """Records a write acknowledged at ``seq`` in the scopes it reaches."""
        is_forget = isinstance(operation, operations.Forget)
        for scope in operations.scopes_of(operation):
            self._writes.note(scope, seq, self._indexer.applied_seq, is_forget=is_forget)

    def scope_version(self, scope: Scope) -> int:
        """Grows with every write acknowledged in ``scope``; see core/freshness.py."""
        return self._writes.version(scope)

    def consistency_seq(self, consistency_token: str) -> int:
        """The journal seq a read's ``consistency_token`` asks it to wait for (0
        for none). Raises InvalidArgument for a token this server never issued."""
        if not consistency_token:
            return 0
        seq = self._tokens.seq_of(consistency_token, "consistency_token")
        # Past the journal's end, a token names no write: waiting would only
        # use up the caller's deadline.
        if seq > self._indexer.last_seq:
            raise InvalidArgument("consistency_token", "is not a write_token this server issued")
        return seq

    def is_current(self, scope: Scope, consistency_token: str) -> bool:
        """Whether a read of ``scope`` would not wait now: every write it must
        see is applied. Raises InvalidArgument for a bad token, as a wait would."""
        seq = max(self._writes.pending_seq(scope), self.consistency_seq(consistency_token))
        return seq <= self._indexer.applied_seq

    async def wait_for_scope(
        self, scope: Scope, consistency_token: str, wait: float | None
    ) -> None:
        """Returns once the writes acknowledged in ``scope`` (and the write of
        ``consistency_token``) are applied; raises WriteNotApplied after
        ``wait`` seconds (None: the policy's maximum)."""
        if self.is_current(scope, consistency_token):
            return
        seq = max(self._writes.pending_seq(scope), self.consistency_seq(consistency_token))
        timeout = self._read_wait_max if wait is None else max(0.0, wait)
        if not await self._indexer.wait_applied(seq, timeout):
            raise WriteNotApplied(self._tokens.token(seq))
