"""HYBRID retrieval and MMR diversity through SearchMemories and Preload, with the real model.

The texts are chosen so that the rankings are known: the distractors share no
word with the query, so the lexical (BM25) ranking has exactly one entry, and
the hybrid scores follow from the dense ranks by the contract's RRF formula.
"""

from __future__ import annotations

from typing import Any

import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, search

Stub = memory_service_pb2_grpc.MemoryServiceStub
DENSE, HYBRID = svc.RETRIEVAL_MODE_DENSE, svc.RETRIEVAL_MODE_HYBRID

DEVICES_QUERY = "Which Apple devices does the user have?"
SAMSUNG, LINUX, ANDROID = (
    "Owns a Samsung phone",
    "Works on a Linux laptop",
    "Reads on an Android tablet",
)
#: The only text with a query word ("apple"); by meaning, the least relevant.
APPLE_PIE = "Bakes apple pie on Sundays"

PETS_QUERY = "What pets does the user have?"
RETRIEVER = "The user has a golden retriever called Biscuit"
#: Nearly the same memory again: relevant, but it adds nothing.
RETRIEVER_AGAIN = "The user's golden retriever is named Biscuit"
PETS = (RETRIEVER, RETRIEVER_AGAIN, "The user also keeps two goldfish", "The user works as a nurse")


def _rrf(*places: int) -> float:
    """The contract's hybrid score: RRF (k = 60) over the rankings a memory is
    in, divided by the score of first place in both. Qdrant counts places
    from 0, so first place scores 1 / 60."""
    return sum(1 / (60 + p) for p in places) / (2 / 60)


@pytest.fixture
def devices(stub: Stub, user: str) -> str:
    for text in (SAMSUNG, LINUX, ANDROID, APPLE_PIE):
        create(stub, text, user=user)
    return user


@pytest.fixture
def pets(stub: Stub, user: str) -> str:
    for text in PETS:
        create(stub, text, user=user, dedup_threshold=1.0)
    return user


def _preload_hits(stub: Stub, user: str, **fields: Any) -> tuple[list[Any], svc.PreloadDone]:
    request = svc.PreloadRequest(user_scope=pb.Scope(user_id=user), **fields)
    events = list(stub.Preload(request, timeout=30))
    (hits,) = [e.hits for e in events if e.HasField("hits")]
    return [(r.memory.content, r.score) for r in hits.results], events[-1].done


def test_hybrid_search_ranks_the_lexical_match_first_with_rrf_scores(stub: Stub, devices: str):
    dense = search(stub, DEVICES_QUERY, user=devices, retrieval_mode=DENSE)
    assert dense[0].memory.content == SAMSUNG and dense[-1].memory.content == APPLE_PIE
    dense_place = {r.memory.content: i for i, r in enumerate(dense)}

    hybrid = search(stub, DEVICES_QUERY, user=devices, retrieval_mode=HYBRID)

    # First lexically, last by meaning: first once fused; the rest keep their order.
    assert [r.memory.content for r in hybrid] == [APPLE_PIE] + [
        r.memory.content for r in dense[:-1]
    ]
    expected = [_rrf(0, dense_place[APPLE_PIE])] + [
        _rrf(dense_place[r.memory.content]) for r in dense[:-1]
    ]
    assert [r.score for r in hybrid] == pytest.approx(expected, abs=1e-4)


def test_hybrid_score_threshold_compares_the_fused_score(stub: Stub, devices: str):
    hits = search(stub, DEVICES_QUERY, user=devices, retrieval_mode=HYBRID, score_threshold=0.6)
    assert [r.memory.content for r in hits] == [APPLE_PIE]


def test_preload_ranks_by_the_requested_mode_and_reports_it(stub: Stub, devices: str):
    searched = {
        mode: [
            (r.memory.content, r.score)
            for r in search(stub, DEVICES_QUERY, user=devices, retrieval_mode=mode)
        ]
        for mode in (DENSE, HYBRID)
    }
    for mode in (DENSE, HYBRID):
        hits, done = _preload_hits(stub, devices, query=DEVICES_QUERY, retrieval_mode=mode)
        assert [c for c, _ in hits] == [c for c, _ in searched[mode]]
        assert [s for _, s in hits] == pytest.approx([s for _, s in searched[mode]], abs=1e-6)
        assert hits[0][0] == (APPLE_PIE if mode == HYBRID else SAMSUNG)
        assert done.retrieval_mode == mode
    hits, done = _preload_hits(stub, devices, query=DEVICES_QUERY)
    assert done.retrieval_mode == DENSE, "the server's default"
    assert hits[0][0] == SAMSUNG


@pytest.mark.parametrize("mode", [DENSE, HYBRID])
def test_diversity_replaces_a_near_duplicate_with_another_memory(stub: Stub, pets: str, mode: int):
    cosine = {r.memory.content: r.score for r in search(stub, PETS_QUERY, user=pets, limit=4)}
    assert sorted(cosine, key=cosine.__getitem__, reverse=True)[:2] == [RETRIEVER, RETRIEVER_AGAIN]

    relevant = search(stub, PETS_QUERY, user=pets, limit=2, retrieval_mode=mode, diversity=0.0)
    diverse = search(stub, PETS_QUERY, user=pets, limit=2, retrieval_mode=mode, diversity=1.0)

    assert [r.memory.content for r in relevant] == [RETRIEVER, RETRIEVER_AGAIN]
    assert diverse[0].memory.content == RETRIEVER
    assert diverse[1].memory.content not in (RETRIEVER, RETRIEVER_AGAIN)
    # With diversity the score is the cosine similarity, in both modes.
    for hit in relevant + diverse:
        assert hit.score == pytest.approx(cosine[hit.memory.content], abs=1e-4)


def test_preload_diversifies_like_search(stub: Stub, pets: str):
    for mode in (DENSE, HYBRID):
        searched = search(stub, PETS_QUERY, user=pets, limit=2, retrieval_mode=mode, diversity=1.0)
        hits, done = _preload_hits(
            stub, pets, query=PETS_QUERY, limit=2, retrieval_mode=mode, diversity=1.0
        )
        assert [c for c, _ in hits] == [r.memory.content for r in searched]
        assert RETRIEVER_AGAIN not in [c for c, _ in hits]
        assert done.retrieval_mode == mode
