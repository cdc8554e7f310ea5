"""core.freshness: a read waits for, and its version moves with, every write that reaches it."""

from __future__ import annotations

import itertools

import pytest

from memoryd.core.freshness import WriteTracker
from memoryd.core.model import Scope
from memoryd.core.scoping import read_filter

_AGENTS, _APPS = ("", "a1", "a2"), ("", "p1", "p2")
#: Every shared scope over two agents and two apps.
SHARED = [Scope(agent_id=a, app_id=p) for a, p in itertools.product(_AGENTS, _APPS) if a or p]


def _sees(reader: Scope, owner: Scope) -> bool:
    """Whether a read of ``reader`` sees the shared memory of ``owner`` (scoping.py)."""
    assert not reader.user_id and read_filter(reader) is not None
    return (not reader.agent_id or reader.agent_id == owner.agent_id) and (
        not reader.app_id or reader.app_id == owner.app_id
    )


def _reaches(write: Scope, reader: Scope, *, is_forget: bool) -> bool:
    # A create, update or delete changes the memory of exactly its owner; a
    # forget deletes every memory a read of its scope sees.
    owners = [o for o in SHARED if _sees(write, o)] if is_forget else [write]
    return any(_sees(reader, owner) for owner in owners)


@pytest.mark.parametrize("is_forget", [False, True], ids=["write", "forget"])
def test_every_shared_read_a_write_reaches_waits_for_it_and_changes_version(is_forget):
    missed = []
    for write, reader in itertools.product(SHARED, SHARED):
        if not _reaches(write, reader, is_forget=is_forget):
            continue
        tracker = WriteTracker()
        tracker.start(last_seq=10)
        before = tracker.version(reader)
        tracker.note(write, 11, applied_seq=10, is_forget=is_forget)
        if tracker.pending_seq(reader) != 11 or tracker.version(reader) == before:
            missed.append((write, reader))
    assert missed == []


def test_a_forget_of_one_agent_leaves_other_agents_readers_alone():
    tracker = WriteTracker()
    tracker.note(Scope(agent_id="a1"), 5, applied_seq=0, is_forget=True)
    assert tracker.pending_seq(Scope(agent_id="a2")) == 0
    assert tracker.pending_seq(Scope(agent_id="a2", app_id="p1")) == 0
    assert tracker.pending_seq(Scope(app_id="p1")) == 5
    assert tracker.pending_seq(Scope(user_id="a1")) == 0
