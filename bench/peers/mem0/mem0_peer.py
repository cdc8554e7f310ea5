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
import sys
from typing import Any

from mem0_env import prepare_mem0_environment

#: mem0 reads its environment when imported (mem0_env.py), so the request
#: (which names the store's path) is read first.
REQUEST = json.load(sys.stdin)
prepare_mem0_environment(REQUEST["path"])

from mem0_store import build_memory, scope_of  # noqa: E402


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
