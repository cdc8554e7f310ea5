"""Write tokens and write statuses: how a journal entry is named and reported."""

from __future__ import annotations

from memoryd.core import operations
from memoryd.core.errors import InvalidArgument, UnknownWrite
from memoryd.core.model import WriteState, WriteStatus
from memoryd.core.write_log import Entry, wall_time

#: The largest journal seq: SQLite's INTEGER is a signed 64-bit number.
MAX_SEQ = 2**63 - 1


class WriteTokens:
    """Tokens of the form ``<journal id>-<seq>``: opaque to clients, and
    refused by any other journal (another data directory, another server)."""

    def __init__(self, journal_id: str) -> None:
        self.journal_id = journal_id

    def token(self, seq: int) -> str:
        return f"{self.journal_id}-{seq}"

    def seq_of(self, token: str, field: str, *, unknown_is_error: bool = False) -> int:
        """The entry a token names. Raises UnknownWrite (``unknown_is_error``)
        or InvalidArgument naming ``field`` for a token of another journal."""
        journal_id, _, number = token.rpartition("-")
        # ASCII digits only (str.isdigit also passes "²", which int() refuses), and
        # no larger than SQLite can hold, so no token reaches the journal as a
        # number it cannot take.
        is_seq = number.isascii() and number.isdigit() and len(number) <= len(str(MAX_SEQ))
        is_seq = is_seq and int(number) <= MAX_SEQ
        if journal_id != self.journal_id or not is_seq:
            if unknown_is_error:
                raise UnknownWrite(token)
            raise InvalidArgument(field, "is not a write_token this server issued")
        return int(number)


def status_of(entry: Entry, token: str) -> WriteStatus:
    """The reportable status of a journal entry: outcome once applied, error once failed."""
    state = entry.state
    outcome = error = None
    if state is WriteState.APPLIED and entry.outcome is not None:
        outcome = operations.outcome_from_json(entry.kind, entry.outcome)
    if state is WriteState.FAILED and entry.outcome is not None:
        error = operations.error_from_json(entry.outcome)
    return WriteStatus(
        token=token,
        kind=entry.kind,
        state=state,
        create_time=entry.journaled_at,
        apply_time=wall_time(entry.apply_time) if entry.apply_time else None,
        outcome=outcome,
        error=error,
    )
