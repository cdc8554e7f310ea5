"""The benchmarks' texts (bench/corpus.py): a search meant to pay for its
embedding must get a query text the server has never seen."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from corpus import fresh_queries, memories, queries  # noqa: E402


def test_plain_queries_repeat_so_a_cache_would_answer_them() -> None:
    asked = queries(600)
    assert len(set(asked)) < len(asked)


def test_fresh_queries_are_distinct_however_many_are_asked() -> None:
    asked = fresh_queries(5_000)
    assert len(set(asked)) == 5_000


def test_fresh_queries_are_the_corpus_questions_numbered() -> None:
    for plain, fresh in zip(queries(50, seed=3), fresh_queries(50, seed=3), strict=True):
        assert fresh.startswith(plain[:-1]) and fresh.endswith("?")


def test_fresh_queries_are_reproducible_from_their_seed() -> None:
    assert fresh_queries(100, seed=8) == fresh_queries(100, seed=8)
    assert fresh_queries(100, seed=8) != fresh_queries(100, seed=9)


def test_memories_are_distinct() -> None:
    texts = memories(5_000)
    assert len(set(texts)) == 5_000
