"""HYBRID retrieval, recency and MMR diversity through SearchMemories and Preload,
with the real model (issue 15's acceptance).

The texts are chosen so that the rankings are known: a memory that shares no
word with the query scores its cosine similarity in HYBRID too, and one that
shares words scores more, by the contract's formula (RetrievalMode).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, search

Stub = memory_service_pb2_grpc.MemoryServiceStub
DENSE, HYBRID = svc.RETRIEVAL_MODE_DENSE, svc.RETRIEVAL_MODE_HYBRID
RECENCY_OFF = Duration()

DEVICES_QUERY = "Which Apple devices does the user have?"
SAMSUNG, LINUX, ANDROID = (
    "Owns a Samsung phone",
    "Works on a Linux laptop",
    "Reads on an Android tablet",
)
#: The only text with a query word ("apple"); by meaning, the least relevant.
APPLE_PIE = "Bakes apple pie on Sundays"

#: Alike but for one identifier, which MiniLM blurs.
TICKETS = {
    ticket: f"Ticket {ticket}: the nightly export job times out after the schema change"
    for ticket in ("JIRA-4471", "JIRA-4417", "JIRA-4147", "JIRA-7441")
}

#: A question that shares no word with any of these memories.
PARAPHRASE_QUERY = "Which foods make this person ill?"
PEANUTS = "The user is allergic to peanuts"
FOOD_FACTS = (PEANUTS, "The user drinks oat milk every morning", "The user hikes in the Alps")

PETS_QUERY = "What pets does the user have?"
RETRIEVER = "The user has a golden retriever called Biscuit"
#: Nearly the same memory again: relevant, but it adds nothing.
RETRIEVER_AGAIN = "The user's golden retriever is named Biscuit"
PETS = (RETRIEVER, RETRIEVER_AGAIN, "The user also keeps two goldfish", "The user works as a nurse")


def _noisy_or(cosine: float, lexical: float) -> float:
    return 1 - (1 - cosine) * (1 - lexical)


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


def _scores(results: list[svc.SearchResult]) -> dict[str, float]:
    return {r.memory.content: r.score for r in results}


#: Other users' memories: BM25 weighs a word by how rare it is in the whole
#: index, so an identifier counts as it does on a server in use, not an empty one.
OTHER_USERS_MEMORIES = [
    f"The user {verb} {thing} on {day}s"
    for verb in ("cleans", "buys", "repairs", "paints")
    for thing in ("the bike", "a lamp", "the fence", "new shoes", "a kettle")
    for day in ("Monday", "Tuesday", "Saturday", "Sunday")
]


def test_hybrid_finds_the_exact_identifier_first(stub: Stub, user: str):
    requests = [
        svc.CreateMemoryRequest(memory=pb.Memory(content=t, scope=pb.Scope(user_id=f"{user}-x")))
        for t in OTHER_USERS_MEMORIES
    ]
    stub.BatchCreateMemories(
        svc.BatchCreateMemoriesRequest(requests=requests, mode=svc.WRITE_MODE_SYNC)
    )
    for text in TICKETS.values():
        create(stub, text, user=user, dedup_threshold=1.0)
    dense_firsts = 0
    for ticket, text in TICKETS.items():
        query = f"What is wrong with {ticket}?"
        dense = search(stub, query, user=user, retrieval_mode=DENSE)
        hybrid = search(stub, query, user=user, retrieval_mode=HYBRID)
        assert hybrid[0].memory.content == text, ticket
        dense_firsts += dense[0].memory.content == text
    # By meaning alone the model mixes the identifiers up.
    assert dense_firsts < len(TICKETS)


def test_hybrid_keeps_the_dense_answer_of_a_paraphrase(stub: Stub, user: str):
    for text in FOOD_FACTS:
        create(stub, text, user=user)
    dense = search(stub, PARAPHRASE_QUERY, user=user, retrieval_mode=DENSE)
    hybrid = search(stub, PARAPHRASE_QUERY, user=user, retrieval_mode=HYBRID)
    assert dense[0].memory.content == PEANUTS
    assert [r.memory.content for r in hybrid] == [r.memory.content for r in dense]
    # No shared word: the hybrid score is the cosine similarity itself.
    assert [r.score for r in hybrid] == pytest.approx([r.score for r in dense], abs=1e-4)


def test_hybrid_raises_the_cosine_of_memories_sharing_words(stub: Stub, devices: str):
    dense = _scores(search(stub, DEVICES_QUERY, user=devices, retrieval_mode=DENSE))
    hybrid = search(stub, DEVICES_QUERY, user=devices, retrieval_mode=HYBRID)
    by_content = _scores(hybrid)
    for text in (SAMSUNG, LINUX, ANDROID):
        assert by_content[text] == pytest.approx(dense[text], abs=1e-4)
    # "apple" is the one shared word: noisy-or of the cosine and a lexical part.
    lexical = 1 - (1 - by_content[APPLE_PIE]) / (1 - dense[APPLE_PIE])
    assert 0.0 < lexical < 1.0
    assert by_content[APPLE_PIE] == pytest.approx(_noisy_or(dense[APPLE_PIE], lexical))
    assert by_content[APPLE_PIE] > dense[APPLE_PIE]
    assert [r.score for r in hybrid] == sorted(by_content.values(), reverse=True)


@pytest.mark.parametrize("mode", [DENSE, HYBRID])
@pytest.mark.parametrize("recency", [None, RECENCY_OFF], ids=["recency", "recency-off"])
def test_score_threshold_keeps_exactly_the_scores_at_or_above_it(
    stub: Stub, devices: str, mode: int, recency: Duration | None
):
    fields: dict[str, Any] = {"retrieval_mode": mode, "recency_half_life": recency}
    everything = search(stub, DEVICES_QUERY, user=devices, **fields)
    scores = [r.score for r in everything]
    assert len(scores) == 4
    threshold = (scores[1] + scores[2]) / 2
    kept = search(stub, DEVICES_QUERY, user=devices, score_threshold=threshold, **fields)
    assert [r.memory.content for r in kept] == [r.memory.content for r in everything[:2]]
    assert all(r.score >= threshold for r in kept)


def _import_aged(stub: Stub, user: str, contents_and_ages: list[tuple[str, timedelta]]) -> None:
    now = datetime.now(UTC)
    memories = []
    for content, age in contents_and_ages:
        written = Timestamp()
        written.FromDatetime(now - age)
        memory = pb.Memory(
            id=str(uuid.uuid4()),
            content=content,
            scope=pb.Scope(user_id=user),
            create_time=written,
            update_time=written,
            version=1,
        )
        memories.append(svc.ExportedMemory(memory=memory))
    stub.ImportMemories(iter([svc.ImportMemoriesRequest(memories=memories)]))


@pytest.mark.parametrize("mode", [svc.RETRIEVAL_MODE_UNSPECIFIED, DENSE, HYBRID])
def test_the_newer_of_two_conflicting_memories_ranks_first(stub: Stub, user: str, mode: int):
    old, new = "The user lives in Rotterdam", "The user moved to Tokyo"
    _import_aged(stub, user, [(old, timedelta(days=90)), (new, timedelta(days=1))])
    query = "Where does the user live?"

    without = search(stub, query, user=user, retrieval_mode=mode, recency_half_life=RECENCY_OFF)
    assert [r.memory.content for r in without] == [old, new], "by relevance alone"
    ranked = search(stub, query, user=user, retrieval_mode=mode)
    assert [r.memory.content for r in ranked] == [new, old]
    # The documented weights: 0.5 + 0.5 * 0.5 ** (age / 30 days).
    relevance = _scores(without)
    weighted = _scores(ranked)
    for content, days in ((old, 90), (new, 1)):
        weight = 0.5 + 0.5 * 0.5 ** (days / 30)
        assert weighted[content] == pytest.approx(relevance[content] * weight, abs=1e-3)
    # A shorter half-life set on the request discounts the same age more.
    week = search(
        stub, query, user=user, retrieval_mode=mode, recency_half_life=Duration(seconds=7 * 86400)
    )
    assert _scores(week)[old] < weighted[old]


def test_recency_half_life_out_of_range_is_invalid(stub: Stub, user: str):
    for bad in (Duration(seconds=-1), Duration(seconds=36_526 * 86400)):
        with pytest.raises(grpc.RpcError) as raised:
            search(stub, "anything", user=user, recency_half_life=bad)
        assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "recency_half_life" in (raised.value.details() or "")


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
        assert [s for _, s in hits] == pytest.approx([s for _, s in searched[mode]], abs=1e-4)
        assert done.retrieval_mode == mode
    hits, done = _preload_hits(stub, devices, query=DEVICES_QUERY)
    assert done.retrieval_mode == HYBRID, "the server's default"
    assert [c for c, _ in hits] == [c for c, _ in searched[HYBRID]]


@pytest.mark.parametrize("mode", [DENSE, HYBRID])
def test_diversity_replaces_a_near_duplicate_with_another_memory(stub: Stub, pets: str, mode: int):
    plain = {"retrieval_mode": DENSE, "recency_half_life": RECENCY_OFF}
    cosine = _scores(search(stub, PETS_QUERY, user=pets, limit=4, **plain))
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
