"""A recall set: memories with paraphrased queries that share few words with them.

Each target memory fills a sentence template with one word of a synonym pair
(British/formal); its query is a paraphrase template filled with the other
word (American/plain), so lexical overlap is small and meaning carries the
match. Distractors reuse the same templates and words in other combinations,
so neither the template nor the word alone finds the target.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SYNONYMS = [
    ("automobile", "car"),
    ("physician", "doctor"),
    ("attorney", "lawyer"),
    ("canine", "dog"),
    ("feline", "cat"),
    ("bicycle", "bike"),
    ("sofa", "couch"),
    ("aeroplane", "plane"),
    ("film", "movie"),
    ("flat", "apartment"),
    ("lorry", "truck"),
    ("trousers", "pants"),
    ("mobile phone", "cellphone"),
    ("football", "soccer ball"),
    ("biscuits", "cookies"),
    ("rubbish bin", "trash can"),
    ("wristwatch", "watch"),
    ("spectacles", "glasses"),
    ("rucksack", "backpack"),
    ("guitar", "six-string"),
]
TEMPLATES = [
    ("The user recently purchased a {m}", "did I buy a {q} lately?"),
    ("The user is frightened of the neighbour's {m}", "what scares me next door, is it a {q}?"),
    ("A {m} was delivered to the user's office on Monday", "when did my {q} arrive at work?"),
    ("The user plans to sell the old {m} before relocating", "am I getting rid of my {q}?"),
    ("The user repaired the broken {m} using spare parts", "how did I fix my {q}?"),
    ("The user's brother borrowed the {m} and never gave it back", "who still has my {q}?"),
    ("The user misplaced the receipt for the {m}", "can't find proof of payment for my {q}"),
    ("The user dreams of owning a bright red {m}", "what colour {q} do I fantasise about?"),
    ("The user insured the {m} with a local company", "is my {q} covered by a policy?"),
    ("The user photographs every {m} encountered", "which {q} pictures do I take?"),
    ("The user donated an unused {m} to charity", "did I give away a {q}?"),
    ("The user's grandmother left them a {m} in her will", "what {q} did I inherit?"),
    ("Cleaning the {m} takes the user an entire afternoon", "how long do I spend washing my {q}?"),
    ("The user sketched a {m} during the art class", "what {q} drawing did I make at school?"),
    ("The user keeps a spare {m} in the garage", "do I have an extra {q} at home?"),
]


@dataclass(frozen=True, slots=True)
class Case:
    user: str
    memory: str
    query: str


def recall_set(
    users: int = 20, targets_per_user: int = 15, distractors_per_user: int = 15, seed: int = 3
) -> tuple[list[Case], dict[str, list[str]]]:
    """Cases (one target memory and its query each) and every user's memories,
    targets and distractors shuffled together."""
    rng = random.Random(seed)
    combos = [(t, s) for t in range(len(TEMPLATES)) for s in range(len(SYNONYMS))]
    cases: list[Case] = []
    stored: dict[str, list[str]] = {}
    for u in range(users):
        user = f"recall-user-{u}"
        chosen = rng.sample(combos, targets_per_user + distractors_per_user)
        texts = []
        for i, (t, s) in enumerate(chosen):
            memory_template, query_template = TEMPLATES[t]
            formal, plain = SYNONYMS[s]
            memory = memory_template.format(m=formal)
            texts.append(memory)
            if i < targets_per_user:
                cases.append(Case(user, memory, query_template.format(q=plain)))
        rng.shuffle(texts)
        stored[user] = texts
    return cases, stored
