"""Write tokens and write statuses: how a journal entry is named and reported."""

from __future__ import annotations

from datetime import UTC, datetime

from memoryd.core import operations
from memoryd.core.errors import InvalidArgument, UnknownWrite
from memoryd.core.journal import Entry
from memoryd.core.model import WriteState, WriteStatus


class WriteTokens:
    """Tokens of the form ``<journal id>-<seq>``: opaque to clients, and
    refused by any other journal (another data directory, another server)."""

    def __init__(self, journal_id: str) -> None:
        self._journal_id = journal_id

    def token(self, seq: int) -> str:
        return f"{self._journal_id}-{seq}"

    def seq_of(self, token: str, field: str, *, unknown_is_error: bool = False) -> int:
        """The entry a token names. Raises UnknownWrite (``unknown_is_error``)
        or InvalidArgument naming ``field`` for a token of another journal."""
        journal_id, _, number = token.rpartition("-")
        if journal_id != self._journal_id or not number.isdigit():
            if unknown_is_error:
                raise UnknownWrite(token)
            raise InvalidArgument(field, "is not a write_token this server issued")
        return int(number)


def status_of(entry: Entry, token: str) -> WriteStatus:
    """The reportable status of a journal entry: outcome once applied, error once failed."""
    state = WriteState(entry.state)
    outcome = error = None
    if state is WriteState.APPLIED and entry.outcome is not None:
        outcome = operations.outcome_from_json(entry.kind, entry.outcome)
    if state is WriteState.FAILED and entry.outcome is not None:
        error = operations.error_from_json(entry.outcome)
    return WriteStatus(
        token=token,
        kind=entry.kind,
        state=state,
        create_time=datetime.fromtimestamp(entry.create_time, UTC),
        apply_time=datetime.fromtimestamp(entry.apply_time, UTC) if entry.apply_time else None,
        outcome=outcome,
        error=error,
    )
