"""Preload's context block: the formats of 10xgraph's preload, and the token budget.

The two 10xgraph formats are reproduced byte for byte (tests build the
expected text with 10xgraph itself):

- TENXGRAPH_AGENT, as ``Agent._build_memory_prompts``: a "User memory:" and an
  "Agent memory:" section, each only when it has memories, scores rounded to
  4 decimals by ``round`` (so 0.5 prints as 0.5);
- TENXGRAPH_INTEGRATION, as ``create_memory_preload_node``: one list, scores
  with 2 decimals, left out when 0.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from memoryd.core.model import ScoredMemory
from memoryd.core.ports import TokenCounter

HEADER = "[Long-term Memory Context]\n"
INTEGRATION_TEMPLATE = (
    "[Long-term Memory Context]\n"
    "The following memories were retrieved for the current conversation:\n"
    "{memories}\n"
    "Use this context to inform your response when relevant."
)
SECTION_LABELS = ("User memory", "Agent memory")


class PreloadFormat(enum.Enum):
    """How the context block is written; see the proto's PreloadFormat."""

    TENXGRAPH_AGENT = "tenxgraph_agent"
    TENXGRAPH_INTEGRATION = "tenxgraph_integration"
    PLAIN = "plain"


@dataclass(frozen=True, slots=True)
class Rendered:
    """A context block and the memories in it, in the order written."""

    text: str
    included: tuple[ScoredMemory, ...]
    dropped_count: int
    token_count: int


def render(form: PreloadFormat, sections: Sequence[Sequence[ScoredMemory]]) -> str:
    """The block for ``sections`` (user hits, then agent hits, each best first)."""
    match form:
        case PreloadFormat.TENXGRAPH_AGENT:
            blocks = [
                f"{label}:\n"
                + "\n".join(f"- {h.memory.content} (relevance: {round(h.score, 4)})" for h in hits)
                for label, hits in zip(SECTION_LABELS, sections, strict=False)
                if hits
            ]
            return HEADER + "\n\n".join(blocks) if blocks else ""
        case PreloadFormat.TENXGRAPH_INTEGRATION:
            merged = _best_first([h for hits in sections for h in hits])
            if not merged:
                return ""
            lines = [
                f"- {h.memory.content}" + (f" (relevance: {h.score:.2f})" if h.score else "")
                for h in merged
            ]
            return INTEGRATION_TEMPLATE.format(memories="\n".join(lines))
        case PreloadFormat.PLAIN:
            return ""


def fit(
    form: PreloadFormat,
    sections: Sequence[Sequence[ScoredMemory]],
    max_tokens: int,
    counter: TokenCounter,
) -> Rendered:
    """Renders as many memories as ``max_tokens`` allows (0: no budget).

    Memories are left out whole, lowest score first, until the block fits.
    The block's size grows with every memory kept, so the largest set that
    fits is found by bisection, counting the real rendered text each time.
    """
    ranked = _best_first([h for hits in sections for h in hits])

    def attempt(kept_count: int) -> Rendered:
        kept = {id(h) for h in ranked[:kept_count]}
        kept_sections = [[h for h in hits if id(h) in kept] for hits in sections]
        text = render(form, kept_sections)
        if form is PreloadFormat.PLAIN:
            order = [h for hits in kept_sections for h in hits]
            tokens = sum(counter.count_tokens(h.memory.content) for h in order)
        else:
            order = _render_order(form, kept_sections)
            tokens = counter.count_tokens(text)
        return Rendered(text, tuple(order), len(ranked) - kept_count, tokens)

    best = attempt(len(ranked))
    if max_tokens == 0 or best.token_count <= max_tokens:
        return best
    low, high = 0, len(ranked) - 1  # attempt(low) fits: the empty block takes 0 tokens
    best = attempt(0)
    while low < high:
        middle = (low + high + 1) // 2
        candidate = attempt(middle)
        if candidate.token_count <= max_tokens:
            low, best = middle, candidate
        else:
            high = middle - 1
    return best


def _best_first(hits: Sequence[ScoredMemory]) -> list[ScoredMemory]:
    # Stable: on equal scores, user memories stay before agent memories.
    return sorted(hits, key=lambda h: -h.score)


def _render_order(
    form: PreloadFormat, sections: Sequence[Sequence[ScoredMemory]]
) -> list[ScoredMemory]:
    if form is PreloadFormat.TENXGRAPH_INTEGRATION:
        return _best_first([h for hits in sections for h in hits])
    return [h for hits in sections for h in hits]
