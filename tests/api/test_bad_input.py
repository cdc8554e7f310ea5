"""Bad input: a precise status naming the field, and stored data left intact."""

from __future__ import annotations

import grpc
import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import create, expect_error, field_violations, list_all, new_memory

MAX_CONTENT = 32 * 1024


@pytest.mark.parametrize(
    ("request_", "bad_field"),
    [
        (new_memory("", user="u"), "memory.content"),
        (new_memory(" \n\t ", user="u"), "memory.content"),
        (new_memory("x" * (MAX_CONTENT + 1), user="u"), "memory.content"),
        (new_memory("é" * (MAX_CONTENT // 2 + 1), user="u"), "memory.content"),
        (new_memory("fine"), "memory.scope"),
        (new_memory("fine", thread_id="t"), "memory.scope"),
        (new_memory("fine", user="x" * 129), "memory.scope.user_id"),
        (new_memory("fine", user="line\nbreak"), "memory.scope.user_id"),
        (new_memory("fine", user="u", memory_id="x" * 129), "memory_id"),
        (new_memory("fine", user="u", memory_id="\x00"), "memory_id"),
        (new_memory("fine", user="u", memory_key="k" * 129), "memory.memory_key"),
        (new_memory("fine", user="u", memory_type=42), "memory.memory_type"),
        (new_memory("fine", user="u", category="c" * 129), "memory.category"),
        (new_memory("fine", user="u", metadata={"bad key": 1}), "memory.metadata"),
        (new_memory("fine", user="u", metadata={"blob": "b" * 17_000}), "memory.metadata"),
        (new_memory("fine", user="u", dedup_threshold=1.5), "dedup_threshold"),
        (new_memory("fine", user="u", dedup_threshold=-0.1), "dedup_threshold"),
    ],
)
def test_bad_create_is_invalid_argument_naming_the_field(stub, request_, bad_field):
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, stub.CreateMemory, request_)
    assert field_violations(error) == [bad_field]
    assert bad_field in error.details()


def test_content_at_the_limit_is_accepted(stub, user):
    response = create(stub, "x" * MAX_CONTENT, user=user)
    assert response.outcome == svc.WRITE_OUTCOME_CREATED


@pytest.mark.parametrize(
    "request_",
    [
        svc.SearchMemoriesRequest(query="", scope=pb.Scope(user_id="u")),
        svc.SearchMemoriesRequest(query="q" * (MAX_CONTENT + 1), scope=pb.Scope(user_id="u")),
        svc.SearchMemoriesRequest(query="q", scope=pb.Scope(user_id="u"), score_threshold=2.0),
    ],
)
def test_bad_search_is_invalid_argument(stub, request_):
    expect_error(grpc.StatusCode.INVALID_ARGUMENT, stub.SearchMemories, request_)


def test_an_empty_category_in_a_selection_is_invalid_argument(stub, user):
    create(stub, "Filed under general", user=user)
    scope = pb.Scope(user_id=user)
    selecting_nothing = ["", "general"]
    calls = [
        (stub.ListMemories, svc.ListMemoriesRequest(scope=scope, categories=selecting_nothing)),
        (
            stub.SearchMemories,
            svc.SearchMemoriesRequest(query="general", scope=scope, categories=selecting_nothing),
        ),
        (
            stub.ForgetMemories,
            svc.ForgetMemoriesRequest(
                scope=scope, categories=selecting_nothing, mode=svc.WRITE_MODE_SYNC
            ),
        ),
        (
            lambda r: list(stub.Preload(r)),
            svc.PreloadRequest(query="general", user_scope=scope, categories=selecting_nothing),
        ),
        (
            lambda r: list(stub.ExportMemories(r)),
            svc.ExportMemoriesRequest(scope=scope, categories=selecting_nothing),
        ),
        (lambda r: list(stub.ExportMemories(r)), svc.ExportMemoriesRequest(categories=[""])),
    ]
    for call, request in calls:
        error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request)
        assert field_violations(error) == ["categories[0]"]
        assert "general" in error.details()
    assert [m.content for m in list_all(stub, scope)] == ["Filed under general"]


def test_rejected_requests_leave_stored_data_intact(stub, user):
    kept = create(
        stub, "A memory that must not change", user=user, memory_key="k", metadata={"v": 1}
    ).memory
    bad_requests = [
        (stub.CreateMemory, new_memory("", user=user, memory_key="k")),
        (
            stub.CreateMemory,
            new_memory("new text", user=user, memory_key="k", metadata={"bad key": 1}),
        ),
        (
            stub.UpdateMemory,
            svc.UpdateMemoryRequest(
                mode=svc.WRITE_MODE_SYNC,
                memory=pb.Memory(id=kept.id, scope=pb.Scope(user_id=user), content=""),
            ),
        ),
        (
            stub.UpdateMemory,
            svc.UpdateMemoryRequest(
                mode=svc.WRITE_MODE_SYNC,
                memory=pb.Memory(id=kept.id, scope=pb.Scope(user_id=user), memory_type=99),
            ),
        ),
        (
            stub.ForgetMemories,
            svc.ForgetMemoriesRequest(mode=svc.WRITE_MODE_SYNC, scope=pb.Scope()),
        ),
        (
            stub.DeleteMemory,
            svc.DeleteMemoryRequest(mode=svc.WRITE_MODE_SYNC, id=kept.id, scope=pb.Scope()),
        ),
    ]
    for call, request in bad_requests:
        expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request)
    (stored,) = list_all(stub, pb.Scope(user_id=user))
    assert stored == kept


def test_no_rpc_answers_unknown_for_empty_requests(stub):
    calls = [
        (stub.CreateMemory, svc.CreateMemoryRequest()),
        (stub.BatchCreateMemories, svc.BatchCreateMemoriesRequest()),
        (stub.GetMemory, svc.GetMemoryRequest()),
        (stub.ListMemories, svc.ListMemoriesRequest()),
        (stub.UpdateMemory, svc.UpdateMemoryRequest()),
        (
            stub.DeleteMemory,
            svc.DeleteMemoryRequest(
                mode=svc.WRITE_MODE_SYNC,
            ),
        ),
        (stub.SearchMemories, svc.SearchMemoriesRequest()),
        (
            stub.ForgetMemories,
            svc.ForgetMemoriesRequest(
                mode=svc.WRITE_MODE_SYNC,
            ),
        ),
    ]
    for call, request in calls:
        expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request)
