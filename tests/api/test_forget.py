"""ForgetMemories: delete by scope, narrowed by types, categories and filter."""

from __future__ import annotations

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import condition, create, expect_error, field_violations, list_all


def _forget(stub, **fields):
    scope = pb.Scope(
        **{k: fields.pop(k) for k in ("user_id", "agent_id", "app_id", "thread_id") if k in fields}
    )
    return stub.ForgetMemories(
        svc.ForgetMemoriesRequest(mode=svc.WRITE_MODE_SYNC, scope=scope, **fields)
    ).deleted_count


def test_forget_user_deletes_all_their_memories_and_nothing_else(stub, user):
    other = f"{user}-other"
    for i in range(3):
        create(stub, f"Personal detail number {i} {'z' * i}", user=user)
    create(stub, "Someone else's detail", user=other)
    assert _forget(stub, user_id=user) == 3
    assert list_all(stub, pb.Scope(user_id=user)) == []
    assert len(list_all(stub, pb.Scope(user_id=other))) == 1


def test_dry_run_counts_without_deleting(stub, user):
    create(stub, "Enjoys sailing", user=user)
    create(stub, "Allergic to cats", user=user)
    assert _forget(stub, user_id=user, dry_run=True) == 2
    assert len(list_all(stub, pb.Scope(user_id=user))) == 2


def test_forget_narrows_by_type_category_filter_and_agent(stub, user):
    create(
        stub, "Prefers vim keybindings", user=user, category="tools", metadata={"source": "chat"}
    )
    create(
        stub,
        "Restart with --clean to fix caching",
        user=user,
        memory_type=pb.MEMORY_TYPE_PROCEDURAL,
    )
    create(
        stub,
        "Loves hiking in the Alps",
        user=user,
        agent_id="travel-bot",
        metadata={"source": "import"},
    )
    create(stub, "Birthday is in May", user=user, metadata={"source": "import"})

    assert _forget(stub, user_id=user, memory_types=[pb.MEMORY_TYPE_PROCEDURAL]) == 1
    assert _forget(stub, user_id=user, categories=["tools"]) == 1
    assert _forget(stub, user_id=user, agent_id="travel-bot") == 1
    assert (
        _forget(
            stub,
            user_id=user,
            filter=condition("metadata.source", pb.COMPARISON_OPERATOR_EQ, "import"),
        )
        == 1
    )
    assert list_all(stub, pb.Scope(user_id=user)) == []


def test_forget_agent_scope_leaves_user_memories_alone(stub, user):
    agent = f"agent-{user}"
    create(stub, "House rule: be concise", agent_id=agent)
    create(stub, "The user told this agent about their dog", user=user, agent_id=agent)
    assert _forget(stub, agent_id=agent) == 1
    assert len(list_all(stub, pb.Scope(user_id=user))) == 1
    assert list_all(stub, pb.Scope(agent_id=agent)) == []


def test_forget_requires_a_scope(stub, user):
    create(stub, "Must survive a bad forget", user=user)
    for fields in ({}, {"thread_id": "t1"}):
        error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, _forget, stub, **fields)
        assert field_violations(error) == ["scope"]
    assert len(list_all(stub, pb.Scope(user_id=user))) == 1


def test_forget_with_malformed_filter_deletes_nothing(stub, user):
    create(stub, "Must survive a malformed forget", user=user)
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        _forget,
        stub,
        user_id=user,
        filter=condition("metadata.x", pb.COMPARISON_OPERATOR_LT, "text"),
    )
    assert field_violations(error) == ["filter.condition.values"]
    assert len(list_all(stub, pb.Scope(user_id=user))) == 1
