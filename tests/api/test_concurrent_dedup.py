"""Near-duplicate dedup under concurrency: 50 racing unkeyed creates leave one memory."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import list_all, new_memory

SENTENCE = "The user prefers tea over coffee in the morning"
_ENDINGS = ("", ".", "!", " .", ". ", "!!", "..", " !", "  ", ".\n")
_CASINGS = (
    lambda s: s,
    str.lower,
    str.upper,
    lambda s: s.replace("tea", "Tea"),
    lambda s: "  " + s,
)
#: 50 distinct texts that differ only in case, spacing and punctuation.
VARIANTS = [casing(SENTENCE) + ending for casing, ending in itertools.product(_CASINGS, _ENDINGS)]
DEDUP_THRESHOLD = 0.95  # the server's default (MEMORYD_DEDUP_THRESHOLD)


def test_the_variants_are_distinct_near_duplicates_under_the_real_model():
    # Whichever create the server applies first survives, so every pair must be
    # a near-duplicate, not only each variant and the sentence.
    assert len(set(VARIANTS)) == 50
    vectors = np.array(OnnxMiniLMEmbedder().embed_sync(VARIANTS))
    assert (vectors @ vectors.T).min() >= DEDUP_THRESHOLD + 0.01


@pytest.mark.parametrize("mode", [svc.WRITE_MODE_ASYNC, svc.WRITE_MODE_SYNC])
def test_fifty_concurrent_near_identical_creates_leave_exactly_one_memory(stub, user, mode):
    calls = [stub.CreateMemory.future(new_memory(text, user=user, mode=mode)) for text in VARIANTS]
    responses = [call.result(timeout=60) for call in calls]

    # The first read waits for every acknowledged write of the scope.
    stored = list_all(stub, pb.Scope(user_id=user), timeout=60)
    assert len(stored) == 1, f"{len(stored)} memories: {[m.content for m in stored]}"
    survivor = stored[0]
    assert survivor.content in VARIANTS and survivor.version == 1
    if mode == svc.WRITE_MODE_SYNC:
        outcomes = sorted(r.outcome for r in responses)
        assert outcomes == [svc.WRITE_OUTCOME_CREATED] + [svc.WRITE_OUTCOME_SKIPPED_DUPLICATE] * 49
        skipped = [r for r in responses if r.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE]
        assert {r.memory.id for r in skipped} == {survivor.id}
        assert all(r.duplicate_similarity >= DEDUP_THRESHOLD for r in skipped)
