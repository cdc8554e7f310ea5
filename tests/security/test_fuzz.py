"""Hypothesis fuzzing: request messages of every RPC, built from the contract itself.

Every field of every request gets random strings and unicode, huge values,
negative and extreme numbers, undefined enum values and deep filters. Every
answer must be a defined status (never UNKNOWN or INTERNAL), the server must
stay up, and a rejected request must leave the data set unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor, field_mask_pb2, message_factory, struct_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memoryd.testing import ServerProcess
from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd.v1 import memory_service_pb2_grpc

from authkit import CALLERS, code_of

Stub = memory_service_pb2_grpc.MemoryServiceStub
SEED_USER = "fuzz-seed-user"
EXAMPLES_PER_RPC = 120
SERVICE = svc.DESCRIPTOR.services_by_name["MemoryService"]
NEVER = {grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL}
FD = descriptor.FieldDescriptor

#: Values that reach interesting branches: the seeded owner, wildcards, paths,
#: control characters, the id length limit and sizes past the content limit.
SPECIAL_TEXT = [
    SEED_USER,
    "",
    " ",
    "\x00",
    "*",
    "%",
    ".*",
    "user_id",
    "metadata.a",
    "metadata.",
    "create_time",
    "content",
    "../../etc/passwd",
    "\u202e\u0301\U0001f600",
    "a" * 129,
    "x" * 40_000,
]
SEED_IDS = [f"seed-{i}" for i in range(5)]
texts = st.one_of(
    st.sampled_from(SPECIAL_TEXT),
    st.from_regex(r"[a-z0-9_-]{1,20}", fullmatch=True),
    st.text(max_size=24),
    st.text(st.characters(codec="utf-8"), min_size=100, max_size=400),
)
#: Valid values for fields known by name, so that requests also get past
#: validation and reach the index, the journal and the policy.
VALID_BY_NAME: dict[str, st.SearchStrategy[Any]] = {
    "content": st.text(min_size=1, max_size=120).filter(str.strip),
    "query": st.text(min_size=1, max_size=120).filter(str.strip),
    "id": st.sampled_from(SEED_IDS),
    "memory_id": st.sampled_from(SEED_IDS),
    "user_id": st.just(SEED_USER),
    "paths": st.sampled_from(["content", "metadata", "category", "memory_type", "scope"]),
    "field": st.sampled_from(["metadata.a", "metadata.n", "create_time", "update_time"]),
}
json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | texts,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=12,
)


def _scalar(field: descriptor.FieldDescriptor) -> st.SearchStrategy[Any]:
    match field.type:
        case FD.TYPE_STRING:
            return texts
        case FD.TYPE_BYTES:
            return st.binary(max_size=32)
        case FD.TYPE_BOOL:
            return st.booleans()
        case FD.TYPE_ENUM:
            defined = [v.number for v in field.enum_type.values]
            return st.sampled_from(defined) | st.integers(-3, 40)
        case FD.TYPE_FLOAT:
            return st.floats(width=32)
        case FD.TYPE_DOUBLE:
            return st.floats()
        case FD.TYPE_INT32 | FD.TYPE_SINT32 | FD.TYPE_SFIXED32:
            return st.integers(-4, 12) | st.sampled_from([-(2**31), 2**31 - 1, 1001, 100_000])
        case FD.TYPE_INT64 | FD.TYPE_SINT64 | FD.TYPE_SFIXED64:
            return st.integers(-4, 12) | st.sampled_from([-(2**63), 2**63 - 1, 10**12])
        case _:
            return st.integers(0, 2**32 - 1)


def messages(message: descriptor.Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """Any message of this type: each field absent or random, to a bounded depth."""
    cls = message_factory.GetMessageClass(message)
    if message.full_name == "google.protobuf.Struct":
        return st.dictionaries(texts, json_values, max_size=6).map(_struct)
    if message.full_name == "memoryd.v1.Filter" and depth < 6:
        return st.one_of(_generic(message, cls, depth), deep_filters())
    return _generic(message, cls, depth)


def _generic(message: descriptor.Descriptor, cls: Any, depth: int) -> st.SearchStrategy[Any]:
    optional = {}
    for field in message.fields:
        if field.type == FD.TYPE_MESSAGE:
            if depth >= 6:
                continue
            value = st.deferred(lambda f=field: messages(f.message_type, depth + 1))
        else:
            value = _scalar(field)
        if field.name in VALID_BY_NAME:
            value = VALID_BY_NAME[field.name] | value
        if field.is_repeated:
            value = st.lists(value, max_size=3 if depth < 3 else 1)
        optional[field.name] = value
    return st.fixed_dictionaries({}, optional=optional).map(lambda fields: _build(cls, fields))


def _build(cls: Any, fields: dict[str, Any], *, replace: bool = False) -> Any:
    """A new message of ``cls`` with ``fields`` set; with ``replace``, ``cls``
    is an existing message whose fields are set in place."""
    built = cls if replace else cls()
    for name, value in fields.items():
        target = getattr(built, name)
        if isinstance(value, list):
            del target[:]
            for item in value:
                if hasattr(item, "DESCRIPTOR"):
                    target.add().CopyFrom(item)
                else:
                    target.append(item)
        elif hasattr(value, "DESCRIPTOR"):
            target.CopyFrom(value)
        else:
            setattr(built, name, value)
    return built


def _struct(values: dict[str, Any]) -> struct_pb2.Struct:
    holder = struct_pb2.Struct()
    holder.update(values)
    return holder


def deep_filters() -> st.SearchStrategy[pb.Filter]:
    """A filter nested far deeper than any real one (wire parsers stop at 100)."""

    def nest(levels: int) -> pb.Filter:
        # Built in place: copying a message this deep would parse it again.
        root = node = pb.Filter()
        for i in range(levels):
            node = getattr(node, "not") if i % 2 else node.all.filters.add()
        node.condition.field = "metadata.a"
        node.condition.operator = pb.COMPARISON_OPERATOR_EQ
        node.condition.values.add(string_value="v")
        return root

    return st.integers(1, 150).map(nest)


def _bases() -> dict[str, Any]:
    """A valid request of each RPC, for the mutations to start from."""
    scope = pb.Scope(user_id=SEED_USER)
    sync = svc.WRITE_MODE_SYNC
    memory = pb.Memory(content="likes tea in the morning", scope=scope)
    return {
        "CreateMemory": svc.CreateMemoryRequest(memory=memory, mode=sync),
        "BatchCreateMemories": svc.BatchCreateMemoriesRequest(
            requests=[svc.CreateMemoryRequest(memory=memory)], mode=sync
        ),
        "GetMemory": svc.GetMemoryRequest(id="seed-0", scope=scope),
        "ListMemories": svc.ListMemoriesRequest(scope=scope),
        "UpdateMemory": svc.UpdateMemoryRequest(
            memory=pb.Memory(id="seed-1", scope=scope, content="likes green tea"),
            update_mask=field_mask_pb2.FieldMask(paths=["content"]),
            mode=sync,
        ),
        "DeleteMemory": svc.DeleteMemoryRequest(id="seed-2", scope=scope, mode=sync),
        "SearchMemories": svc.SearchMemoriesRequest(query="hiking", scope=scope),
        "ForgetMemories": svc.ForgetMemoriesRequest(scope=scope, dry_run=True),
        "GetWriteStatus": svc.GetWriteStatusRequest(write_token="x-1"),
        "Preload": svc.PreloadRequest(query="hiking", user_scope=scope),
    }


def _field_paths(
    message: descriptor.Descriptor, depth: int = 0
) -> Iterator[tuple[descriptor.FieldDescriptor, ...]]:
    for field in message.fields:
        yield (field,)
        if (
            field.type == FD.TYPE_MESSAGE
            and not field.is_repeated
            and depth < 2
            and not field.message_type.full_name.startswith("google.protobuf.")
        ):
            for rest in _field_paths(field.message_type, depth + 1):
                yield (field, *rest)


def _value_of(field: descriptor.FieldDescriptor) -> st.SearchStrategy[Any]:
    if field.type == FD.TYPE_MESSAGE:
        value = messages(field.message_type, 3)
    else:
        value = _scalar(field)
    if field.name in VALID_BY_NAME:
        value = VALID_BY_NAME[field.name] | value
    return st.lists(value, max_size=4) if field.is_repeated else value


def mutations(rpc: str) -> st.SearchStrategy[Any]:
    """A valid request with one to three fields, at any depth, set at random."""
    base = _bases()[rpc]
    paths = list(_field_paths(base.DESCRIPTOR))
    change = st.sampled_from(paths).flatmap(lambda p: st.tuples(st.just(p), _value_of(p[-1])))

    def apply(changes: list[tuple[Any, Any]]) -> Any:
        request = type(base)()
        request.CopyFrom(base)
        for path, value in changes:
            _build(_holder(request, path), {path[-1].name: value}, replace=True)
        return request

    return st.lists(change, min_size=1, max_size=3).map(apply)


def _holder(request: Any, path: tuple[descriptor.FieldDescriptor, ...]) -> Any:
    holder = request
    for field in path[:-1]:
        holder = getattr(holder, field.name)
    return holder


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("memoryd-fuzz")).start()
    yield process
    assert process.stop() == 0, "".join(process.log)


@pytest.fixture(scope="module")
def fuzz_stub(fuzz_server: ServerProcess) -> Iterator[Stub]:
    with fuzz_server.channel() as channel:
        stub = Stub(channel)
        for i in range(5):
            stub.CreateMemory(
                svc.CreateMemoryRequest(
                    memory=pb.Memory(
                        content=f"seed memory {i}: the user likes hiking",
                        scope=pb.Scope(user_id=SEED_USER),
                        memory_key=f"seed-{i}",
                    ),
                    memory_id=f"seed-{i}",
                    mode=svc.WRITE_MODE_SYNC,
                )
            )
        yield stub


def _data_set(stub: Stub) -> list[tuple[Any, ...]]:
    page = stub.ListMemories(
        svc.ListMemoriesRequest(scope=pb.Scope(user_id=SEED_USER), page_size=1000), timeout=30
    )
    return [
        (m.id, m.content, m.version, m.metadata.SerializeToString(deterministic=True))
        for m in page.memories
    ]


def _call(stub: Stub, rpc: str, request: Any) -> Any:
    if rpc == "Preload":
        return list(stub.Preload(request, timeout=30))
    return getattr(stub, rpc)(request, timeout=30)


@pytest.mark.parametrize("rpc", [m.name for m in SERVICE.methods])
def test_fuzzed_requests_get_defined_statuses_and_change_nothing_when_rejected(
    fuzz_stub: Stub, rpc: str
):
    method = SERVICE.methods_by_name[rpc]
    counts: dict[str, int] = {}

    @settings(
        max_examples=EXAMPLES_PER_RPC,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(request=messages(method.input_type) | mutations(rpc))
    def check(request: Any) -> None:
        before = _data_set(fuzz_stub)
        code, outcome = code_of(_call, fuzz_stub, rpc, request)
        counts[code.name] = counts.get(code.name, 0) + 1
        assert code not in NEVER, f"{code}: {outcome}"
        if code != grpc.StatusCode.OK:
            assert _data_set(fuzz_stub) == before, f"rejected with {code}, yet data changed"

    check()
    print(f"{rpc}: {sum(counts.values())} cases, statuses {counts}")


@given(header=st.text(max_size=300) | st.sampled_from(["Bearer", "Bearer ", "bearer x.y.z"]))
@settings(max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_fuzzed_credentials_are_unauthenticated(jwt_stub: Stub, header: str):
    # gRPC metadata values must be printable ASCII; others never leave the client.
    if not header.isascii() or not header.isprintable():
        return
    code, outcome = code_of(
        jwt_stub.ListMemories,
        svc.ListMemoriesRequest(scope=pb.Scope(user_id="alice")),
        metadata=(("authorization", header),),
    )
    assert code == grpc.StatusCode.UNAUTHENTICATED, outcome


def test_server_is_still_serving(fuzz_server: ServerProcess):
    with fuzz_server.channel() as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    assert CALLERS  # the credential fuzz above ran against the JWT server
