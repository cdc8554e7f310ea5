"""10xgraph's ``max_tokens`` on a search: the best results whose contents fit the budget.

SearchMemories has no token budget; Preload has one, but no filters and no
shared-memory-only scopes. So MemorydStore keeps the budget itself, counted the
way the server counts a Preload's PLAIN budget: each memory's content in
all-MiniLM-L6-v2 WordPiece tokens (the server's tokenizer file, shipped here
too), no special tokens, memories left out whole, lowest score first.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path

from tenxgraph.storage.store.store_schema import MemorySearchResult
from tokenizers import Tokenizer

TOKENIZER_PATH = Path(__file__).parent / "assets" / "all-MiniLM-L6-v2.tokenizer.json"
#: The digest the server checks its copy against (server/memoryd/embed/onnx_local.py).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


@functools.cache
def _tokenizer() -> Tokenizer:
    digest = hashlib.sha256(TOKENIZER_PATH.read_bytes()).hexdigest()
    if digest != TOKENIZER_SHA256:
        raise RuntimeError(f"{TOKENIZER_PATH} has sha256 {digest}, expected {TOKENIZER_SHA256}")
    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def check_budget(max_tokens: int | None) -> int:
    """The budget in tokens, 0 for none (None or 0); ValueError if negative."""
    if max_tokens is None:
        return 0
    if max_tokens < 0:
        raise ValueError(f"max_tokens must be 0 (no budget) or more, got {max_tokens}")
    return int(max_tokens)


def token_counts(texts: Sequence[str]) -> list[int]:
    """Each text's WordPiece token count, as the server's WordPieceTokenCounter."""
    encodings = _tokenizer().encode_batch(list(texts), add_special_tokens=False)
    return [
        len(encoding.ids) if text else 0 for text, encoding in zip(texts, encodings, strict=True)
    ]


def within_budget(results: list[MemorySearchResult], max_tokens: int) -> list[MemorySearchResult]:
    """The longest best-first run of ``results`` whose contents fit ``max_tokens``
    (0: all of them)."""
    # Every WordPiece token covers at least one byte of the UTF-8 text, so when
    # the bytes fit, the tokens do, and nothing needs counting (the usual case).
    if max_tokens == 0 or sum(len(r.content.encode()) for r in results) <= max_tokens:
        return results
    kept, total = [], 0
    for result, count in zip(results, token_counts([r.content for r in results]), strict=True):
        total += count
        if total > max_tokens:
            break
        kept.append(result)
    return kept
