"""Builds a real 10xgraph QdrantStore and reports 10xgraph's own search results, as JSON.

Runs under the 10xgraph peer environment (.venv-peers/tenxgraph, `make peers`),
whose qdrant-client (<1.16) still has the ``search`` that QdrantStore.asearch
calls. Reads one JSON request on stdin:

    {"path": "/tmp/x", "collection": "memories",
     "memories": [{"text": "...", "config": {"user_id": "u1"}, "memory_type": "semantic",
                   "category": "preferences", "metadata": {...}}],
     "queries": [{"query": "...", "user_id": "u1"}]}

stores every memory with ``QdrantStore.astore(config, text, ...)`` in a local
Qdrant directory at ``path``, then searches with ``QdrantStore.asearch`` for each
query in its user's scope, and prints ``{"added": [{"id", "text"}], "searches":
[{"query", "user_id", "results": [{"id", "content", "score"}]}], "written_from",
"written_until"}`` (UTC ISO times bracketing the writes).

The embedding is memoryd's own all-MiniLM-L6-v2 (int8 ONNX), imported from this
checkout, so the store holds exactly the vectors memoryd would make.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "server"))

from tenxgraph.storage.store import BaseEmbedding, QdrantStore  # noqa: E402
from tenxgraph.storage.store.store_schema import MemoryType  # noqa: E402

from memoryd.embed.onnx_local import OnnxMiniLMEmbedder  # noqa: E402


class MiniLMEmbedding(BaseEmbedding):
    """10xgraph's embedding seam over the model memoryd itself runs."""

    def __init__(self, model: OnnxMiniLMEmbedder) -> None:
        self._model = model

    async def aembed_batch(self, texts: list[str]) -> list[list[float]]:
        return await self._model.embed(texts)

    async def aembed(self, text: str) -> list[float]:
        return (await self._model.embed([text]))[0]

    @property
    def dimension(self) -> int:
        return self._model.dimension


async def run(request: dict[str, Any]) -> dict[str, Any]:
    model = OnnxMiniLMEmbedder()
    store = QdrantStore(
        MiniLMEmbedding(model), path=request["path"], collection=request["collection"]
    )
    written_from = datetime.now(UTC)
    added = []
    for entry in request["memories"]:
        memory_id = await store.astore(
            entry["config"],
            entry["text"],
            memory_type=MemoryType(entry.get("memory_type", "episodic")),
            category=entry.get("category", "general"),
            metadata=entry.get("metadata"),
        )
        added.append({"id": memory_id, "text": entry["text"]})
    written_until = datetime.now(UTC)
    searches = []
    for query in request["queries"]:
        # score_threshold=0: 10xgraph's MemorySearchResult refuses a negative
        # cosine score, so an unrelated memory in the top 5 would fail the search
        found = await store.asearch(
            {"user_id": query["user_id"]}, query["query"], limit=5, score_threshold=0.0
        )
        searches.append(
            {
                **query,
                "results": [{"id": r.id, "content": r.content, "score": r.score} for r in found],
            }
        )
    await store.arelease()
    await model.close()
    return {
        "added": added,
        "searches": searches,
        "written_from": written_from.isoformat(),
        "written_until": written_until.isoformat(),
    }


def main() -> None:
    json.dump(asyncio.run(run(json.load(sys.stdin))), sys.stdout)


if __name__ == "__main__":
    main()
