"""The token counter counts a text as the tokenizer does, whatever the text; its
tokenizer file is checked before use."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer

from memoryd.embed import model_files
from memoryd.embed.model_files import wordpiece_tokenizer
from memoryd.embed.tokens import LONGEST_CACHED_CHUNK, WordPieceTokenCounter

from support.damage import flip_one_byte


@pytest.fixture(scope="module")
def counter() -> WordPieceTokenCounter:
    return WordPieceTokenCounter()


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    whole = wordpiece_tokenizer()
    whole.no_truncation()
    whole.no_padding()
    return whole


def _whole_text_count(tokenizer: Tokenizer, text: str) -> int:
    return len(tokenizer.encode(text, add_special_tokens=False).ids)


# Characters where a tokenizer might join or split across a space: accents and
# combining marks (stripped after NFD), CJK (split per character), control and
# other whitespace characters (dropped or turned into spaces), punctuation,
# digits, and letters that lowercase to two characters.
_TRICKY = " \u00a0\t\n\r\x1c\x1f\x85\u2028\u3000\u0301\u0308éÉİßﬁ中文字-.,:()[]'\"!?#0123456789"
_words = st.text(alphabet=st.sampled_from(list(_TRICKY) + list("abcxyzKLM")), max_size=12)
_long_words = st.text(alphabet="abcdefghij", min_size=LONGEST_CACHED_CHUNK, max_size=130)


@given(parts=st.lists(st.one_of(_words, _long_words, st.text(max_size=8)), max_size=30))
def test_counts_as_the_tokenizer_counts_the_whole_text(counter, tokenizer, parts):
    text = " ".join(parts)
    expected = _whole_text_count(tokenizer, text)
    assert counter.count_tokens(text) == expected
    assert counter.count_tokens(text) == expected  # again, from the remembered chunks


def test_counts_a_rendered_block_and_its_repeat_alike(counter, tokenizer):
    block = (
        "[Long-term Memory Context]\nUser memory:\n"
        "- The user's ticket JIRA-4471 is blocked on the VPN (relevance: 0.8123)\n"
        "- Prefers dark mode in VS Code (relevance: 0.5)\n\n"
        "Agent memory:\n- Escalate outages to #ops-oncall (relevance: 0.71)"
    )
    expected = _whole_text_count(tokenizer, block)
    assert counter.count_tokens(block) == expected == counter.count_tokens(block)


def test_empty_and_blank_texts_count_nothing(counter):
    assert counter.count_tokens("") == 0
    assert counter.count_tokens("   ") == 0


def test_a_damaged_tokenizer_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / "tokenizer.json"
    shutil.copy(model_files.TOKENIZER_PATH, damaged)
    flip_one_byte(damaged, damaged.stat().st_size // 2)
    monkeypatch.setattr(model_files, "TOKENIZER_PATH", damaged)
    expected = model_files.TOKENIZER_SHA256
    message = rf"{re.escape(str(damaged))} has sha256 \w+, expected {expected}; reinstall it"
    with pytest.raises(model_files.ModelFileError, match=message):
        model_files.wordpiece_tokenizer()
