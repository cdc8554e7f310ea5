"""Token counting with the embedding model's own tokenizer, offline."""

from __future__ import annotations

from functools import lru_cache

from memoryd.embed.model_files import wordpiece_tokenizer

TOKENIZER_ID = "all-MiniLM-L6-v2-wordpiece"
#: Distinct chunks whose counts are remembered: the words of recent context blocks.
CACHED_CHUNKS = 65_536
#: Longer chunks are counted each time, so the cache stays small (at most ~4 MB of keys).
LONGEST_CACHED_CHUNK = 64


class WordPieceTokenCounter:
    """Counts tokens with all-MiniLM-L6-v2's WordPiece tokenizer (the
    bert-base-uncased vocabulary), shipped in embed/assets.

    Unlike the embedder's copy it neither truncates nor pads, and it adds no
    [CLS]/[SEP]: it counts what a text costs inside a prompt. A chat model's
    own tokenizer counts differently, typically within about 20%; budgets
    are an estimate to that extent, but the same text always counts the same.

    A space always ends a token here (BERT's normaliser works char by char and
    its pre-tokeniser splits at every space), so a text's count is the sum of
    its space-separated chunks' counts. Preload counts each block it renders,
    and its blocks repeat the same memories' words: the chunks' counts are
    remembered, which makes a 1 KB block about ten times cheaper to count.
    """

    def __init__(self) -> None:
        self._tokenizer = wordpiece_tokenizer()
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self._count_chunk = lru_cache(maxsize=CACHED_CHUNKS)(self._count_uncached)

    @property
    def tokenizer_id(self) -> str:
        return TOKENIZER_ID

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        return sum(
            self._count_chunk(chunk)
            if len(chunk) <= LONGEST_CACHED_CHUNK
            else self._count_uncached(chunk)
            for chunk in text.split(" ")
            if chunk
        )

    def _count_uncached(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)
