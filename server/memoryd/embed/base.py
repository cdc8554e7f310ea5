"""The embedding seam: a list of texts in, a list of unit vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

Vector = list[float]


class EmbeddingError(Exception):
    """The provider could not embed; the message says why without the texts."""


class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of ``dimension`` floats.

    ``model_id`` names the model and its settings; the index records it, so
    vectors of different models are never mixed.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Embeds texts in order; raises EmbeddingError on provider failure."""
        ...

    async def close(self) -> None:
        """Releases threads or connections; idempotent."""
        ...


class TokenCounter(Protocol):
    """Counts the tokens a text takes for a language model's budget."""

    @property
    def tokenizer_id(self) -> str:
        """Names the tokenizer, so budgets can say what they count."""
        ...

    def count_tokens(self, text: str) -> int:
        """The number of tokens of ``text``, without special tokens."""
        ...
