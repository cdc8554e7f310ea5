"""An IMPORT entry applied again after a crash (effect done, finish lost) reports the same."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memoryd.core import operations
from memoryd.core.applier import Applier
from memoryd.core.changes import ChangeType
from memoryd.core.importing import Importer
from memoryd.core.model import (
    ImportCounts,
    ImportedMemory,
    Memory,
    MemoryType,
    OperationKind,
    Scope,
    WriteState,
)
from memoryd.core.ports import IndexSpec
from memoryd.core.validation import Limits
from memoryd.core.write_log import Append
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.edge import EdgeIndex
from memoryd.store.sqlite_journal import SqliteJournal

SCOPE = Scope(user_id="u1")
EARLY = datetime(2020, 1, 1, tzinfo=UTC)


def _memory(
    memory_id: str,
    content: str,
    *,
    version: int = 1,
    memory_key: str = "",
    update_time: datetime = EARLY,
    expire_time: datetime | None = None,
) -> Memory:
    return Memory(
        id=memory_id,
        content=content,
        scope=SCOPE,
        memory_type=MemoryType.SEMANTIC,
        category="general",
        metadata={"n": 1},
        memory_key=memory_key,
        create_time=EARLY,
        update_time=update_time,
        version=version,
        expire_time=expire_time,
    )


def test_replayed_import_reports_the_same_counts_and_changes(tmp_path: Path) -> None:
    async def run() -> None:
        model = OnnxMiniLMEmbedder()
        index = EdgeIndex.open(tmp_path / "index", IndexSpec(model.model_id, model.dimension))
        journal = SqliteJournal.open(tmp_path / "journal.sqlite3")
        importer = Importer(Applier(index, limits=Limits(), dedup_threshold=0.95), journal)
        embed_calls: list[int] = []

        async def embed(texts: list[str]) -> list[list[float]]:
            embed_calls.append(len(texts))
            return [list(v) for v in await model.embed(texts)]

        async def journaled(items: list[ImportedMemory]) -> tuple[int, datetime]:
            document = operations.operation_to_json(operations.Import(tuple(items)))
            seq = (await journal.append(Append(OperationKind.IMPORT, document))).seq
            entry = await journal.get(seq)
            assert entry is not None
            return seq, entry.journaled_at

        try:
            first = [
                ImportedMemory(_memory("kept", "Owns a red bicycle")),
                ImportedMemory(_memory("old-tz", "Timezone is UTC-5", memory_key="tz")),
            ]
            seq, at = await journaled(first)
            counts, _ = await importer.apply(first, embed, seq, at)
            await journal.finish(seq, WriteState.APPLIED, operations.outcome_to_json(counts))

            later = EARLY + timedelta(days=1)
            second = [
                ImportedMemory(
                    _memory("kept", "Owns a blue bicycle", version=2, update_time=later)
                ),
                ImportedMemory(
                    _memory("new-tz", "Timezone is UTC+9", memory_key="tz", update_time=later)
                ),
                ImportedMemory(_memory("fresh", "Speaks Korean")),
                ImportedMemory(
                    _memory("gone", "Expired coupon", expire_time=EARLY + timedelta(days=2))
                ),
            ]
            seq, at = await journaled(second)
            embed_calls.clear()
            counts, changes = await importer.apply(second, embed, seq, at)
            # The process dies here: the effect is in the index, the finish is not.
            again, replayed = await importer.apply(second, embed, seq, at)
        finally:
            await journal.close()
            await index.close()
            await model.close()

        assert counts == again == ImportCounts(created=2, updated=1, unchanged=1, embedded=3)
        assert embed_calls == [3, 3]
        assert replayed == changes
        assert [(c.type, c.memory.id) for c in changes] == [
            (ChangeType.DELETED, "old-tz"),
            (ChangeType.UPDATED, "kept"),
            (ChangeType.CREATED, "new-tz"),
            (ChangeType.CREATED, "fresh"),
        ]

    asyncio.run(run())
