"""Token counting needs the tokenizer, not the local model's runtime."""

from __future__ import annotations

import subprocess
import sys


def test_the_token_counter_loads_without_importing_onnxruntime() -> None:
    # A server with the Gemini embedder counts Preload budgets with this
    # counter; it must not pay for (or need) the ONNX runtime.
    probe = (
        "import sys\n"
        "from memoryd.embed.tokens import WordPieceTokenCounter\n"
        "assert WordPieceTokenCounter().count_tokens('hello world') == 2\n"
        "print('onnxruntime' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "False"
