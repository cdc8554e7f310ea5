"""The lexical set: questions that name an exact identifier, among near misses.

Each group is four memories of one template whose identifiers differ in one
token only (JIRA-4471, JIRA-4417, JIRA-4481, ...): ticket ids, error codes,
SKUs, version numbers, flight numbers and rare surnames; a user's groups are
of different kinds. The details differ
too, but a query names the identifier alone, so only that token tells the
group's memories apart.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from recall_sets.model import Case, Memory, RecallSet

#: Memories in a group: the one a query asks for and its near misses.
GROUP = 4

_DETAILS = [
    "the login timeout on the checkout page",
    "duplicate invoices for annual plans",
    "the broken CSV export in the reports tab",
    "slow image uploads from the mobile app",
    "a memory leak in the nightly import job",
    "wrong currency symbols on Swiss receipts",
    "password reset emails landing in spam",
    "the calendar sync dropping recurring events",
    "a crash when the printer queue is empty",
    "missing translations on the settings screen",
    "the search box ignoring accented letters",
    "stale prices after a catalogue update",
    "a disk filling up on the staging server",
    "an expired TLS certificate on the wiki",
    "the dark mode toggle resetting itself",
    "late push notifications on Android tablets",
]
_SURNAMES = [
    "Okonkwo",
    "Okafor",
    "Szymborska",
    "Szymanski",
    "Vasquez-Ibarra",
    "Valderrama",
    "Nakashima",
    "Nakamura",
    "Thorvaldsen",
    "Thorsdottir",
    "Quisumbing",
    "Quintanilla",
    "Abernathy",
    "Abramowicz",
    "Lindqvist",
    "Lindgren",
]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of identifier: how to make one, its near misses, and its sentences."""

    name: str
    make: Callable[[random.Random], str]
    near_miss: Callable[[random.Random, str], str]
    memories: tuple[str, ...]
    queries: tuple[str, ...]


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("123456789") for _ in range(n))


def _swap_or_change_digit(rng: random.Random, ident: str) -> str:
    """``ident`` with two adjacent digits swapped or one digit changed."""
    spots = [i for i, ch in enumerate(ident) if ch.isdigit()]
    chars = list(ident)
    pairs = [i for i in spots[:-1] if i + 1 in spots and chars[i] != chars[i + 1]]
    if pairs and rng.random() < 0.5:
        i = rng.choice(pairs)
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    else:
        i = rng.choice(spots)
        chars[i] = rng.choice([d for d in "0123456789" if d != chars[i]])
    return "".join(chars)


def _version(rng: random.Random) -> str:
    return f"{rng.randint(1, 9)}.{rng.randint(10, 29)}.{rng.randint(1, 9)}"


def _version_near_miss(rng: random.Random, ident: str) -> str:
    """Another version one component away (never a permutation of the same numbers)."""
    parts = [int(p) for p in ident.split(".")]
    i = rng.randrange(3)
    parts[i] += rng.choice([-1, 1, 2])
    return ".".join(str(max(1, p)) for p in parts)


def _surname_near_miss(rng: random.Random, ident: str) -> str:
    return rng.choice([s for s in _SURNAMES if s != ident])


KINDS = [
    Kind(
        "ticket",
        lambda rng: f"{rng.choice(['JIRA', 'OPS', 'SUP', 'INC'])}-{_digits(rng, 4)}",
        _swap_or_change_digit,
        ("Ticket {id} is about {detail}", "{id} tracks {detail}"),
        ("what is ticket {id} about?", "remind me what {id} was"),
    ),
    Kind(
        "error code",
        lambda rng: rng.choice(["E", "ERR-", "0x"]) + _digits(rng, 4),
        _swap_or_change_digit,
        ("Error {id} in the deploy logs was caused by {detail}",),
        ("what caused error {id}?", "why did we see {id} again?"),
    ),
    Kind(
        "sku",
        lambda rng: f"SKU-{rng.choice(['AB', 'KX', 'MT', 'PR'])}-{_digits(rng, 4)}",
        _swap_or_change_digit,
        ("The user returned product {id} because of {detail}",),
        ("why did I send back {id}?", "what was wrong with {id}?"),
    ),
    Kind(
        "version",
        _version,
        _version_near_miss,
        ("Release {id} of the mobile app shipped a fix for {detail}",),
        ("what did release {id} fix?", "which bug went away in {id}?"),
    ),
    Kind(
        "flight",
        lambda rng: f"{rng.choice(['KL', 'LH', 'BA', 'AF'])}{_digits(rng, 4)}",
        _swap_or_change_digit,
        ("On flight {id} the user complained about {detail}",),
        ("what did I complain about on flight {id}?",),
    ),
    Kind(
        "surname",
        lambda rng: rng.choice(_SURNAMES),
        _surname_near_miss,
        ("Ms {id} from the vendor team is handling {detail}",),
        ("what is Ms {id} working on?", "what did {id} take over?"),
    ),
]


def group(rng: random.Random, user: str, taken: set[str]) -> tuple[list[Memory], Case]:
    """One group of near-miss memories of ``user`` and the case asking for one of
    them. Its kind and identifiers are none of ``taken`` (the user's other groups'),
    and join it: two groups of one template could repeat a detail, and memories that
    close are duplicates the server would not store."""
    while True:
        kind = rng.choice([k for k in KINDS if k.name not in taken])
        ids = _near_misses(rng, kind, taken)
        if ids:
            break
    taken.update([kind.name, *ids])
    template = rng.choice(kind.memories)
    details = rng.sample(_DETAILS, GROUP)
    texts = [template.format(id=i, detail=d) for i, d in zip(ids, details, strict=True)]
    asked = rng.randrange(GROUP)
    query = rng.choice(kind.queries).format(id=ids[asked])
    return [Memory(user, t) for t in texts], Case(user, query, texts[asked], kind.name)


def _near_misses(rng: random.Random, kind: Kind, taken: set[str]) -> list[str] | None:
    """GROUP distinct identifiers of ``kind``, none ``taken``; None after 100 tries."""
    ids = [kind.make(rng)]
    for _ in range(100):
        if len(ids) == GROUP:
            return ids if taken.isdisjoint(ids) else None
        candidate = kind.near_miss(rng, rng.choice(ids))
        if candidate not in ids:
            ids.append(candidate)
    return None


def groups_of(rng: random.Random, user: str, count: int) -> tuple[list[Memory], list[Case]]:
    """``count`` groups of ``user``, each of another kind: their memories and cases."""
    memories: list[Memory] = []
    cases: list[Case] = []
    taken: set[str] = set()
    for _ in range(count):
        texts, case = group(rng, user, taken)
        memories += texts
        cases.append(case)
    return memories, cases


def lexical(users: int = 40, groups: int = 5, seed: int = 15) -> RecallSet:
    """``groups`` groups per user, each memory in round 0, shuffled within a user."""
    rng = random.Random(seed)
    memories: list[Memory] = []
    cases: list[Case] = []
    for u in range(users):
        mine, asked = groups_of(rng, f"lexical-user-{u}", groups)
        rng.shuffle(mine)
        memories += mine
        cases += asked
    return RecallSet("lexical", tuple(memories), tuple(cases))
