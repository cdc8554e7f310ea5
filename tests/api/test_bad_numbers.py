"""Regressions: numbers, times and tokens the fuzzer (tests/security/test_fuzz.py) and
its audit found answering INTERNAL. Each is INVALID_ARGUMENT naming the field (or
NOT_FOUND for a write status), and leaves the stored data as it was.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any

import grpc
import pytest
from google.protobuf import field_mask_pb2, timestamp_pb2

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import create, expect_error, field_violations, list_all, new_memory

#: google.protobuf.Timestamp's documented range: 0001-01-01T00:00:00Z to
#: 9999-12-31T23:59:59.999999999Z.
MIN_SECONDS = -62_135_596_800
MAX_SECONDS = 253_402_300_799


@pytest.fixture
def stored(stub, user) -> list[pb.Memory]:
    """Two memories of a fresh user, to check nothing changes."""
    create(stub, "Likes hiking in the mountains", user=user, metadata={"n": 1})
    create(stub, "Prefers green tea in the morning", user=user, metadata={"n": 2})
    return list_all(stub, pb.Scope(user_id=user))


def _assert_invalid(call: Any, request: Any, field: str) -> None:
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request)
    assert field_violations(error) == [field]
    assert field in error.details()


# --- metadata numbers: JSON has no NaN or infinity ------------------------------


@pytest.mark.parametrize(
    ("metadata", "bad_field"),
    [
        # Found by the fuzzer: {"fuzz-seed-user": inf} answered INTERNAL.
        ({"fuzz-seed-user": math.inf}, "memory.metadata.fuzz-seed-user"),
        ({"n": -math.inf}, "memory.metadata.n"),
        ({"n": math.nan}, "memory.metadata.n"),
        ({"tags": ["a", 1, math.inf]}, "memory.metadata.tags[2]"),
        ({"outer": {"inner": math.nan}}, "memory.metadata.outer.inner"),
    ],
)
def test_create_with_a_non_finite_metadata_number_names_it(stub, user, stored, metadata, bad_field):
    request = new_memory("Works night shifts", user=user, metadata=metadata)
    _assert_invalid(stub.CreateMemory, request, bad_field)
    assert list_all(stub, pb.Scope(user_id=user)) == stored


def test_batch_with_one_non_finite_metadata_number_writes_nothing(stub, user, stored):
    request = svc.BatchCreateMemoriesRequest(
        requests=[
            new_memory("Works night shifts", user=user),
            new_memory("Lives in Toronto", user=user, metadata={"x": math.inf}),
        ],
        mode=svc.WRITE_MODE_SYNC,
    )
    _assert_invalid(stub.BatchCreateMemories, request, "requests[1].memory.metadata.x")
    assert list_all(stub, pb.Scope(user_id=user)) == stored


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_update_with_a_non_finite_metadata_number_names_it(stub, user, stored, value):
    memory = pb.Memory(id=stored[0].id, scope=pb.Scope(user_id=user))
    memory.metadata.update({"n": value})
    request = svc.UpdateMemoryRequest(
        memory=memory,
        update_mask=field_mask_pb2.FieldMask(paths=["metadata"]),
        mode=svc.WRITE_MODE_SYNC,
    )
    _assert_invalid(stub.UpdateMemory, request, "memory.metadata.n")
    assert list_all(stub, pb.Scope(user_id=user)) == stored


# --- filter times: Timestamp's documented range ---------------------------------


def _created_after(seconds: int, nanos: int = 0) -> pb.Filter:
    time = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    return pb.Filter(
        condition=pb.Condition(
            field="create_time",
            operator=pb.COMPARISON_OPERATOR_GT,
            values=[pb.FilterValue(time_value=time)],
        )
    )


OUT_OF_RANGE = [
    # Found by the fuzzer: SearchMemories with seconds = -2**63 answered INTERNAL.
    pytest.param(-(2**63), 0, id="seconds=-2**63"),
    pytest.param(2**63 - 1, 0, id="seconds=2**63-1"),
    pytest.param(MIN_SECONDS - 1, 0, id="just-before-0001"),
    pytest.param(MAX_SECONDS + 1, 0, id="just-after-9999"),
    pytest.param(0, -1, id="negative-nanos"),
    pytest.param(0, 1_000_000_000, id="nanos-of-a-whole-second"),
]
BAD_TIME = "filter.condition.values[0].time_value"


@pytest.mark.parametrize(("seconds", "nanos"), OUT_OF_RANGE)
def test_filter_time_outside_the_timestamp_range_names_it_on_every_rpc(
    stub, user, stored, seconds, nanos
):
    where = _created_after(seconds, nanos)
    scope = pb.Scope(user_id=user)
    _assert_invalid(
        stub.SearchMemories,
        svc.SearchMemoriesRequest(query="tea", scope=scope, filter=where),
        BAD_TIME,
    )
    _assert_invalid(stub.ListMemories, svc.ListMemoriesRequest(scope=scope, filter=where), BAD_TIME)
    forget = svc.ForgetMemoriesRequest(scope=scope, filter=where, mode=svc.WRITE_MODE_SYNC)
    _assert_invalid(stub.ForgetMemories, forget, BAD_TIME)
    assert list_all(stub, scope) == stored


def test_filter_times_at_the_edges_of_the_timestamp_range_are_accepted(stub, user, stored):
    scope = pb.Scope(user_id=user)
    since_year_one = svc.ListMemoriesRequest(scope=scope, filter=_created_after(MIN_SECONDS))
    assert list(stub.ListMemories(since_year_one).memories) == stored
    last = _created_after(MAX_SECONDS, 999_999_999)
    assert not stub.SearchMemories(
        svc.SearchMemoriesRequest(query="tea", scope=scope, filter=last)
    ).results
    # Just outside either edge is refused (this answered INTERNAL).
    for seconds, nanos in ((MIN_SECONDS - 1, 0), (MAX_SECONDS, 1_000_000_000)):
        request = svc.ListMemoriesRequest(scope=scope, filter=_created_after(seconds, nanos))
        _assert_invalid(stub.ListMemories, request, BAD_TIME)


# --- page tokens: opaque, but not signed, so a client can edit one --------------


def _edited(token: str, **fields: Any) -> str:
    body = json.loads(base64.urlsafe_b64decode(token))
    return base64.urlsafe_b64encode(json.dumps({**body, **fields}).encode()).decode()


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param({"t": 10**30}, id="time-past-any-datetime"),
        pytest.param({"t": -(10**30)}, id="time-before-any-datetime"),
        pytest.param({"t": 253_402_300_800 * 10**6}, id="year-10000"),
        pytest.param({"ids": ["not-a-point-id"]}, id="id-not-a-uuid"),
        pytest.param({"ids": [1, 2]}, id="ids-not-strings"),
    ],
)
def test_an_edited_page_token_is_invalid_argument(stub, user, stored, edit):
    scope = pb.Scope(user_id=user)
    first = stub.ListMemories(svc.ListMemoriesRequest(scope=scope, page_size=1))
    request = svc.ListMemoriesRequest(
        scope=scope, page_size=1, page_token=_edited(first.next_page_token, **edit)
    )
    _assert_invalid(stub.ListMemories, request, "page_token")
    # The untouched token still pages on.
    rest = stub.ListMemories(
        svc.ListMemoriesRequest(scope=scope, page_size=1, page_token=first.next_page_token)
    )
    assert [*first.memories, *rest.memories] == stored


# --- write tokens: "<journal id>-<seq>" -----------------------------------------


@pytest.mark.parametrize(
    "seq",
    [
        pytest.param("²", id="superscript-two"),  # str.isdigit() passes it; int() refuses it
        pytest.param("9" * 30, id="past-sqlite-integer"),
        pytest.param(str(2**63), id="2**63"),
    ],
)
def test_a_write_token_naming_no_storable_seq_is_not_found(stub, user, seq):
    journal = create(stub, "Likes hiking", user=user).write_token.rpartition("-")[0]
    request = svc.GetWriteStatusRequest(write_token=f"{journal}-{seq}")
    expect_error(grpc.StatusCode.NOT_FOUND, stub.GetWriteStatus, request)


@pytest.mark.parametrize(
    "seq",
    [
        pytest.param("²", id="superscript-two"),
        pytest.param("9" * 30, id="past-sqlite-integer"),
        # A seq the journal has not reached: the read waited out its deadline for it.
        pytest.param(str(2**63 - 1), id="never-issued"),
    ],
)
def test_a_consistency_token_naming_no_write_is_invalid_argument(stub, user, stored, seq):
    journal = create(stub, "Likes hiking", user=user).write_token.rpartition("-")[0]
    scope = pb.Scope(user_id=user)
    token = f"{journal}-{seq}"
    reads = [
        (
            stub.GetMemory,
            svc.GetMemoryRequest(id=stored[0].id, scope=scope, consistency_token=token),
        ),
        (stub.ListMemories, svc.ListMemoriesRequest(scope=scope, consistency_token=token)),
        (
            stub.SearchMemories,
            svc.SearchMemoriesRequest(query="tea", scope=scope, consistency_token=token),
        ),
    ]
    for call, request in reads:
        error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, call, request, timeout=10)
        assert field_violations(error) == ["consistency_token"]
    # Preload refuses the request before its first event, not scope by scope.
    received: list[svc.PreloadResponse] = []
    preload = svc.PreloadRequest(query="tea", user_scope=scope, consistency_token=token)
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        lambda: received.extend(stub.Preload(preload, timeout=10)),
    )
    assert field_violations(error) == ["consistency_token"]
    assert received == []
