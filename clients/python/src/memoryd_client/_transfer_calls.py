"""What the sync and async clients do around the operator streams, free of IO: the
consistent read of an export, and the batches of an import with their bookkeeping."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client._calls import ConsistentRead
from memoryd_client._in_flight import InFlightWrite
from memoryd_client._scope_keys import scope_keys
from memoryd_client.consistency import ScopeWrites
from memoryd_client.errors import MemorydError
from memoryd_client.transfers import ExportItem, export_items

#: The contract's bounds on records per ImportMemoriesRequest.
MIN_BATCH, MAX_BATCH = 1, 500

#: Serialized bytes per ImportMemoriesRequest before a batch is sent early, well
#: under the server's default 8 MiB message limit (contents are up to 32 KiB).
MAX_BATCH_BYTES = 4 * 1024 * 1024


class ExportRead(ConsistentRead[svc.ExportMemoriesRequest]):
    """An export: waits for this client's writes into its scope like any read, has a
    deadline only when the caller gave one, and retries only before the first item."""

    def __init__(
        self,
        request: svc.ExportMemoriesRequest,
        writes: ScopeWrites,
        budget: float,
        has_deadline: bool,
    ) -> None:
        super().__init__(request, writes, budget)
        self._has_deadline = has_deadline
        self._started = False

    def stream_timeout(self) -> float | None:
        """The deadline of the stream: what is left of the caller's, or None."""
        return self.time_left() if self._has_deadline else None

    def items(self, response: svc.ExportMemoriesResponse) -> list[ExportItem]:
        items = export_items(response)
        self._started = self._started or bool(items)
        return items

    def retry(self, error: MemorydError) -> svc.ExportMemoriesRequest:
        if self._started:
            raise error from None
        return super().retry(error)


def check_batch_size(batch_size: int) -> None:
    """Raises ValueError unless ``batch_size`` is within the contract's bounds."""
    if not MIN_BATCH <= batch_size <= MAX_BATCH:
        raise ValueError(
            f"batch_size is {batch_size}; use {MIN_BATCH} to {MAX_BATCH} records per message"
        )


class ImportBatches:
    """The records of an import as ImportMemoriesRequest messages.

    Each message holds up to ``batch_size`` records (fewer when they would pass
    MAX_BATCH_BYTES). Reads of a sent message's scopes wait for the import until
    ``finish``; its write_token then goes to those scopes.

    An exception raised by the records themselves (a source that cannot be read)
    ends the stream cleanly after the records before it, and is kept in
    ``source_error`` for the client to raise once the server has answered OK: gRPC
    would otherwise swallow it in the thread or task that sends the stream.
    """

    def __init__(self, writes: ScopeWrites, batch_size: int) -> None:
        check_batch_size(batch_size)
        self.source_error: Exception | None = None
        self._writes = writes
        self._batch_size = batch_size
        self._sent: list[InFlightWrite] = []
        self._batch = svc.ImportMemoriesRequest()
        self._batch_bytes = 0

    def add(self, record: svc.ExportedMemory) -> svc.ImportMemoriesRequest | None:
        """Adds a record; returns the message to send when a batch is full."""
        size = record.ByteSize()
        full = len(self._batch.memories) >= self._batch_size
        ready = None
        if self._batch.memories and (full or self._batch_bytes + size > MAX_BATCH_BYTES):
            ready = self.rest()
        self._batch.memories.append(record)
        self._batch_bytes += size
        return ready

    def rest(self) -> svc.ImportMemoriesRequest | None:
        """The last, partly filled message, if any records are left."""
        if not self._batch.memories:
            return None
        batch, self._batch, self._batch_bytes = self._batch, svc.ImportMemoriesRequest(), 0
        keys = frozenset(
            key for record in batch.memories for key in scope_keys(record.memory.scope)
        )
        self._sent.append(self._writes.begin(keys))
        return batch

    def requests(
        self, records: Iterable[svc.ExportedMemory]
    ) -> Iterator[svc.ImportMemoriesRequest]:
        """The messages of ``records``, for a blocking call."""
        source = iter(records)
        while True:
            try:
                record = next(source)
            except StopIteration:
                break
            except Exception as exc:  # the source's own failure; see the class docstring
                self.source_error = exc
                break
            ready = self.add(record)
            if ready is not None:
                yield ready
        last = self.rest()
        if last is not None:
            yield last

    def finish(self, write_token: str) -> None:
        """The call ended: with the import's write_token, or "" if it failed."""
        sent, self._sent = self._sent, []
        for write in sent:
            self._writes.finish(write, write_token)
