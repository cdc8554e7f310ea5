"""What the journal keeps of an applied import: its records without their
vectors, which the index holds from then on. A 1M import with vectors otherwise
kept about 3 GB of journal for the request id retention (a day)."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

from memoryd.config import Settings
from memoryd.core.model import OperationKind
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient

from support import InProcessServer
from support.process import START_TIMEOUT

DIMENSION = 384


def _vector(i: int) -> list[float]:
    raw = [math.sin(i + 1.0 + k) for k in range(DIMENSION)]
    norm = math.sqrt(sum(x * x for x in raw))
    return [x / norm for x in raw]


def test_an_applied_import_keeps_its_records_in_the_journal_without_their_vectors(
    tmp_path: Path,
) -> None:
    server = InProcessServer(Settings(data_dir=tmp_path, port=0)).start()
    app = server.app
    assert app is not None
    client = MemorydClient(server.address)
    try:
        embedder_id = client.get_stats().embedder_id
        sent = {f"imported-{i}": _vector(i) for i in range(6)}
        records = [
            svc.ExportedMemory(
                memory=pb.Memory(id=id_, content=f"Fact {id_}", scope=pb.Scope(user_id="u")),
                vector=vector,
                embedder_id=embedder_id,
            )
            for id_, vector in sent.items()
        ]
        answer = client.import_memories(iter(records), batch_size=2)
        assert (answer.created_count, answer.embedded_count) == (6, 0)

        async def journaled() -> list[dict]:
            last = await app.journal.last_seq()
            entries = [await app.journal.get(seq) for seq in range(1, last + 1)]
            return [e.operation for e in entries if e and e.kind is OperationKind.IMPORT]

        operations = asyncio.run_coroutine_threadsafe(journaled(), server.loop).result(
            START_TIMEOUT
        )
        assert len(operations) == 3  # one entry per message
        items = [item for operation in operations for item in operation["items"]]
        assert sorted(item["memory"]["id"] for item in items) == sorted(sent)
        assert all(item["vector"] is None for item in items)

        # The index kept every vector as it was sent.
        request = svc.ExportMemoriesRequest(scope=pb.Scope(user_id="u"))
        exported = [r for r in client.export_memories(request) if isinstance(r, svc.ExportedMemory)]
        kept = {r.memory.id: list(r.vector) for r in exported}
        assert kept.keys() == sent.keys()
        for id_, vector in sent.items():
            assert max(abs(a - b) for a, b in zip(kept[id_], vector, strict=True)) < 1e-6
    finally:
        client.close()
        server.stop()
