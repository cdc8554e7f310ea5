"""Issue 10 item 3: MemorydStore.asearch honours retrieval_strategy and max_tokens.

Each mapping is checked against the real server's own answer: the strategy
against a SearchMemories call with the retrieval mode it maps to, the budget
against a Preload with the same budget, which the server counts itself.
"""

from __future__ import annotations

import asyncio

import pytest
from google.protobuf.duration_pb2 import Duration
from tenxgraph.storage.store.store_schema import MemorySearchResult, RetrievalStrategy

from memoryd_client import MemorydClient, pb, svc
from memoryd_client.tenxgraph import MemorydStore

from support import ServerProcess

FACTS = [
    "The user's locker code is QX-4471",
    "The user goes hiking in the Alps every summer with two old friends from school",
    "The user drinks oat milk",
    "The user's gym is open until ten at night on weekdays, and until six on weekends",
    "The user keeps the spare key to the locker under the blue doormat",
    "The user is allergic to peanuts",
]


@pytest.fixture
def store(server: ServerProcess, user: str) -> MemorydStore:
    store = MemorydStore(server.address)
    for fact in FACTS:
        store.store({"user_id": user}, fact)
    return store


def scored(results: list[MemorySearchResult]) -> list[tuple[str, float]]:
    return [(r.id, r.score) for r in results]


def server_search(
    client: MemorydClient,
    user: str,
    query: str,
    mode: svc.RetrievalMode,
    *,
    recency_off: bool = False,
) -> list[tuple[str, float]]:
    request = svc.SearchMemoriesRequest(
        query=query, scope=pb.Scope(user_id=user), limit=10, retrieval_mode=mode
    )
    if recency_off:
        request.recency_half_life.SetInParent()
    return [(hit.memory.id, hit.score) for hit in client.search_memories(request).results]


def same_ranking(found: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    """Same memories, same order, same scores up to the recency clock's step
    (two calls may fall in neighbouring steps of it)."""
    assert [i for i, _ in found] == [i for i, _ in expected], (found, expected)
    assert [s for _, s in found] == pytest.approx([s for _, s in expected], abs=1e-4)


def test_each_strategy_reaches_the_server_as_its_mode(
    store: MemorydStore, client: MemorydClient, user: str
) -> None:
    config, query = {"user_id": user}, "locker code QX-4471"
    hybrid = asyncio.run(store.asearch(config, query, retrieval_strategy=RetrievalStrategy.HYBRID))
    relevance = store.search(config, query, retrieval_strategy=RetrievalStrategy.RELEVANCE)
    dense = asyncio.run(store.asearch(config, query))
    same_ranking(scored(hybrid), server_search(client, user, query, svc.RETRIEVAL_MODE_HYBRID))
    same_ranking(
        scored(relevance), server_search(client, user, query, svc.RETRIEVAL_MODE_UNSPECIFIED)
    )
    # SIMILARITY is plain cosine, recency off, as 10xgraph's duplicate check means it.
    dense_off = server_search(client, user, query, svc.RETRIEVAL_MODE_DENSE, recency_off=True)
    assert scored(dense) == dense_off
    # The words the question shares with the first memory raise its hybrid score.
    assert hybrid[0].content == FACTS[0] and dense[0].content == FACTS[0]
    assert hybrid[0].score > dense[0].score
    # The sync method and the strategy's string value map the same way.
    same_ranking(scored(store.search(config, query, retrieval_strategy="hybrid")), scored(hybrid))


@pytest.mark.parametrize(
    "strategy",
    [
        RetrievalStrategy.TEMPORAL,
        RetrievalStrategy.GRAPH_TRAVERSAL,
        "bm25-only",
    ],
)
def test_strategies_memoryd_does_not_run_are_refused_naming_those_it_does(
    store: MemorydStore, user: str, strategy: str
) -> None:
    config = {"user_id": user}
    with pytest.raises(ValueError, match="'similarity', 'hybrid', 'relevance'"):
        asyncio.run(store.asearch(config, "locker", retrieval_strategy=strategy))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'similarity', 'hybrid', 'relevance'"):
        store.search(config, "locker", retrieval_strategy=strategy)  # type: ignore[arg-type]


def preload_keeps(client: MemorydClient, user: str, query: str, budget: int) -> list[str]:
    """The memories the server's own budget keeps for the same search (Preload, PLAIN)."""
    request = svc.PreloadRequest(
        query=query,
        user_scope=pb.Scope(user_id=user),
        limit=len(FACTS),
        max_tokens=budget,
        format=svc.PRELOAD_FORMAT_PLAIN,
        retrieval_mode=svc.RETRIEVAL_MODE_DENSE,
        recency_half_life=Duration(),  # as SIMILARITY searches
    )
    (context,) = [e for e in client.preload(request) if isinstance(e, svc.PreloadContext)]
    return list(context.memory_ids)


def test_max_tokens_keeps_the_best_results_that_fit_as_the_server_counts_them(
    store: MemorydStore, client: MemorydClient, user: str
) -> None:
    config, query = {"user_id": user}, "Where is the locker and what is its code?"
    everything = store.search(config, query, limit=len(FACTS), max_tokens=0)
    assert len(everything) == len(FACTS)
    assert store.search(config, query, limit=len(FACTS)) == everything  # 4000 is room enough
    kept_counts = set()
    for budget in (1, 12, 30, 60):
        kept = asyncio.run(store.asearch(config, query, limit=len(FACTS), max_tokens=budget))
        assert [r.id for r in kept] == preload_keeps(client, user, query, budget)
        assert [r.id for r in kept] == [r.id for r in everything[: len(kept)]]
        assert store.search(config, query, limit=len(FACTS), max_tokens=budget) == kept
        kept_counts.add(len(kept))
    assert len(kept_counts) > 2  # the budgets above really cut at different places
    with pytest.raises(ValueError, match="max_tokens"):
        store.search(config, query, max_tokens=-1)
