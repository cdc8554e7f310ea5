"""core.scoping: owners, point ids and read filters."""

from __future__ import annotations

import uuid

import pytest

from memoryd.core.errors import InvalidArgument
from memoryd.core.filters import AllOf, Condition, Operator
from memoryd.core.model import Scope
from memoryd.core.scoping import check_scope, forget_filter, point_id, read_filter


def test_point_ids_are_uuids_that_differ_by_owner_but_not_by_thread_or_agent():
    a = point_id(Scope(user_id="u1", thread_id="t1"), "m")
    assert uuid.UUID(a)
    assert a == point_id(Scope(user_id="u1", agent_id="x", thread_id="t2"), "m")
    assert a != point_id(Scope(user_id="u2"), "m")
    assert a != point_id(Scope(agent_id="u1"), "m")
    assert point_id(Scope(agent_id="a", app_id="p"), "m") != point_id(Scope(agent_id="a"), "m")


def test_user_reads_ignore_agent_app_and_thread():
    assert read_filter(Scope(user_id="u1", agent_id="a", thread_id="t")) == Condition(
        "user_id", Operator.EQ, ("u1",)
    )


def test_shared_reads_require_no_user_and_match_given_ids():
    assert read_filter(Scope(agent_id="a")) == AllOf(
        (Condition("user_id", Operator.EQ, ("",)), Condition("agent_id", Operator.EQ, ("a",)))
    )


def test_forget_narrows_by_every_id_given():
    tree = forget_filter(Scope(user_id="u1", agent_id="a", thread_id="t"))
    assert isinstance(tree, AllOf)
    assert {c.field for c in tree.filters if isinstance(c, Condition)} == {
        "user_id",
        "agent_id",
        "thread_id",
    }


@pytest.mark.parametrize(
    ("scope", "field"),
    [
        (Scope(), "scope"),
        (Scope(thread_id="t"), "scope"),
        (Scope(user_id="x" * 129), "scope.user_id"),
        (Scope(user_id="u", agent_id="\x07"), "scope.agent_id"),
    ],
)
def test_bad_scopes_are_rejected(scope, field):
    with pytest.raises(InvalidArgument) as info:
        check_scope(scope, "scope")
    assert info.value.field == field
