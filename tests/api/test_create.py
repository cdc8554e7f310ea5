"""CreateMemory and BatchCreateMemories: outcomes, ids, memory_key and near-duplicate dedup."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from helpers import create, expect_error, field_violations, list_all, new_memory, search


def test_create_stores_memory_with_generated_uuid_and_defaults(stub, user):
    response = create(stub, "The user lives in Lisbon", user=user, thread_id="t1")

    assert response.outcome == svc.WRITE_OUTCOME_CREATED
    memory = response.memory
    assert uuid.UUID(memory.id)
    assert memory.content == "The user lives in Lisbon"
    assert memory.scope.user_id == user and memory.scope.thread_id == "t1"
    assert memory.memory_type == pb.MEMORY_TYPE_EPISODIC
    assert memory.category == "general"
    assert memory.version == 1
    assert memory.create_time == memory.update_time
    assert memory.create_time.seconds > 0


def test_create_honours_caller_id_of_any_printable_form(stub, user):
    for memory_id in ("mem_01HZX-not-a-uuid", "42", "ünïcode id/with:punctuation"):
        response = create(stub, f"Fact number {memory_id}", user=user, memory_id=memory_id)
        assert response.memory.id == memory_id
        got = stub.GetMemory(svc.GetMemoryRequest(id=memory_id, scope=pb.Scope(user_id=user)))
        assert got.memory.content == f"Fact number {memory_id}"


def test_same_id_in_two_users_is_two_memories(stub, user):
    other = f"{user}-other"
    create(stub, "Alice likes tea", user=user, memory_id="pref")
    create(stub, "Bob likes coffee", user=other, memory_id="pref")
    mine = stub.GetMemory(svc.GetMemoryRequest(id="pref", scope=pb.Scope(user_id=user)))
    theirs = stub.GetMemory(svc.GetMemoryRequest(id="pref", scope=pb.Scope(user_id=other)))
    assert mine.memory.content == "Alice likes tea"
    assert theirs.memory.content == "Bob likes coffee"


def test_memory_id_set_inside_memory_is_rejected(stub, user):
    request = new_memory("x marks the spot", user=user)
    request.memory.id = "abc"
    error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, stub.CreateMemory, request)
    assert field_violations(error) == ["memory.id"]
    assert "memory_id" in error.details()


def test_second_create_with_same_key_updates_the_first(stub, user):
    first = create(stub, "The user's timezone is UTC-5", user=user, memory_key="timezone")
    second = create(
        stub,
        "The user's timezone is UTC+1",
        user=user,
        memory_key="timezone",
        metadata={"src": "chat"},
    )

    assert second.outcome == svc.WRITE_OUTCOME_UPDATED_EXISTING
    assert second.memory.id == first.memory.id
    assert second.memory.version == 2
    assert second.memory.content == "The user's timezone is UTC+1"
    assert second.memory.create_time == first.memory.create_time
    assert dict(second.memory.metadata) == {"src": "chat"}
    stored = list_all(stub, pb.Scope(user_id=user))
    assert [m.content for m in stored] == ["The user's timezone is UTC+1"]


def test_same_key_in_another_agent_scope_is_a_separate_memory(stub, user):
    create(stub, "Prefers short answers", user=user, agent_id="a1", memory_key="style")
    other = create(stub, "Prefers detailed answers", user=user, agent_id="a2", memory_key="style")
    assert other.outcome == svc.WRITE_OUTCOME_CREATED
    assert len(list_all(stub, pb.Scope(user_id=user))) == 2


def test_fifty_concurrent_creates_with_one_key_leave_one_record(stub, user):
    def store(i: int) -> svc.CreateMemoryResponse:
        return create(stub, f"Favourite number is {i}", user=user, memory_key="favourite-number")

    with ThreadPoolExecutor(max_workers=50) as pool:
        responses = list(pool.map(store, range(50)))

    stored = list_all(stub, pb.Scope(user_id=user))
    assert len(stored) == 1
    assert {r.memory.id for r in responses} == {stored[0].id}
    assert (
        sorted(r.outcome for r in responses)
        == [svc.WRITE_OUTCOME_CREATED] + [svc.WRITE_OUTCOME_UPDATED_EXISTING] * 49
    )
    assert stored[0].version == 50
    # Writes to one key are serialized, so the stored content is the last applied write.
    last = max(responses, key=lambda r: r.memory.version)
    assert stored[0].content == last.memory.content


def test_near_duplicate_without_key_is_skipped_and_existing_returned(stub, user):
    first = create(stub, "I am allergic to peanuts.", user=user)
    again = create(stub, "I am allergic to peanuts", user=user)

    assert again.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    assert again.memory.id == first.memory.id
    assert again.duplicate_similarity >= 0.95
    assert len(list_all(stub, pb.Scope(user_id=user))) == 1


def test_similar_but_distinct_content_is_stored(stub, user):
    create(stub, "I am allergic to peanuts", user=user)
    other = create(stub, "I am allergic to shellfish", user=user)
    assert other.outcome == svc.WRITE_OUTCOME_CREATED


def test_dedup_threshold_can_be_overridden_per_request(stub, user):
    create(stub, "The user's favourite colour is blue", user=user)
    paraphrase = "Blue is the colour the user likes most"
    lenient = create(stub, paraphrase, user=user, dedup_threshold=0.6)
    assert lenient.outcome == svc.WRITE_OUTCOME_SKIPPED_DUPLICATE
    assert 0.6 <= lenient.duplicate_similarity < 0.95
    strict = create(stub, paraphrase, user=user)
    assert strict.outcome == svc.WRITE_OUTCOME_CREATED


def test_dedup_is_per_scope_and_type(stub, user):
    create(stub, "Deploys happen on Fridays", user=user)
    as_procedural = create(
        stub, "Deploys happen on Fridays", user=user, memory_type=pb.MEMORY_TYPE_PROCEDURAL
    )
    other_user = create(stub, "Deploys happen on Fridays", user=f"{user}-b")
    assert as_procedural.outcome == svc.WRITE_OUTCOME_CREATED
    assert other_user.outcome == svc.WRITE_OUTCOME_CREATED


def test_batch_create_reports_each_outcome_in_order(stub, user):
    requests = [
        new_memory("Works as a nurse", user=user),
        new_memory("Has two cats named Salt and Pepper", user=user),
        new_memory("Works as a nurse", user=user),
        new_memory("Home city is Porto", user=user, memory_key="city"),
        new_memory("Home city is Braga", user=user, memory_key="city"),
    ]
    response = stub.BatchCreateMemories(
        svc.BatchCreateMemoriesRequest(mode=svc.WRITE_MODE_SYNC, requests=requests)
    )

    assert [r.outcome for r in response.results] == [
        svc.WRITE_OUTCOME_CREATED,
        svc.WRITE_OUTCOME_CREATED,
        svc.WRITE_OUTCOME_SKIPPED_DUPLICATE,
        svc.WRITE_OUTCOME_CREATED,
        svc.WRITE_OUTCOME_UPDATED_EXISTING,
    ]
    assert response.results[2].memory.id == response.results[0].memory.id
    contents = sorted(m.content for m in list_all(stub, pb.Scope(user_id=user)))
    assert contents == [
        "Has two cats named Salt and Pepper",
        "Home city is Braga",
        "Works as a nurse",
    ]
    assert search(stub, "What pets does the user have?", user=user)[0].memory.content.startswith(
        "Has two cats"
    )


def test_batch_with_one_bad_item_writes_nothing(stub, user):
    requests = [new_memory("A valid memory", user=user), new_memory("   ", user=user)]
    error = expect_error(
        grpc.StatusCode.INVALID_ARGUMENT,
        stub.BatchCreateMemories,
        svc.BatchCreateMemoriesRequest(mode=svc.WRITE_MODE_SYNC, requests=requests),
    )
    assert field_violations(error) == ["requests[1].memory.content"]
    assert list_all(stub, pb.Scope(user_id=user)) == []


def test_a_create_in_a_batch_cannot_ask_for_another_mode_or_request_id(stub, user):
    def item(content: str, **fields) -> svc.CreateMemoryRequest:
        request = new_memory(content, user=user, mode=svc.WRITE_MODE_UNSPECIFIED)
        for name, value in fields.items():
            setattr(request, name, value)
        return request

    refused = [
        (svc.WRITE_MODE_UNSPECIFIED, "", item("b", mode=svc.WRITE_MODE_SYNC), "mode"),
        (svc.WRITE_MODE_SYNC, "", item("b", mode=svc.WRITE_MODE_ASYNC), "mode"),
        (svc.WRITE_MODE_SYNC, f"{user}-1", item("b", request_id=f"{user}-2"), "request_id"),
        (svc.WRITE_MODE_SYNC, "", item("b", request_id=f"{user}-2"), "request_id"),
    ]
    for mode, request_id, second, field in refused:
        batch = svc.BatchCreateMemoriesRequest(
            requests=[item("Plays chess"), second], mode=mode, request_id=request_id
        )
        error = expect_error(grpc.StatusCode.INVALID_ARGUMENT, stub.BatchCreateMemories, batch)
        assert field_violations(error) == [f"requests[1].{field}"]
        assert "BatchCreateMemoriesRequest" in error.details()
    assert list_all(stub, pb.Scope(user_id=user)) == []

    agreeing = svc.BatchCreateMemoriesRequest(
        requests=[
            item("Plays chess", mode=svc.WRITE_MODE_SYNC, request_id=f"{user}-3"),
            item("Sings in a choir"),
        ],
        mode=svc.WRITE_MODE_SYNC,
        request_id=f"{user}-3",
    )
    outcomes = [r.outcome for r in stub.BatchCreateMemories(agreeing).results]
    assert outcomes == [svc.WRITE_OUTCOME_CREATED] * 2
    unset_means_async = svc.BatchCreateMemoriesRequest(
        requests=[item("Keeps bees", mode=svc.WRITE_MODE_ASYNC)]
    )
    outcomes = [r.outcome for r in stub.BatchCreateMemories(unset_means_async).results]
    assert outcomes == [svc.WRITE_OUTCOME_ACCEPTED]


def test_batch_size_is_limited(stub, user):
    for requests in ([], [new_memory(f"fact {i}", user=user) for i in range(101)]):
        error = expect_error(
            grpc.StatusCode.INVALID_ARGUMENT,
            stub.BatchCreateMemories,
            svc.BatchCreateMemoriesRequest(mode=svc.WRITE_MODE_SYNC, requests=requests),
        )
        assert field_violations(error) == ["requests"]
    assert list_all(stub, pb.Scope(user_id=user)) == []
