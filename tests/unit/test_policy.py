"""core/policy.py: who may read and write which scope."""

from __future__ import annotations

import pytest

from memoryd.core.errors import PermissionDenied, RateLimited
from memoryd.core.model import Scope
from memoryd.core.policy import UNRESTRICTED, Access, Principal, authorize, may
from memoryd.core.ratelimit import RateLimiter

ALICE = Principal("user:alice", user_id="alice")
RUNTIME = Principal("service:runtime", scopes=frozenset({"memory:act_as_user"}))
WRITER = Principal("service:app", scopes=frozenset({"agent_memory:write"}))
ADMIN = Principal("service:ops", scopes=frozenset({"memory:admin"}))
READER = Principal("user:bob", user_id="bob", scopes=frozenset({"agent_memory:read:bot"}))
SHARED = Scope(agent_id="bot")


def test_unrestricted_keeps_the_request_scope():
    assert authorize(UNRESTRICTED, Scope(user_id="x"), Access.WRITE) == Scope(user_id="x")


def test_an_end_user_gets_its_own_user_id_filled_in():
    assert authorize(ALICE, Scope(thread_id="t"), Access.WRITE) == Scope(
        user_id="alice", thread_id="t"
    )


@pytest.mark.parametrize("access", list(Access))
def test_an_end_user_never_acts_for_another(access):
    with pytest.raises(PermissionDenied):
        authorize(ALICE, Scope(user_id="bob"), access)


def test_a_service_acts_as_any_user_only_with_the_grant():
    assert authorize(RUNTIME, Scope(user_id="u9"), Access.WRITE) == Scope(user_id="u9")
    with pytest.raises(PermissionDenied):
        authorize(WRITER, Scope(user_id="u9"), Access.READ)


def test_shared_memory_needs_grants():
    assert may(READER, SHARED, Access.READ)
    assert not may(READER, Scope(agent_id="other"), Access.READ)
    assert not may(READER, SHARED, Access.WRITE)
    assert may(WRITER, SHARED, Access.WRITE) and may(WRITER, SHARED, Access.READ)
    assert not may(RUNTIME, SHARED, Access.READ)


def test_admin_forgets_across_scopes_but_writes_nothing():
    assert may(ADMIN, Scope(user_id="u1"), Access.FORGET)
    assert may(ADMIN, SHARED, Access.FORGET)
    assert not may(ADMIN, Scope(user_id="u1"), Access.WRITE)


def test_rate_limiter_refills_per_principal():
    now = [0.0]
    limiter = RateLimiter(per_second=2, burst=2, clock=lambda: now[0])
    limiter.acquire("a")
    limiter.acquire("a")
    with pytest.raises(RateLimited) as info:
        limiter.acquire("a")
    assert info.value.retry_after == pytest.approx(0.5)
    limiter.acquire("b")
    now[0] = 0.5
    limiter.acquire("a")


def test_rate_limit_zero_is_off():
    limiter = RateLimiter(per_second=0, burst=1)
    for _ in range(100):
        limiter.acquire("a")


def test_forget_by_an_end_user_stays_in_its_own_scope():
    assert authorize(ALICE, Scope(agent_id="", thread_id="t1"), Access.FORGET) == Scope(
        user_id="alice", thread_id="t1"
    )
    assert not may(ALICE, SHARED, Access.FORGET)
