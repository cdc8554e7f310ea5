"""A 10xgraph preload node on memoryd's Preload stream: one call, rendered server-side.

``create_memory_preload_node(store, ...)`` takes the arguments of 10xgraph's
``tenxgraph.storage.store.create_memory_preload_node`` and returns a node that
injects the same ``[Long-term Memory Context]`` system message, byte for byte,
for the same memories and scores. Instead of a search whose results the graph
formats, it asks memoryd's Preload RPC for the rendered block, and keeps the
block's etag: a repeat preload of the same request, with no write in its
scopes since, is answered ``not_modified`` and the previous block is reused.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

from injectq import InjectQ
from tenxgraph.core.state import AgentState, Message
from tenxgraph.storage.store import create_memory_preload_node as _tenxgraph_preload_node
from tenxgraph.storage.store.store_schema import MemoryType, RetrievalStrategy
from tenxgraph.utils.background_task_manager import BackgroundTaskManager

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client.errors import MemorydError
from memoryd_client.tenxgraph import _convert
from memoryd_client.tenxgraph._blocks import RenderedBlocks
from memoryd_client.tenxgraph._scoping import memory_scope
from memoryd_client.tenxgraph.store import MemorydStore

logger = logging.getLogger(__name__)

#: 10xgraph's default preload prompt (``long_term_memory._DEFAULT_MEMORY_PROMPT``,
#: 10xgraph 0.10.3). With it, memoryd renders the block (TENXGRAPH_INTEGRATION);
#: with any other template, the node renders the hits itself.
DEFAULT_MEMORY_PROMPT = (
    "[Long-term Memory Context]\n"
    "The following memories were retrieved for the current conversation:\n"
    "{memories}\n"
    "Use this context to inform your response when relevant."
)

#: Seconds 10xgraph's node waits for pending background memory writes.
_FLUSH_TIMEOUT = 15

PreloadNode = Callable[[AgentState, dict[str, Any]], Awaitable[list[Message]]]

_FORMATS = {
    "integration": svc.PRELOAD_FORMAT_TENXGRAPH_INTEGRATION,
    "agent": svc.PRELOAD_FORMAT_TENXGRAPH_AGENT,
}


def _default_query_builder(state: AgentState) -> str:
    """The latest user message's text, as 10xgraph's default query builder."""
    for message in reversed(state.context):
        if message.role == "user":
            return str(message.text())
    return ""


def _strip_thread_id(config: Mapping[str, Any]) -> dict[str, Any]:
    """Long-term memory is cross-thread, as in 10xgraph's node."""
    return {key: value for key, value in config.items() if key != "thread_id"}


async def _flush_pending_writes() -> None:
    """Waits for in-flight background memory writes, as 10xgraph's node does, so the
    preload sees (and its etag covers) what memory_tool just stored."""
    try:
        manager = InjectQ.get_instance().try_get(BackgroundTaskManager)
        if manager is not None and manager.get_task_count() > 0:
            await manager.wait_for_all(timeout=_FLUSH_TIMEOUT)
    except Exception:
        logger.debug("Could not flush background tasks before preload", exc_info=True)


def _agent_scope(value: Mapping[str, Any] | pb.Scope | None) -> pb.Scope | None:
    if value is None:
        return None
    if isinstance(value, pb.Scope):
        scope = value
    else:
        unknown = set(value) - {"agent_id", "app_id"}
        if unknown:
            raise ValueError(f"agent_scope takes agent_id and app_id, not {sorted(unknown)}")
        scope = pb.Scope(
            agent_id=str(value.get("agent_id") or ""), app_id=str(value.get("app_id") or "")
        )
    if scope.user_id or not (scope.agent_id or scope.app_id):
        raise ValueError("agent_scope needs agent_id and/or app_id, and no user_id")
    return scope


