"""BM25 sparse vectors, the lexical half of hybrid retrieval, from Qdrant Edge's Bm25 model.

Both backends use it, so a point gets the same terms whichever engine stores
it. The model tokenizes, drops English stopwords and stems with Snowball; it
weights document terms by frequency and length, and queries by presence. The
engine applies IDF itself (the sparse vector's IDF modifier), because only it
knows the collection.
"""

from __future__ import annotations

import qdrant_edge as qe

#: The name of the sparse vector in both backends.
SPARSE = "bm25"

_MODEL = qe.Bm25(qe.Bm25Config())


def document_terms(text: str) -> tuple[list[int], list[float]]:
    """(indices, weights) of a stored text's sparse vector."""
    vector = _MODEL.embed_document(text)
    return list(vector.indices), [float(v) for v in vector.values]


def query_terms(text: str) -> tuple[list[int], list[float]]:
    """(indices, weights) of a query's sparse vector."""
    vector = _MODEL.embed_query(text)
    return list(vector.indices), [float(v) for v in vector.values]
