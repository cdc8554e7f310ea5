"""The data and queries every peer gets: the same texts, users and query texts.

Pure Python (bench/corpus.py and bench/recall_set.py only), so the peers'
own virtualenvs import it too. Memories go 100 to a user, round-robin
(``user-{i % users}``, as bench/harness.py's ``spread`` deals them); every
query text is new, so no peer can answer from an embedding cache unless a
measurement asks for that on purpose.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from corpus import memories, queries

PER_USER = 100
#: Query stems: corpus.queries has few distinct ones, so cold_query makes each text new.
_STEMS = queries(256)


@dataclass(frozen=True)
class Workload:
    """``size`` memories for ``size / PER_USER`` users, reproducible from ``seed``."""

    size: int
    seed: int = 7

    @property
    def users(self) -> int:
        return max(1, self.size // PER_USER)

    @cached_property
    def texts(self) -> list[str]:
        return memories(self.size, self.seed)

    def user_of(self, i: int) -> str:
        return f"user-{i % self.users}"

    def by_user(self) -> Iterator[tuple[str, list[str]]]:
        """Each user with its memories, in the order they are loaded."""
        for u in range(self.users):
            yield f"user-{u}", self.texts[u :: self.users]

    def fresh_texts(self, tag: str, count: int) -> list[str]:
        """``count`` memory texts that are in no store yet (a different seed, tagged)."""
        return [f"{text} [{tag}]" for text in memories(count, seed=self.seed + 1000)]


def cold_query(tag: str, i: int) -> str:
    """A query text no earlier call sent: a corpus question, made unique by tag and index."""
    return f"{_STEMS[i % len(_STEMS)][:-1]}, case {tag}-{i}?"
