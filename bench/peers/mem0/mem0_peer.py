"""Builds a real mem0 OSS store and reports mem0's own search results, as JSON.

Runs under the mem0 peer environment (.venv-peers/mem0, `make peers`), never
the server's: mem0ai pins protobuf<7. Reads one JSON request on stdin:

    {"path": "/tmp/x", "collection": "mem0",
     "memories": [{"text": "...", "user_id": "u1", "agent_id": "", "run_id": "",
                   "metadata": {...}, "expiration_date": "2099-01-01"}],
     "queries": [{"query": "...", "user_id": "u1", "agent_id": ""}]}

adds every memory with ``Memory.add(..., infer=False)`` into a Qdrant collection
at ``path`` (qdrant-client local mode), then searches with ``Memory.search`` and
prints ``{"added": [{"id", "text"}], "searches": [{"query", "user_id",
"agent_id", "results": [{"id", "memory", "score"}]}]}``.

The embedder is memoryd's own all-MiniLM-L6-v2 (int8 ONNX), imported from this
checkout, so mem0 stores exactly the vectors memoryd would make. mem0 insists
on an LLM config even with infer=False: a dummy OpenAI key that is never called
satisfies it. Without spaCy and fastembed installed, mem0 ranks by dense
similarity only (its keyword and entity boosts need model downloads), and
telemetry is off, so nothing here touches the network.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

#: mem0 reads these when imported: no telemetry, no model downloads, and its
#: home (config.json with an install id) beside the store rather than in ~/.mem0.
REQUEST = json.load(sys.stdin)
os.environ["MEM0_TELEMETRY"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["MEM0_DIR"] = str(Path(REQUEST["path"]).parent / "mem0-home")

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "server"))

from mem0 import Memory  # noqa: E402
from mem0.embeddings.base import EmbeddingBase  # noqa: E402

from memoryd.embed.onnx_local import DIMENSION, OnnxMiniLMEmbedder  # noqa: E402


class MiniLMForMem0(EmbeddingBase):
    """mem0's embedder seam over memoryd's MiniLM: one text in, one vector out."""

    def __init__(self) -> None:
        super().__init__()
        self._model = OnnxMiniLMEmbedder()

    def embed(self, text: Any, memory_action: Any = None) -> list[float]:
        return self._model.embed_sync([str(text)])[0]

    def embed_batch(self, texts: Any, memory_action: Any = "add") -> list[list[float]]:
        return self._model.embed_sync([str(t) for t in texts])


def build_memory(path: str, collection: str) -> Memory:
    mem0_dir = Path(os.environ["MEM0_DIR"])
    mem0_dir.mkdir(exist_ok=True)
    config = {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": collection,
                "path": path,
                "embedding_model_dims": DIMENSION,
            },
        },
        "llm": {"provider": "openai", "config": {"api_key": "never-called"}},
        "embedder": {"provider": "openai", "config": {"api_key": "never-called"}},
        "history_db_path": str(mem0_dir / "history.db"),
    }
    memory = Memory.from_config(config)
    memory.embedding_model = MiniLMForMem0()
    return memory


def scope_of(entry: dict[str, Any]) -> dict[str, str]:
    return {k: entry[k] for k in ("user_id", "agent_id", "run_id") if entry.get(k)}


def main(request: dict[str, Any]) -> None:
    memory = build_memory(request["path"], request["collection"])
    added = []
    for entry in request["memories"]:
        result = memory.add(
            entry["text"],
            metadata=entry.get("metadata"),
            expiration_date=entry.get("expiration_date"),
            infer=False,
            **scope_of(entry),
        )
        (item,) = result["results"]
        added.append({"id": item["id"], "text": entry["text"]})
    searches = []
    for query in request["queries"]:
        found = memory.search(query["query"], filters=scope_of(query), top_k=5, threshold=0.0)
        searches.append(
            {
                **query,
                "results": [
                    {"id": r["id"], "memory": r["memory"], "score": r["score"]}
                    for r in found["results"]
                ],
            }
        )
    memory.close()
    json.dump({"added": added, "searches": searches}, sys.stdout)


if __name__ == "__main__":
    main(REQUEST)
