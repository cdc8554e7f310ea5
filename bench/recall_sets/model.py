"""A recall set: memories in creation order and the cases that query them; its JSONL form."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

#: Where the built sets are checked in.
DATA = Path(__file__).resolve().parent / "data"
#: Every set, in the order reports list them.
NAMES = ("paraphrase", "lexical", "mixed", "updates")


@dataclass(frozen=True, slots=True)
class Memory:
    """A memory of one user. Memories of a lower ``round`` are created first
    (a correction is round 1, after every original fact of round 0)."""

    user: str
    content: str
    round: int = 0


@dataclass(frozen=True, slots=True)
class Case:
    """A query of one user and the memory that answers it.

    ``stale`` is the older fact ``expected`` corrects (updates set only);
    ``kind`` says what the query leans on: paraphrase, an identifier kind, or
    an updated attribute.
    """

    user: str
    query: str
    expected: str
    kind: str
    stale: str | None = None


@dataclass(frozen=True, slots=True)
class RecallSet:
    name: str
    memories: tuple[Memory, ...]
    cases: tuple[Case, ...]

    def files(self, data: Path = DATA) -> dict[Path, str]:
        """The set's JSONL files and their text."""
        return {
            data / f"{self.name}.memories.jsonl": _jsonl(asdict(m) for m in self.memories),
            data / f"{self.name}.cases.jsonl": _jsonl(asdict(c) for c in self.cases),
        }

    def rounds(self) -> list[dict[str, list[str]]]:
        """Each round's memories by user, rounds in creation order."""
        by_round: dict[int, dict[str, list[str]]] = {}
        for m in self.memories:
            by_round.setdefault(m.round, {}).setdefault(m.user, []).append(m.content)
        return [by_round[r] for r in sorted(by_round)]


def _jsonl(rows: Iterable[dict[str, object]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows)


def load(name: str, data: Path = DATA) -> RecallSet:
    """The checked-in set ``name``."""
    memories = [Memory(**row) for row in _rows(data / f"{name}.memories.jsonl")]
    cases = [Case(**row) for row in _rows(data / f"{name}.cases.jsonl")]
    return RecallSet(name, tuple(memories), tuple(cases))


def load_all(names: tuple[str, ...] = NAMES, data: Path = DATA) -> list[RecallSet]:
    return [load(name, data) for name in names]


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
