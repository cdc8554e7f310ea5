"""SearchMemories: meaning, ordering, scoping and typed filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import grpc
import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import condition, create, expect_error, field_violations, search

FACTS = [
    "The user is in the UTC-5 timezone",
    "The user is vegetarian and avoids fish",
    "The user's daughter is called Maya",
    "The user drives a blue Volvo estate",
    "The user plays the cello in an amateur orchestra",
    "The user is learning Japanese on weekday evenings",
    "The user's favourite editor is Neovim",
]


@pytest.fixture
def seeded(stub, user):
    for fact in FACTS:
        create(stub, fact, user=user)
    return user


def test_search_finds_memory_by_meaning(stub, seeded):
    results = search(stub, "What timezone is the user in?", user=seeded)
    assert results[0].memory.content == "The user is in the UTC-5 timezone"


def test_results_are_sorted_by_score_within_0_and_1(stub, seeded):
    results = search(stub, "What does the user eat?", user=seeded, limit=7)
    scores = [r.score for r in results]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert results[0].memory.content == "The user is vegetarian and avoids fish"


def test_limit_defaults_to_five_and_caps_results(stub, seeded):
    assert len(search(stub, "the user", user=seeded)) == 5
    assert len(search(stub, "the user", user=seeded, limit=2)) == 2
    assert len(search(stub, "the user", user=seeded, limit=100)) == len(FACTS)


@pytest.mark.parametrize("limit", [-1, 101, 1000])
def test_limit_out_of_range_is_rejected(stub, user, limit):
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id=user), limit=limit),
    )
    assert field_violations(error) == ["limit"]


def test_score_threshold_drops_weak_matches(stub, seeded):
    everything = search(stub, "What timezone is the user in?", user=seeded, limit=7)
    threshold = (everything[0].score + everything[1].score) / 2
    strong = search(
        stub, "What timezone is the user in?", user=seeded, limit=7, score_threshold=threshold
    )
    assert [r.memory.id for r in strong] == [everything[0].memory.id]


def test_thread_id_is_not_a_read_filter_for_user_memory(stub, user):
    create(stub, "The user's cat is named Miso", user=user, thread_id="t1")
    results = search(stub, "What is the cat called?", user=user, thread_id="t2")
    assert results and results[0].memory.content == "The user's cat is named Miso"


def test_other_users_memories_never_appear(stub, user):
    other = f"{user}-other"
    create(stub, "The user's cat is named Miso", user=other)
    create(stub, "The user likes hiking", user=user)
    results = search(stub, "What is the cat called?", user=user, limit=100)
    assert [r.memory.content for r in results] == ["The user likes hiking"]


def test_agent_scope_searches_shared_memory_only(stub, user):
    agent = f"agent-{user}"
    create(stub, "Refunds above 100 EUR need a manager", agent_id=agent)
    create(stub, "Refunds: the user wants store credit", user=user, agent_id=agent)
    create(stub, "Refund policy of another agent", agent_id=f"{agent}-other")

    shared = search(stub, "refund rules", agent_id=agent, limit=100)
    assert [r.memory.content for r in shared] == ["Refunds above 100 EUR need a manager"]
    assert all(r.memory.scope.user_id == "" for r in shared)

    users = search(stub, "refund rules", user=user, agent_id=agent, limit=100)
    assert [r.memory.content for r in users] == ["Refunds: the user wants store credit"]


def test_app_scope_narrows_shared_memory(stub, user):
    agent = f"agent-{user}"
    create(stub, "Support hours are 9 to 5", agent_id=agent, app_id="web")
    create(stub, "Support hours are 24/7", agent_id=agent, app_id="phone")
    web = search(stub, "When is support open?", agent_id=agent, app_id="web", limit=10)
    both = search(stub, "When is support open?", agent_id=agent, limit=10)
    assert [r.memory.content for r in web] == ["Support hours are 9 to 5"]
    assert len(both) == 2


def test_empty_scope_is_rejected(stub):
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(query="anything", scope=pb.Scope(thread_id="t1")),
    )
    assert field_violations(error) == ["scope"]


def test_type_and_category_filters(stub, user):
    create(
        stub,
        "Restart the VPN to fix the build",
        user=user,
        memory_type=pb.MEMORY_TYPE_PROCEDURAL,
        category="workarounds",
    )
    create(
        stub,
        "The build server is in Frankfurt",
        user=user,
        memory_type=pb.MEMORY_TYPE_SEMANTIC,
        category="infra",
    )
    procedural = search(stub, "build", user=user, memory_types=[pb.MEMORY_TYPE_PROCEDURAL])
    infra = search(stub, "build", user=user, categories=["infra"])
    both = search(stub, "build", user=user, categories=["infra", "workarounds"])
    assert [r.memory.content for r in procedural] == ["Restart the VPN to fix the build"]
    assert [r.memory.content for r in infra] == ["The build server is in Frankfurt"]
    assert len(both) == 2


@pytest.fixture
def tagged(stub, user):
    create(
        stub,
        "Plan: pro, 5 seats, active",
        user=user,
        metadata={"plan": "pro", "seats": 5, "active": True, "org": {"tier": "gold"}},
    )
    create(
        stub,
        "Plan: free, 1 seat, inactive",
        user=user,
        metadata={"plan": "free", "seats": 1, "active": False},
    )
    create(
        stub, "Plan: team, 12.5 seats, no flag", user=user, metadata={"plan": "team", "seats": 12.5}
    )
    return user


def _matching(stub, user, where):
    results = search(stub, "plan seats", user=user, limit=10, filter=where)
    return sorted(r.memory.content.split(",")[0].removeprefix("Plan: ") for r in results)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ, "pro"), ["pro"]),
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_NE, "pro"), ["free", "team"]),
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_IN, "pro", "team"), ["pro", "team"]),
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_NOT_IN, "pro", "team"), ["free"]),
        (condition("metadata.seats", pb.COMPARISON_OPERATOR_EQ, 5), ["pro"]),
        (condition("metadata.seats", pb.COMPARISON_OPERATOR_GT, 5), ["team"]),
        (condition("metadata.seats", pb.COMPARISON_OPERATOR_GTE, 5), ["pro", "team"]),
        (condition("metadata.seats", pb.COMPARISON_OPERATOR_LT, 5), ["free"]),
        (condition("metadata.seats", pb.COMPARISON_OPERATOR_LTE, 5), ["free", "pro"]),
        (condition("metadata.active", pb.COMPARISON_OPERATOR_EQ, True), ["pro"]),
        (condition("metadata.active", pb.COMPARISON_OPERATOR_NE, True), ["free", "team"]),
        (condition("metadata.active", pb.COMPARISON_OPERATOR_EXISTS), ["free", "pro"]),
        (condition("metadata.org.tier", pb.COMPARISON_OPERATOR_EQ, "gold"), ["pro"]),
        (
            pb.Filter(
                all=pb.FilterList(
                    filters=[
                        condition("metadata.seats", pb.COMPARISON_OPERATOR_GTE, 1),
                        pb.Filter(
                            not_=condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ, "free")
                        )
                        if False
                        else pb.Filter(
                            **{"not": condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ, "free")}
                        ),
                    ]
                )
            ),
            ["pro", "team"],
        ),
        (
            pb.Filter(
                any=pb.FilterList(
                    filters=[
                        condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ, "free"),
                        condition("metadata.seats", pb.COMPARISON_OPERATOR_GT, 10),
                    ]
                )
            ),
            ["free", "team"],
        ),
    ],
)
def test_metadata_filter_operators(stub, tagged, where, expected):
    assert _matching(stub, tagged, where) == expected


def test_time_filters(stub, user):
    create(stub, "Something old enough", user=user)
    now = datetime.now(UTC)
    later = pb.FilterValue()
    later.time_value.FromDatetime(now + timedelta(hours=1))
    earlier = pb.FilterValue()
    earlier.time_value.FromDatetime(now - timedelta(hours=1))
    after_now = pb.Filter(
        condition=pb.Condition(
            field="create_time", operator=pb.COMPARISON_OPERATOR_GT, values=[later]
        )
    )
    since_hour = pb.Filter(
        condition=pb.Condition(
            field="update_time", operator=pb.COMPARISON_OPERATOR_GTE, values=[earlier]
        )
    )
    assert search(stub, "old", user=user, filter=after_now) == []
    assert len(search(stub, "old", user=user, filter=since_hour)) == 1


@pytest.mark.parametrize(
    ("where", "bad_field"),
    [
        (pb.Filter(), "filter"),
        (condition("plan", pb.COMPARISON_OPERATOR_EQ, "pro"), "filter.condition.field"),
        (
            condition("metadata.plan", pb.COMPARISON_OPERATOR_UNSPECIFIED, "pro"),
            "filter.condition.operator",
        ),
        (
            pb.Filter(condition=pb.Condition(field="metadata.x", operator=99)),
            "filter.condition.operator",
        ),
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ), "filter.condition.values"),
        (
            condition("metadata.plan", pb.COMPARISON_OPERATOR_EQ, "a", "b"),
            "filter.condition.values",
        ),
        (condition("metadata.plan", pb.COMPARISON_OPERATOR_GT, "pro"), "filter.condition.values"),
        (
            condition("metadata.plan", pb.COMPARISON_OPERATOR_IN, "pro", 3),
            "filter.condition.values",
        ),
        (
            condition("metadata.plan", pb.COMPARISON_OPERATOR_EXISTS, "pro"),
            "filter.condition.values",
        ),
        (condition("create_time", pb.COMPARISON_OPERATOR_GT, 5), "filter.condition.values"),
        (
            condition("metadata.n", pb.COMPARISON_OPERATOR_EQ, float("nan")),
            "filter.condition.values",
        ),
        (
            pb.Filter(
                condition=pb.Condition(
                    field="metadata.x",
                    operator=pb.COMPARISON_OPERATOR_EQ,
                    values=[pb.FilterValue()],
                )
            ),
            "filter.condition.values[0]",
        ),
        (pb.Filter(all=pb.FilterList()), "filter.all"),
    ],
)
def test_malformed_filter_is_rejected_with_the_field_named(stub, user, where, bad_field):
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id=user), filter=where),
    )
    assert field_violations(error) == [bad_field]


def test_too_deep_or_too_wide_filters_are_rejected(stub, user):
    deep = condition("metadata.a", pb.COMPARISON_OPERATOR_EQ, "x")
    for _ in range(8):
        deep = pb.Filter(**{"not": deep})
    wide = pb.Filter(
        any=pb.FilterList(
            filters=[condition("metadata.a", pb.COMPARISON_OPERATOR_EQ, str(i)) for i in range(65)]
        )
    )
    for where in (deep, wide):
        error = expect_error(
            grpc.StatusCode.INVALID_ARGUMENT,
            stub.SearchMemories,
            svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id=user), filter=where),
        )
        assert "filter" in field_violations(error)[0]


def test_unspecified_memory_type_in_filter_is_rejected(stub, user):
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(
            query="q", scope=pb.Scope(user_id=user), memory_types=[pb.MEMORY_TYPE_UNSPECIFIED]
        ),
    )
    assert field_violations(error) == ["memory_types[0]"]


def test_max_tokens_keeps_the_best_results_that_fit_as_a_plain_preload_does(stub, seeded):
    query = "What does the user do in the evenings?"
    everything = search(stub, query, user=seeded, limit=len(FACTS))
    assert len(everything) == len(FACTS)
    kept_counts = set()
    for budget in (1, 8, 20, 40):
        kept = search(stub, query, user=seeded, limit=len(FACTS), max_tokens=budget)
        assert [r.memory.id for r in kept] == [r.memory.id for r in everything[: len(kept)]]
        (context,) = [
            event.context
            for event in stub.Preload(
                svc.PreloadRequest(
                    query=query,
                    user_scope=pb.Scope(user_id=seeded),
                    limit=len(FACTS),
                    max_tokens=budget,
                    format=svc.PRELOAD_FORMAT_PLAIN,
                )
            )
            if event.WhichOneof("event") == "context"
        ]
        assert [r.memory.id for r in kept] == list(context.memory_ids)
        kept_counts.add(len(kept))
    assert len(kept_counts) > 2  # the budgets really cut at different places
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.SearchMemories,
        svc.SearchMemoriesRequest(query=query, scope=pb.Scope(user_id=seeded), max_tokens=-1),
    )
    assert field_violations(error) == ["max_tokens"]