def _render(template: str, hits: Sequence[svc.SearchResult], memory_ids: Sequence[str]) -> str:
    """A custom template filled as 10xgraph's node fills it, with the memories the
    server's budget kept (PLAIN format), in the order it gave."""
    if not memory_ids:
        return ""
    by_id = {hit.memory.id: hit for hit in hits}
    lines = []
    for memory_id in memory_ids:
        hit = by_id[memory_id]
        score = min(max(float(hit.score), 0.0), 1.0)
        lines.append(f"- {hit.memory.content}" + (f" (relevance: {score:.2f})" if score else ""))
    return template.format(memories="\n".join(lines))


def create_memory_preload_node(
    store: MemorydStore,
    query_builder: Callable[[AgentState], str] | None = None,
    limit: int = 5,
    score_threshold: float = 0.0,
    memory_types: list[MemoryType] | None = None,
    system_prompt_template: str = DEFAULT_MEMORY_PROMPT,
    max_tokens: int | None = None,
    *,
    format: Literal["integration", "agent"] = "integration",
    agent_scope: Mapping[str, Any] | pb.Scope | None = None,
    categories: Sequence[str] | None = None,
    timeout: float | None = None,
    cache_size: int = 1024,
    retrieval_strategy: RetrievalStrategy | str = RetrievalStrategy.SIMILARITY,
) -> PreloadNode:
    """A preload node for 10xgraph graphs, a drop-in for 10xgraph's
    ``create_memory_preload_node(store, ...)`` on a MemorydStore.

    Wire it as 10xgraph's node (or in place of ``MemoryIntegration.wire``)::

        graph.add_node("memory_preload", create_memory_preload_node(store))
        graph.set_entry_point("memory_preload")
        graph.add_edge("memory_preload", "MAIN")

    Per call it waits for pending background memory writes (this graph's, and
    those other graphs scheduled on the same store), builds the query
    with ``query_builder`` (default: the last user message's text), and streams
    one Preload for the config's user (``thread_id`` dropped: long-term memory is
    cross-thread). It returns ``[Message(role="system")]`` with the block, or
    ``[]`` when there is no query, nothing matched, or the call failed (logged,
    as 10xgraph's node does).

    - ``limit`` (1 to the server's max_search_limit), ``score_threshold`` (0
      means none) and ``memory_types`` as in 10xgraph's node.
    - ``max_tokens``: the block's token budget, enforced by memoryd (memories
      that do not fit are left out whole, lowest score first); None means none.
      memoryd counts the rendered block, or with a custom template (PLAIN) the
      memories' contents, as ``MemorydStore.asearch`` (which 10xgraph's node
      passes it to) counts them.
    - ``system_prompt_template``: with the default, memoryd renders the block
      (TENXGRAPH_INTEGRATION); with another one the node fills it from the hits
      (PLAIN), the same way 10xgraph's node does.
    - ``format="agent"`` renders as ``Agent(memory=MemoryConfig(retrieval_mode=
      "preload"))`` does instead (TENXGRAPH_AGENT: "User memory:" and "Agent
      memory:" sections, scores to 4 decimals); it takes only the default template.
    - ``agent_scope``: ``{"agent_id": ..., "app_id": ...}`` of shared memory to
      preload too, searched concurrently with the user's; its hits follow the
      user's (in the agent format, under "Agent memory:").
    - ``categories``: only memories in these categories (10xgraph's Agent
      preload searches category "general" and memory type "episodic" by default).
    - ``timeout``: the deadline of each Preload (default: the store's read
      timeout); near it, memoryd returns what is ready.
    - ``cache_size``: how many (user, agent scope) blocks and etags the node keeps.
    - ``retrieval_strategy``: how to rank, as ``MemorydStore.asearch`` maps it.
      The default, SIMILARITY, ranks as 10xgraph's node does on the same store
      (cosine similarity), so the block is the one 10xgraph's node renders;
      HYBRID or RELEVANCE rank by meaning and words, with recency.

    A config that names no user (only agent_id/app_id) is served by 10xgraph's
    own node on the same store (without ``agent_scope`` and ``categories``),
    since Preload is per user.
    """
    if not isinstance(store, MemorydStore):
        raise TypeError(f"store must be a MemorydStore, not {type(store).__name__}")
    if format not in _FORMATS:
        raise ValueError(f"format must be 'integration' or 'agent', not {format!r}")
    custom_template = system_prompt_template != DEFAULT_MEMORY_PROMPT
    if custom_template and format == "agent":
        raise ValueError("format='agent' renders memoryd's block; it takes no template")
    if custom_template and "{memories}" not in system_prompt_template:
        raise ValueError("system_prompt_template must contain the {memories} placeholder")
    if max_tokens is not None and max_tokens < 0:
        raise ValueError(f"max_tokens must be None or at least 0, got {max_tokens}")
    if cache_size < 1:
        raise ValueError(f"cache_size must be at least 1, got {cache_size}")

    builder = query_builder or _default_query_builder
    shared = _agent_scope(agent_scope)
    template = svc.PreloadRequest(
        limit=_convert.search_limit(limit),
        memory_types=[_convert.memory_type(t) for t in memory_types or ()],
        categories=list(categories or ()),
        max_tokens=max_tokens or 0,
        format=svc.PRELOAD_FORMAT_PLAIN if custom_template else _FORMATS[format],
    )
    threshold = _convert.score_threshold(score_threshold)
    if threshold is not None:
        template.score_threshold = threshold
    if shared is not None:
        template.agent_scope.CopyFrom(shared)
    _convert.rank_by(template, retrieval_strategy)
    blocks = RenderedBlocks(cache_size)
    fallback: list[PreloadNode] = []

    def for_shared_memory() -> PreloadNode:
        if not fallback:
            fallback.append(
                _tenxgraph_preload_node(
                    store,
                    query_builder=query_builder,
                    limit=limit,
                    score_threshold=score_threshold,
                    memory_types=memory_types,
                    system_prompt_template=system_prompt_template,
                    max_tokens=max_tokens,
                )
            )
        return fallback[0]

    async def _preload_node(state: AgentState, config: dict[str, Any]) -> list[Message]:
        await _flush_pending_writes()
        query = builder(state)
        if not query or not query.strip():
            return []
        search_config = _strip_thread_id(config or {})
        try:
            user_scope = memory_scope(search_config, store._scope_user_id, for_write=False)
        except ValueError:
            logger.exception("Memory preload failed: the config names no memory owner")
            return []
        if not user_scope.user_id:
            return await for_shared_memory()(state, config)

        request = svc.PreloadRequest()
        request.CopyFrom(template)
        request.query = query
        request.user_scope.CopyFrom(user_scope)
        key = (user_scope.user_id, user_scope.app_id)  # the agent scope is the node's
        cached = blocks.get(key)
        if cached is not None:
            request.if_none_match = cached[0]

        hits: list[svc.SearchResult] = []
        text, memory_ids = "", []
        scopes = [user_scope] if shared is None else [user_scope, shared]
        try:
            # Writes other graphs scheduled on this store are not in this graph's
            # task manager, which _flush_pending_writes waits for; see _pending.py.
            remaining = await store.await_scheduled_writes(scopes, timeout)
            async for event in store.aclient.preload(request, timeout=remaining):
                if isinstance(event, svc.ScopeHits):
                    if event.HasField("error"):
                        logger.warning(
                            "Memory preload: scope %s failed: %s",
                            svc.PreloadScope.Name(event.scope),
                            event.error.message,
                        )
                    hits.extend(event.results)
                elif isinstance(event, svc.PreloadContext):
                    text, memory_ids = event.text, list(event.memory_ids)
                elif isinstance(event, svc.PreloadNotModified):
                    assert cached is not None, "not_modified without if_none_match"
                    text = cached[1]
                elif isinstance(event, svc.PreloadDone):
                    if custom_template:
                        text = _render(system_prompt_template, hits, memory_ids)
                    if event.etag:
                        blocks.put(key, event.etag, text)
                    else:  # partial: what was ready, never reused
                        blocks.drop(key)
        except MemorydError:
            logger.exception("Memory preload failed")
            return []
        return [Message.text_message(text, role="system")] if text else []

    _preload_node.__name__ = "memory_preload"
    _preload_node.__qualname__ = "memory_preload"
    return _preload_node
