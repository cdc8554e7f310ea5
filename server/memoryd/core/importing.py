"""Imports: exported memories stored as they are, ids, keys, times and versions kept.

Applies one IMPORT journal entry (one ImportMemories request message). Per
record, in order:
- already expired when the write was journaled: left out (unchanged);
- the same memory (same owner, same id) stored at the same or a newer
  version: left as it is (unchanged), so an import run again writes nothing;
- another memory of the same (user_id, agent_id, app_id) holds the record's
  memory_key (keys are unique there, core/dedup.py): the one updated last
  keeps the key. A newer record replaces the holder, which is deleted (a
  DELETED change); an older one (or one updated at the same time) is left
  out (unchanged);
- otherwise stored (CREATED, or UPDATED over an older version), with its
  exported vector or, without one, embedded again (one model call for the
  entry). The near-duplicate rule of CreateMemory does not apply: an export
  is stored as it was.
What to do depends on what the index holds, so the plan is recorded in the
journal before any effect (as core/apply_entry.py does for deletes): a replay
after a crash carries out the same plan and reports the same counts and changes.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from memoryd.core import dedup, scoping
from memoryd.core.applier import Applier
from memoryd.core.apply_entry import Embed
from memoryd.core.changes import Change, ChangeType
from memoryd.core.documents import from_document, to_document
from memoryd.core.model import ImportCounts, ImportedMemory, Memory
from memoryd.core.ports import Point, Vector
from memoryd.core.stamps import stamp_fields
from memoryd.core.write_log import WriteLog

#: The key of the plan in an IMPORT entry's outcome until it is finished.
_PLAN = "import_plan"


class Action(enum.StrEnum):
    """What an import does with one record; the values are journaled."""

    CREATE = "create"
    UPDATE = "update"
    LEAVE = "leave"


class Importer:
    """Applies IMPORT entries through the applier's index."""

    def __init__(self, applier: Applier, journal: WriteLog) -> None:
        self._applier = applier
        self._index = applier.index
        self._journal = journal

    async def apply(
        self, items: Sequence[ImportedMemory], embed: Embed, seq: int, at: datetime
    ) -> tuple[ImportCounts, list[Change]]:
        """Stores the records of write ``seq`` (journaled ``at``); returns what
        it did and the changes it made. Raises what the index raises (the
        indexer retries); the plan survives a retry, so a retry does the same."""
        entry = await self._journal.get(seq)
        plan = entry.outcome if entry is not None and entry.outcome else None
        if plan is None or _PLAN not in plan:
            actions, displaced = await self._plan(items, at)
            plan = {
                _PLAN: [a.value for a in actions],
                "displaced": [to_document(m) for m in displaced],
            }
            await self._journal.record_outcome(seq, plan)
        return await self._carry_out(items, plan, embed, seq, at)

    async def _plan(
        self, items: Sequence[ImportedMemory], at: datetime
    ) -> tuple[list[Action], list[Memory]]:
        """What to do with each record, and the memories that lose their key to one."""
        point_ids = [scoping.point_id(i.memory.scope, i.memory.id) for i in items]
        stored = {r.id: from_document(r.payload) for r in await self._index.retrieve(point_ids)}
        actions: list[Action] = []
        displaced: list[Memory] = []
        for item, point_id in zip(items, point_ids, strict=True):
            memory = item.memory
            current = stored.get(point_id)
            if memory.expire_time is not None and memory.expire_time <= at:
                actions.append(Action.LEAVE)
            elif current is not None and current.version >= memory.version:
                actions.append(Action.LEAVE)
            else:
                holder = await self._key_holder(memory)
                if holder is not None and holder.update_time >= memory.update_time:
                    actions.append(Action.LEAVE)
                    continue
                if holder is not None:
                    displaced.append(holder)
                actions.append(Action.CREATE if current is None else Action.UPDATE)
        return actions, displaced

    async def _key_holder(self, memory: Memory) -> Memory | None:
        """Another memory with this memory's key in its (user_id, agent_id, app_id)."""
        if not memory.memory_key:
            return None
        # Request validation refuses two records with one key in one message,
        # and keys are unique in the index, so at most one other can hold it.
        page = await self._index.scroll_newest_first(
            dedup.same_key(memory.scope, memory.memory_key), 2, None
        )
        others = (from_document(r.payload) for r in page.records)
        return next((holder for holder in others if holder.id != memory.id), None)

    async def _carry_out(
        self,
        items: Sequence[ImportedMemory],
        plan: Mapping[str, Any],
        embed: Embed,
        seq: int,
        at: datetime,
    ) -> tuple[ImportCounts, list[Change]]:
        actions = [Action(a) for a in plan[_PLAN]]
        displaced = [from_document(d) for d in plan["displaced"]]
        stored = [
            (i, item)
            for i, (item, a) in enumerate(zip(items, actions, strict=True))
            if a is not Action.LEAVE
        ]
        to_embed = [item.memory.content for _, item in stored if item.vector is None]
        fresh = iter(await embed(to_embed) if to_embed else [])
        points = []
        for i, item in stored:
            vector: Vector = item.vector if item.vector is not None else next(fresh)
            # The replay stamp of core/applier.py: a later write to the point wins.
            document = to_document(item.memory) | stamp_fields(self._applier.journal_id, seq, i)
            points.append(
                Point(
                    scoping.point_id(item.memory.scope, item.memory.id),
                    vector,
                    document,
                    text=item.memory.content,
                )
            )
        if displaced:
            await self._applier.delete_memories(displaced)
        if points:
            await self._index.upsert(points)
        changes = [Change(ChangeType.DELETED, m, at, seq) for m in displaced]
        changes += [
            Change(
                ChangeType.CREATED if actions[i] is Action.CREATE else ChangeType.UPDATED,
                item.memory,
                at,
                seq,
            )
            for i, item in stored
        ]
        counts = ImportCounts(
            created=actions.count(Action.CREATE),
            updated=actions.count(Action.UPDATE),
            unchanged=actions.count(Action.LEAVE),
            embedded=len(to_embed),
        )
        return counts, changes
