"""Token counting with the embedding model's own tokenizer, offline."""

from __future__ import annotations

from memoryd.embed.model_files import wordpiece_tokenizer

TOKENIZER_ID = "all-MiniLM-L6-v2-wordpiece"


class WordPieceTokenCounter:
    """Counts tokens with all-MiniLM-L6-v2's WordPiece tokenizer (the
    bert-base-uncased vocabulary), shipped in embed/assets.

    Unlike the embedder's copy it neither truncates nor pads, and it adds no
    [CLS]/[SEP]: it counts what a text costs inside a prompt. A chat model's
    own tokenizer counts differently, typically within about 20%; budgets
    are an estimate to that extent, but the same text always counts the same.
    """

    def __init__(self) -> None:
        self._tokenizer = wordpiece_tokenizer()
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    @property
    def tokenizer_id(self) -> str:
        return TOKENIZER_ID

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)
