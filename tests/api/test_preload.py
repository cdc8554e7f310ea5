"""Preload: streaming order, 10xgraph formats byte for byte, token budget, etag cache, errors."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
from tenxgraph.core.graph.agent_internal.memory import AgentMemoryMixin
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store.base_store import BaseStore
from tenxgraph.storage.store.long_term_memory import create_memory_preload_node
from tenxgraph.storage.store.memory_config import (
    AgentMemoryConfig,
    MemoryConfig,
    UserMemoryConfig,
)
from tenxgraph.storage.store.store_schema import MemorySearchResult
from tokenizers import Tokenizer

from memoryd.embed.model_files import TOKENIZER_PATH
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import create, expect_error, field_violations

Stub = memory_service_pb2_grpc.MemoryServiceStub

USER_FACTS = (
    "The user lives in Lisbon and works remotely",
    "The user is allergic to peanuts",
    "The user prefers short answers without emojis",
    "The user's daughter is called Ana and is seven",
)
AGENT_FACTS = ("Answer in the user's language", "Never share internal ticket numbers")


def preload(stub: Stub, user: str, **fields: Any) -> list[svc.PreloadResponse]:
    agent = fields.pop("agent_id", "")
    request = svc.PreloadRequest(user_scope=pb.Scope(user_id=user), **fields)
    if agent:
        request.agent_scope.CopyFrom(pb.Scope(agent_id=agent))
    return list(stub.Preload(request, timeout=fields.pop("timeout", 10)))


def kinds(events: list[svc.PreloadResponse]) -> list[str]:
    return [str(e.WhichOneof("event")) for e in events]


def seed(stub: Stub, user: str, agent: str = "") -> None:
    for fact in USER_FACTS:
        create(stub, fact, user=user)
    for fact in AGENT_FACTS if agent else ():
        create(stub, fact, agent_id=agent)


def results_of(events: list[svc.PreloadResponse], scope: int) -> list[svc.SearchResult]:
    (hits,) = [e.hits for e in events if e.HasField("hits") and e.hits.scope == scope]
    return list(hits.results)


# --- streaming order and read-your-writes ------------------------------------


def test_events_stream_hits_per_scope_then_context_then_done(stub: Stub, user: str) -> None:
    agent = f"agent-{user}"
    seed(stub, user, agent)
    events = preload(stub, user, query="is the user allergic to any food", agent_id=agent)
    assert kinds(events) == ["hits", "hits", "context", "done"]
    assert {e.hits.scope for e in events[:2]} == {svc.PRELOAD_SCOPE_USER, svc.PRELOAD_SCOPE_AGENT}
    done = events[-1].done
    assert (done.user_hit_count, done.agent_hit_count) == (4, 2)
    assert done.included_count == 6 and not done.partial and done.etag
    assert done.embed_duration.ToTimedelta().total_seconds() > 0
    assert done.search_duration.ToTimedelta().total_seconds() > 0
    assert results_of(events, svc.PRELOAD_SCOPE_USER)[0].memory.content == USER_FACTS[1]


def test_user_scope_only_sends_one_hits_event(stub: Stub, user: str) -> None:
    seed(stub, user)
    events = preload(stub, user, query="peanut allergy")
    assert kinds(events) == ["hits", "context", "done"]
    assert "Agent memory:" not in events[1].context.text


def test_write_made_just_before_preload_is_seen(stub: Stub, user: str) -> None:
    create(stub, "The user's cat is named Miso", user=user, mode=svc.WRITE_MODE_ASYNC)
    events = preload(stub, user, query="what is the name of my pet")
    assert [r.memory.content for r in results_of(events, svc.PRELOAD_SCOPE_USER)] == [
        "The user's cat is named Miso"
    ]


def test_query_comes_from_the_last_user_turn(stub: Stub, user: str) -> None:
    seed(stub, user)
    turns = [
        svc.ConversationTurn(role=svc.TURN_ROLE_USER, content="where do I live?"),
        svc.ConversationTurn(role=svc.TURN_ROLE_ASSISTANT, content="Let me check."),
        svc.ConversationTurn(role=svc.TURN_ROLE_USER, content="  am I allergic to anything?  "),
        svc.ConversationTurn(role=svc.TURN_ROLE_TOOL, content="peanuts? Lisbon?"),
    ]
    events = preload(stub, user, turns=turns, limit=1)
    assert results_of(events, svc.PRELOAD_SCOPE_USER)[0].memory.content == USER_FACTS[1]


# --- formats: byte for byte with 10xgraph ------------------------------------


class CannedStore(BaseStore):
    """A 10xgraph store answering every search with the memoryd hits of its scope."""

    def __init__(self, user_hits: list[Any], agent_hits: list[Any]) -> None:
        self.user_hits = user_hits
        self.agent_hits = agent_hits

    async def asearch(self, config: dict[str, Any], query: str, **kwargs: Any) -> Any:
        hits = self.agent_hits if "agent_id" in config else self.user_hits
        return [
            MemorySearchResult(id=h.memory.id, content=h.memory.content, score=h.score)
            for h in hits
        ]

    async def astore(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def aget(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def aget_all(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def aupdate(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def adelete(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    async def aforget_memory(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


class TenxgraphAgent(AgentMemoryMixin):
    """Just enough of a 10xgraph Agent to run its real preload rendering."""

    def __init__(self, store: CannedStore, user: str, agent: str) -> None:
        self._memory_config = MemoryConfig(
            retrieval_mode="preload",
            user_memory=UserMemoryConfig(store=store, user_id=user),
            agent_memory=AgentMemoryConfig(enabled=True, store=store, agent_id=agent),
        )


def conversation(query: str) -> AgentState:
    return AgentState(context=[Message.text_message(query, role="user")])


def test_agent_format_matches_tenxgraph_agent_preload(stub: Stub, user: str) -> None:
    agent = f"agent-{user}"
    seed(stub, user, agent)
    query = "what food should I avoid"
    events = preload(
        stub, user, query=query, agent_id=agent, format=svc.PRELOAD_FORMAT_TENXGRAPH_AGENT
    )
    store = CannedStore(
        results_of(events, svc.PRELOAD_SCOPE_USER), results_of(events, svc.PRELOAD_SCOPE_AGENT)
    )
    tenxgraph = TenxgraphAgent(store, user, agent)
    (expected,) = asyncio.run(tenxgraph._build_memory_prompts(conversation(query), {}))
    assert events[2].context.text == expected["content"]
    assert "\n\nAgent memory:\n" in expected["content"]


def test_integration_format_matches_tenxgraph_preload_node(stub: Stub, user: str) -> None:
    seed(stub, user)
    query = "tell me about my family"
    events = preload(stub, user, query=query, format=svc.PRELOAD_FORMAT_TENXGRAPH_INTEGRATION)
    store = CannedStore(results_of(events, svc.PRELOAD_SCOPE_USER), [])
    node = create_memory_preload_node(store)
    (message,) = asyncio.run(node(conversation(query), {"user_id": user}))
    assert events[1].context.text == message.text()
    assert events[1].context.text.endswith(
        "Use this context to inform your response when relevant."
    )


def test_plain_format_sends_hits_and_no_text(stub: Stub, user: str) -> None:
    seed(stub, user)
    events = preload(stub, user, query="allergies", format=svc.PRELOAD_FORMAT_PLAIN)
    context = events[1].context
    assert context.text == "" and len(context.memory_ids) == 4 and context.token_count > 0


def test_no_hits_render_an_empty_context(stub: Stub, user: str) -> None:
    events = preload(stub, user, query="anything at all")
    assert kinds(events) == ["hits", "context", "done"]
    assert events[1].context.text == "" and events[2].done.included_count == 0


# --- token budget --------------------------------------------------------------


def count_tokens(text: str) -> int:
    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


@pytest.mark.parametrize(
    "form", [svc.PRELOAD_FORMAT_TENXGRAPH_AGENT, svc.PRELOAD_FORMAT_TENXGRAPH_INTEGRATION]
)
def test_token_budget_drops_lowest_scores_whole(stub: Stub, user: str, form: int) -> None:
    agent = f"agent-{user}"
    seed(stub, user, agent)
    full = preload(stub, user, query="peanut allergy", agent_id=agent, format=form)
    full_tokens = full[-1].done.token_count
    assert full_tokens == count_tokens(full[2].context.text)
    budget = full_tokens * 2 // 3
    events = preload(
        stub, user, query="peanut allergy", agent_id=agent, format=form, max_tokens=budget
    )
    context = events[2].context
    assert context.token_count == count_tokens(context.text) <= budget
    assert 0 < context.dropped_count < 6
    hits = [r for e in events[:2] for r in e.hits.results]
    ranked = sorted(hits, key=lambda r: -r.score)
    kept = {r.memory.id for r in ranked[: len(hits) - context.dropped_count]}
    assert set(context.memory_ids) == kept
    for r in hits:
        # Every memory is in the text whole, or not at all.
        assert (f"- {r.memory.content} (relevance:" in context.text) == (r.memory.id in kept)


def test_budget_too_small_for_any_memory_gives_empty_context(stub: Stub, user: str) -> None:
    seed(stub, user)
    events = preload(stub, user, query="peanut allergy", max_tokens=5)
    assert events[1].context.text == "" and events[1].context.dropped_count == 4
    assert len(events[0].hits.results) == 4, "the hits are still sent"


# --- etag cache ------------------------------------------------------------------


def test_if_none_match_skips_the_search_until_a_write_in_scope(stub: Stub, user: str) -> None:
    seed(stub, user)
    first = preload(stub, user, query="where do I live")
    etag = first[-1].done.etag
    again = preload(stub, user, query="where do I live", if_none_match=etag)
    assert kinds(again) == ["not_modified"] and again[0].not_modified.etag == etag

    create(stub, "Unrelated user writes do not matter", user=f"{user}-other")
    assert kinds(preload(stub, user, query="where do I live", if_none_match=etag)) == [
        "not_modified"
    ]
    changed = preload(
        stub, user, query="where do I live", if_none_match=etag, format=svc.PRELOAD_FORMAT_PLAIN
    )
    assert kinds(changed)[-1] == "done", "another request is another context"

    create(stub, "The user moved to Porto in May", user=user, mode=svc.WRITE_MODE_ASYNC)
    after = preload(stub, user, query="where do I live", if_none_match=etag)
    assert kinds(after) == ["hits", "context", "done"]
    assert "The user moved to Porto in May" in after[1].context.text
    assert after[-1].done.etag not in ("", etag)


def test_write_to_agent_scope_invalidates_the_etag(stub: Stub, user: str) -> None:
    agent = f"agent-{user}"
    seed(stub, user, agent)
    etag = preload(stub, user, query="language", agent_id=agent)[-1].done.etag
    create(stub, "Use British spelling", agent_id=agent, mode=svc.WRITE_MODE_ASYNC)
    after = preload(stub, user, query="language", agent_id=agent, if_none_match=etag)
    assert kinds(after)[-1] == "done"


# --- errors ------------------------------------------------------------------------


def test_no_query_and_no_user_turn_is_invalid_argument(stub: Stub, user: str) -> None:
    turns = [svc.ConversationTurn(role=svc.TURN_ROLE_ASSISTANT, content="Hello!")]
    request = svc.PreloadRequest(user_scope=pb.Scope(user_id=user), turns=turns)
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, lambda: list(stub.Preload(request)))
    assert field_violations(error) == ["query"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"user_scope": pb.Scope(agent_id="a")}, "user_scope.user_id"),
        ({"agent_scope": pb.Scope(user_id="u")}, "agent_scope"),
        ({"max_tokens": -1}, "max_tokens"),
        ({"limit": 101}, "limit"),
        ({"diversity": 1.5}, "diversity"),
        ({"format": 99}, "format"),
        ({"retrieval_mode": 99}, "retrieval_mode"),
    ],
)
def test_bad_fields_are_invalid_argument(stub: Stub, fields: dict[str, Any], field: str) -> None:
    request = svc.PreloadRequest(query="q", user_scope=pb.Scope(user_id="u"))
    for name, value in fields.items():
        if isinstance(value, pb.Scope):
            getattr(request, name).CopyFrom(value)
        else:
            setattr(request, name, value)
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, lambda: list(stub.Preload(request)))
    assert field_violations(error) == [field]
