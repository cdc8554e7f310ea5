"""The files the local model ships with, verified before use; no onnxruntime here.

Both the ONNX embedder and the token counter read the WordPiece tokenizer, so
counting tokens (for Preload budgets) works with any embedder, Gemini included.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tokenizers import Tokenizer

from memoryd.core.errors import EmbeddingError

TOKENIZER_PATH = Path(__file__).parent / "assets" / "all-MiniLM-L6-v2.tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


class ModelFileError(EmbeddingError):
    """A model or tokenizer file is missing or not the expected one."""


def verify_sha256(path: Path, expected: str) -> None:
    """Raises ModelFileError unless the file at ``path`` has the given digest."""
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ModelFileError(f"cannot read {path}: {exc.strerror}") from exc
    if digest != expected:
        raise ModelFileError(f"{path} has sha256 {digest}, expected {expected}; reinstall it")


def wordpiece_tokenizer() -> Tokenizer:
    """all-MiniLM-L6-v2's WordPiece tokenizer (the bert-base-uncased vocabulary),
    as shipped: callers set truncation and padding for their use."""
    verify_sha256(TOKENIZER_PATH, TOKENIZER_SHA256)
    return Tokenizer.from_file(str(TOKENIZER_PATH))
