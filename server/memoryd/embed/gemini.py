"""The hosted embedder: Gemini's embedding models through the google-genai SDK."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

import httpx
import httpx2
from google import genai
from google.genai import errors, types

from memoryd.core.errors import EmbeddingError
from memoryd.core.ports import Vector

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "gemini-embedding-001"
DEFAULT_DIMENSION = 768
#: batchEmbedContents rejects requests with more than this many contents.
MAX_BATCH_SIZE = 100
#: Texts per embed call unless MEMORYD_EMBED_BATCH_SIZE says otherwise: every
#: call is a round trip, and the API does not pad.
BATCH_SIZE = 32

# google-genai 3.x sends through httpx2 by default, but switches to httpx when the
# caller injects an httpx transport or client, so network failures come from either.
_TRANSPORT_ERRORS: tuple[type[Exception], ...] = (httpx2.HTTPError, httpx.HTTPError)


class GeminiEmbedder:
    """Gemini embeddings over the Gemini Developer API, L2-normalised.

    Gemini truncates its 3072-float vectors to ``dimension`` (Matryoshka) without
    renormalising them, so every vector is normalised here. Every text is sent
    with task type RETRIEVAL_DOCUMENT: memories and queries share one index, and
    one task type keeps a text's vector the same whichever way it arrives.

    ``http_options`` is passed to the SDK unchanged; set its ``timeout`` or
    ``retry_options`` there. Tests inject a fake transport through
    ``async_client_args={"transport": ...}``.
    """

    def __init__(
        self,
        api_key: str,
        *,
        model: str = DEFAULT_MODEL,
        dimension: int = DEFAULT_DIMENSION,
        http_options: types.HttpOptions | None = None,
    ) -> None:
        if not api_key:
            raise ValueError("api_key is empty; set the Gemini API key")
        if dimension <= 0:
            raise ValueError(f"dimension must be positive, got {dimension}")
        self._model = model
        self._dimension = dimension
        # enterprise=False pins the Developer API even if GOOGLE_GENAI_USE_VERTEXAI is set.
        self._client = genai.Client(api_key=api_key, enterprise=False, http_options=http_options)
        self._config = types.EmbedContentConfig(
            output_dimensionality=dimension, task_type="RETRIEVAL_DOCUMENT"
        )
        self._is_closed = False

    @property
    def model_id(self) -> str:
        return f"gemini:{self._model}:{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Embeds texts in order, in requests of at most MAX_BATCH_SIZE texts.

        Raises EmbeddingError if Gemini answers with an error, cannot be reached,
        or returns the wrong number or length of vectors. The message carries the
        HTTP status, never the texts.
        """
        vectors: list[Vector] = []
        # Batches go one after another, not concurrently: a large input would
        # otherwise spend the per-minute quota in one burst and fail with 429.
        for start in range(0, len(texts), MAX_BATCH_SIZE):
            vectors.extend(await self._embed_batch(texts[start : start + MAX_BATCH_SIZE]))
        return vectors

    async def close(self) -> None:
        """Closes the SDK's HTTP clients; idempotent."""
        if self._is_closed:
            return
        self._is_closed = True
        await self._client.aio.aclose()
        self._client.close()

    async def _embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        # Typed as the SDK's list of parts: a list[str] does not match it (lists are invariant).
        contents: list[types.ContentUnion] = [*texts]
        try:
            response = await self._client.aio.models.embed_content(
                model=self._model, contents=contents, config=self._config
            )
        except errors.APIError as exc:
            logger.warning(
                "gemini embed of %d texts failed: HTTP %s %s", len(texts), exc.code, exc.status
            )
            raise EmbeddingError(
                f"Gemini embedding failed: HTTP {exc.code} {exc.status or ''}".rstrip()
            ) from exc
        except _TRANSPORT_ERRORS as exc:
            logger.warning("gemini embed of %d texts failed: %s", len(texts), type(exc).__name__)
            raise EmbeddingError(
                f"Gemini embedding failed: no answer from the API ({type(exc).__name__})"
            ) from exc
        embeddings = response.embeddings or []
        if len(embeddings) != len(texts):
            raise EmbeddingError(
                f"Gemini returned {len(embeddings)} vectors for {len(texts)} texts"
            )
        return [self._normalised(embedding.values or []) for embedding in embeddings]

    def _normalised(self, values: list[float]) -> Vector:
        if len(values) != self._dimension:
            raise EmbeddingError(
                f"Gemini returned a vector of {len(values)} floats, expected {self._dimension}"
            )
        norm = math.sqrt(math.fsum(value * value for value in values))
        if norm == 0.0:
            raise EmbeddingError("Gemini returned a zero vector, which cannot be normalised")
        return [value / norm for value in values]
