"""A mem0 OSS ``Memory`` on local Qdrant that embeds with memoryd's MiniLM.

Import it only after ``mem0_env.prepare_mem0_environment``: mem0 reads its
environment when imported. mem0 insists on an LLM config even with
infer=False: a dummy OpenAI key that is never called satisfies it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mem0 import Memory
from mem0.embeddings.base import EmbeddingBase

from memoryd.embed.onnx_local import DIMENSION, OnnxMiniLMEmbedder


class MiniLMForMem0(EmbeddingBase):
    """mem0's embedder seam over memoryd's MiniLM: one text in, one vector out."""

    def __init__(self) -> None:
        super().__init__()
        self._model = OnnxMiniLMEmbedder()

    def embed(self, text: Any, memory_action: Any = None) -> list[float]:
        return self._model.embed_sync([str(text)])[0]

    def embed_batch(self, texts: Any, memory_action: Any = "add") -> list[list[float]]:
        return self._model.embed_sync([str(t) for t in texts])


def build_memory(path: str, collection: str, embedder: EmbeddingBase | None = None) -> Memory:
    """A Memory over a Qdrant collection at ``path`` (qdrant-client local mode)."""
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
    memory.embedding_model = embedder or MiniLMForMem0()
    return memory


def scope_of(entry: dict[str, Any]) -> dict[str, str]:
    return {k: entry[k] for k in ("user_id", "agent_id", "run_id") if entry.get(k)}
