"""ListMemories: a real scroll, newest first, paged and filterable."""

from __future__ import annotations

import grpc
import pytest

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from helpers import condition, create, expect_error, field_violations, list_all
from support import ServerProcess


def _page(stub, user, **fields):
    return stub.ListMemories(svc.ListMemoriesRequest(scope=pb.Scope(user_id=user), **fields))


def test_list_is_newest_first_and_pages_without_loss_or_repeat(stub, user):
    requests = [
        svc.CreateMemoryRequest(
            memory=pb.Memory(
                content=f"Distinct fact number {i}: {'abcdefghijklmnopqrstuvw'[i]}",
                scope=pb.Scope(user_id=user),
            ),
            memory_id=f"m{i:02d}",
        )
        for i in range(23)
    ]
    # One batch gives many memories the same create_time down to the
    # microsecond or close to it, which exercises paging across ties.
    stub.BatchCreateMemories(
        svc.BatchCreateMemoriesRequest(mode=svc.WRITE_MODE_SYNC, requests=requests)
    )

    seen: list[pb.Memory] = []
    token = ""
    pages = 0
    while True:
        page = _page(stub, user, page_size=5, page_token=token)
        assert len(page.memories) <= 5
        seen.extend(page.memories)
        pages += 1
        token = page.next_page_token
        if not token:
            break
    assert pages == 5
    assert sorted(m.id for m in seen) == [f"m{i:02d}" for i in range(23)]
    times = [(m.create_time.seconds, m.create_time.nanos) for m in seen]
    assert times == sorted(times, reverse=True)


def test_list_returns_later_creates_first(stub, user):
    for content in ("First thing said", "Second, unrelated remark", "Third and latest note"):
        create(stub, content, user=user)
    assert [m.content for m in _page(stub, user).memories] == [
        "Third and latest note",
        "Second, unrelated remark",
        "First thing said",
    ]


def test_last_page_has_no_token_and_empty_scope_lists_nothing(stub, user):
    create(stub, "Only memory", user=user)
    page = _page(stub, user, page_size=1)
    assert len(page.memories) == 1 and page.next_page_token == ""
    assert list(_page(stub, f"{user}-nobody").memories) == []


def test_list_filters_by_type_category_and_metadata(stub, user):
    create(
        stub,
        "Use pnpm, not npm",
        user=user,
        memory_type=pb.MEMORY_TYPE_PROCEDURAL,
        category="tools",
        metadata={"lang": "js"},
    )
    create(
        stub,
        "Prefers pytest",
        user=user,
        memory_type=pb.MEMORY_TYPE_DECLARATIVE,
        category="tools",
        metadata={"lang": "py"},
    )
    create(stub, "Lives in Oslo", user=user, category="personal")
    assert [
        m.content for m in _page(stub, user, memory_types=[pb.MEMORY_TYPE_PROCEDURAL]).memories
    ] == ["Use pnpm, not npm"]
    assert len(_page(stub, user, categories=["tools"]).memories) == 2
    where = condition("metadata.lang", pb.COMPARISON_OPERATOR_EQ, "py")
    assert [m.content for m in _page(stub, user, filter=where).memories] == ["Prefers pytest"]


def test_page_size_zero_means_default_and_huge_is_clamped(stub, user):
    create(stub, "Only one here", user=user)
    assert len(_page(stub, user, page_size=0).memories) == 1
    assert len(_page(stub, user, page_size=1_000_000).memories) == 1


def test_negative_page_size_is_rejected(stub, user):
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, _page, stub, user, page_size=-1)
    assert field_violations(error) == ["page_size"]


@pytest.mark.parametrize("token", ["garbage", "eyJ4IjoxfQ=="])
def test_malformed_page_token_is_rejected(stub, user, token):
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, _page, stub, user, page_token=token)
    assert field_violations(error) == ["page_token"]


def test_page_token_of_another_query_is_rejected(stub, user):
    for i in range(3):
        create(stub, f"Note {i} about something else entirely {i * 'x'}", user=user)
    token = _page(stub, user, page_size=1).next_page_token
    assert token
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        _page,
        stub,
        f"{user}-other",
        page_size=1,
        page_token=token,
    )
    assert "different query" in error.details()


def test_list_all_helper_sees_every_memory(stub, user):
    for i in range(7):
        create(stub, f"Separate memory {i} {'y' * i}", user=user)
    assert len(list_all(stub, pb.Scope(user_id=user), page_size=2)) == 7


def test_a_page_too_large_for_one_answer_ends_early_and_the_rest_follows(tmp_path):
    limit = 256 * 1024
    process = ServerProcess(tmp_path, env={"MEMORYD_MAX_MESSAGE_BYTES": str(limit)}).start()
    try:
        with process.channel() as channel:
            stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
            scope = pb.Scope(user_id="big")
            # 30 memories of 20 KB: 600 KB, more than one answer may carry.
            requests = [
                svc.CreateMemoryRequest(
                    memory=pb.Memory(
                        content=" ".join(f"m{i}w{j:04d}" for j in range(2000))[:20_000],
                        scope=scope,
                        memory_key=f"k{i}",
                    )
                )
                for i in range(30)
            ]
            for first in range(0, 30, 10):  # each batch under the limit itself
                stub.BatchCreateMemories(
                    svc.BatchCreateMemoriesRequest(
                        requests=requests[first : first + 10], mode=svc.WRITE_MODE_SYNC
                    ),
                    timeout=300,
                )
            seen, token, pages = [], "", []
            while True:
                page = stub.ListMemories(
                    svc.ListMemoriesRequest(scope=scope, page_size=1000, page_token=token)
                )
                assert page.ByteSize() <= limit
                pages.append(len(page.memories))
                seen.extend(m.memory_key for m in page.memories)
                token = page.next_page_token
                if not token:
                    break
            assert len(pages) > 1
            assert sorted(seen) == sorted(f"k{i}" for i in range(30))
    finally:
        assert process.stop() == 0
