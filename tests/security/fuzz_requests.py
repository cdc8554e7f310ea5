"""Hypothesis strategies for the request of every RPC, built from the contract itself.

Four kinds of request: half are valid requests in a pool scope with valid
changes, so that a good share of cases reaches the policy, the journal and the
engine; three in ten are valid but for one field set to an edge value (NaN and
infinities, Timestamps past their range, extreme integers, edited write and
page tokens), where servers break; the rest are valid requests with one to
three fields, at any depth, set to anything, and messages of random fields
(strings and unicode, huge values, undefined enum values, deep filters).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Sequence
from typing import Any

from google.protobuf import descriptor, field_mask_pb2, message_factory
from hypothesis import strategies as st

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc

from fuzz_values import (
    FD,
    deep_filters,
    edge_filters,
    edge_floats,
    edge_int32s,
    edge_int64s,
    edge_metadata,
    json_values,
    scalar,
    struct,
    texts,
    timestamps,
    valid_filters,
    valid_metadata,
)
from fuzzkit import AGENTS, APPS, REJECTED_IDS, SEED_IDS, SEED_SCOPES, USERS

SERVICE = svc.DESCRIPTOR.services_by_name["MemoryService"]


def _edited_page_token(token: str, t: Any, ids: Any) -> str:
    body = json.loads(base64.urlsafe_b64decode(token))
    body.update({k: v for k, v in (("t", t), ("ids", ids)) if v is not None})
    return base64.urlsafe_b64encode(json.dumps(body).encode()).decode()


class Requests:
    """The strategies, knowing the live write and page tokens of the server fuzzed."""

    def __init__(self, write_tokens: Sequence[str], page_tokens: Sequence[str]) -> None:
        real_tokens = st.sampled_from(list(write_tokens))
        journal = write_tokens[0].rpartition("-")[0]
        edited_tokens = st.builds(
            lambda tail: f"{journal}-{tail}",
            st.sampled_from(["²", "١٢", "9" * 30, str(2**63), "0", "-1", " 1"]) | texts,
        )
        page = st.sampled_from(list(page_tokens))
        edited_pages = st.builds(
            _edited_page_token,
            page,
            st.none() | st.integers() | st.floats() | st.sampled_from([2**63, -(10**30), "1"]),
            st.none() | st.lists(texts, max_size=2) | st.just("abc"),
        )
        #: Values for fields known by name that get past validation (one element
        #: of a repeated field).
        self.valid: dict[str, st.SearchStrategy[Any]] = {
            "content": st.text(max_size=100).map(lambda s: f"likes {s}"),
            "query": st.text(max_size=100).map(lambda s: f"hiking {s}"),
            "id": st.sampled_from(SEED_IDS),
            "memory_id": st.sampled_from(SEED_IDS),
            "memory_key": st.sampled_from(["", *SEED_IDS]),
            "category": st.sampled_from(["", "seed", "notes"]),
            "write_token": real_tokens,
            "consistency_token": st.just("") | real_tokens,
            "page_token": st.just("") | page,
            "mode": st.sampled_from([svc.WRITE_MODE_SYNC, svc.WRITE_MODE_ASYNC]),
            "limit": st.integers(0, 100),
            "page_size": st.integers(0, 50),
            "dry_run": st.booleans(),
            "retrieval_mode": st.sampled_from(
                [0, svc.RETRIEVAL_MODE_DENSE, svc.RETRIEVAL_MODE_HYBRID]
            ),
            "score_threshold": st.floats(0, 0.5, width=32),
            "diversity": st.floats(0, 1, width=32),
            "memory_type": st.sampled_from(list(pb.MemoryType.values())[1:]),
            "memory_types": st.sampled_from(list(pb.MemoryType.values())[1:]),
            "metadata": valid_metadata.map(struct),
            "requests": st.builds(
                lambda content, scope, metadata: svc.CreateMemoryRequest(
                    memory=pb.Memory(content=content, scope=scope, metadata=struct(metadata))
                ),
                st.text(max_size=60).map(lambda s: f"likes {s}"),
                st.sampled_from(SEED_SCOPES),
                valid_metadata,
            ),
            "filter": valid_filters,
            "categories": st.sampled_from(["seed", "notes"]),
            "memories": _imported_memories(
                st.sampled_from([*IMPORTED_IDS, *SEED_IDS]), valid_metadata, st.integers(1, 3)
            ),
            "start_after_sequence": st.just(0),
            "embedder": st.sampled_from(EMBEDDERS),
            "update_mask": st.lists(
                st.sampled_from(["content", "metadata", "category", "memory_type"]),
                min_size=1,
                max_size=2,
                unique=True,
            ).map(lambda paths: field_mask_pb2.FieldMask(paths=paths)),
        }
        edge_fractions = edge_floats | st.floats(width=32) | st.just(1.0000001)
        #: Edge values for fields known by name.
        self.edges: dict[str, st.SearchStrategy[Any]] = {
            "metadata": edge_metadata.map(struct),
            "requests": st.builds(
                lambda metadata: svc.CreateMemoryRequest(
                    memory=pb.Memory(
                        content="likes tea", scope=SEED_SCOPES[0], metadata=struct(metadata)
                    )
                ),
                edge_metadata,
            ),
            "filter": edge_filters,
            "memories": _imported_memories(
                st.sampled_from(IMPORTED_IDS), edge_metadata, st.just(1) | edge_int64s
            ),
            "start_after_sequence": edge_int64s,
            "embedder": texts,
            "write_token": edited_tokens,
            "consistency_token": edited_tokens,
            "page_token": edited_pages,
            "score_threshold": edge_fractions,
            "diversity": edge_fractions,
            "dedup_threshold": edge_fractions,
            "limit": edge_int32s,
            "page_size": edge_int32s,
            "max_tokens": edge_int32s,
            "expected_version": edge_int64s,
            "content": texts,
            "query": texts,
        }
        #: Values mixed into the random ones, to reach deeper branches.
        self.interesting: dict[str, st.SearchStrategy[Any]] = {
            **self.valid,
            **{
                name: self.valid[name] | edge if name in self.valid else edge
                for name, edge in self.edges.items()
            },
            "paths": st.sampled_from(["content", "metadata", "category", "memory_type", "scope"]),
            "field": st.sampled_from(["metadata.a", "metadata.n", "create_time", "update_time"]),
            "thread_id": st.just("t-1"),
        }
        #: Owner ids come from the pool or are rejected ones, and from nowhere else.
        self.only: dict[str, st.SearchStrategy[Any]] = {
            "user_id": st.sampled_from(["", *USERS, *REJECTED_IDS]),
            "agent_id": st.sampled_from(["", *AGENTS, *REJECTED_IDS]),
            "app_id": st.sampled_from(["", *APPS, *REJECTED_IDS]),
        }
        self._bases = _bases(write_tokens[0])

    def requests(self, rpc: str) -> st.SearchStrategy[Any]:
        """Any request of ``rpc``, of the four kinds in the proportions above.

        A request without fields (GetStats, GetReembedStatus) has one value
        only: its cases differ by caller."""
        message = SERVICE.methods_by_name[rpc].input_type
        if not message.fields:
            return st.just(self._bases[rpc])
        valid, edge = self.valid_requests(rpc), self.edge_requests(rpc)
        kinds = [valid] * 5 + [edge] * 3 + [self.mutations(rpc), self.messages(message)]
        return st.sampled_from(kinds).flatmap(lambda kind: kind)

    def valid_requests(self, rpc: str) -> st.SearchStrategy[Any]:
        """The RPC's valid base request in a pool scope, with up to three valid changes."""
        return self._changed_base(rpc, st.lists(self._changes(rpc, self.valid), max_size=3))

    def edge_requests(self, rpc: str) -> st.SearchStrategy[Any]:
        """A valid request of the RPC but for one field set to an edge value."""
        edge = self._changes(rpc, self.edges)
        return self._changed_base(rpc, st.tuples(edge, self._changes(rpc, self.valid)).map(list))

    def _changes(
        self, rpc: str, table: dict[str, st.SearchStrategy[Any]]
    ) -> st.SearchStrategy[tuple[Any, Any]]:
        """One change of the base request: a field of ``table`` and its value."""
        paths = [
            p
            for p in _field_paths(self._bases[rpc].DESCRIPTOR)
            if p[-1].name in table and (rpc, _dotted(p)) not in _SET_BY_THE_SERVER
        ]
        return st.sampled_from(paths).flatmap(
            lambda p: st.tuples(st.just(p), _repeated(p[-1], table[p[-1].name], 2))
        )

    def _changed_base(
        self, rpc: str, changes: st.SearchStrategy[list[Any]]
    ) -> st.SearchStrategy[Any]:
        """The base request moved to a pool scope, then ``changes`` applied."""
        base = self._bases[rpc]
        scopes = [p for p in _field_paths(base.DESCRIPTOR) if _is_scope(p[-1])]
        scope_changes = st.tuples(
            *(st.tuples(st.just(p), _pool_scopes(p[-1].name)) for p in scopes)
        )
        return st.builds(
            lambda fixed, more: _changed(base, [*fixed, *more]), scope_changes, changes
        )

    def mutations(self, rpc: str) -> st.SearchStrategy[Any]:
        """The RPC's valid base request with one to three fields set to anything."""
        base = self._bases[rpc]
        paths = list(_field_paths(base.DESCRIPTOR))
        change = st.sampled_from(paths).flatmap(lambda p: st.tuples(st.just(p), self._value(p[-1])))
        return st.lists(change, min_size=1, max_size=3).map(lambda c: _changed(base, c))

    def messages(self, message: descriptor.Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
        """Any message of this type: each field absent or random, to a bounded depth."""
        cls = message_factory.GetMessageClass(message)
        match message.full_name:
            case "google.protobuf.Struct":
                return st.dictionaries(texts, json_values, max_size=6).map(struct)
            case "google.protobuf.Timestamp":
                return timestamps
            case "memoryd.v1.Filter" if depth < 6:
                return st.one_of(self._generic(message, cls, depth), deep_filters(), valid_filters)
        return self._generic(message, cls, depth)

    def _generic(
        self, message: descriptor.Descriptor, cls: Any, depth: int
    ) -> st.SearchStrategy[Any]:
        optional = {}
        for field in message.fields:
            if field.type == FD.TYPE_MESSAGE and depth >= 6:
                continue
            optional[field.name] = self._value(field, depth + 1)
        return st.fixed_dictionaries({}, optional=optional).map(
            lambda fields: _build(cls(), fields)
        )

    def _value(self, field: descriptor.FieldDescriptor, depth: int = 3) -> st.SearchStrategy[Any]:
        if field.name in self.only:
            value = self.only[field.name]
        elif field.type == FD.TYPE_MESSAGE:
            value = st.deferred(lambda: self.messages(field.message_type, depth))
        else:
            value = scalar(field)
        if field.name in self.interesting and field.name not in self.only:
            value = self.interesting[field.name] | value
        return _repeated(field, value, 3 if depth < 3 else 1)


def _repeated(
    field: descriptor.FieldDescriptor, value: st.SearchStrategy[Any], most: int
) -> st.SearchStrategy[Any]:
    return st.lists(value, max_size=most) if field.is_repeated else value


def _bases(write_token: str) -> dict[str, Any]:
    """A valid request of each RPC in the first seed scope, for the changes to start from."""
    scope = SEED_SCOPES[0]
    sync = svc.WRITE_MODE_SYNC
    memory = pb.Memory(content="likes tea in the morning", scope=scope)
    return {
        "CreateMemory": svc.CreateMemoryRequest(memory=memory, mode=sync),
        "BatchCreateMemories": svc.BatchCreateMemoriesRequest(
            requests=[svc.CreateMemoryRequest(memory=memory)], mode=sync
        ),
        "GetMemory": svc.GetMemoryRequest(id=SEED_IDS[0], scope=scope),
        "ListMemories": svc.ListMemoriesRequest(scope=scope, page_size=2),
        "UpdateMemory": svc.UpdateMemoryRequest(
            memory=pb.Memory(id=SEED_IDS[1], scope=scope, content="likes green tea"),
            update_mask=field_mask_pb2.FieldMask(paths=["content"]),
            mode=sync,
        ),
        "DeleteMemory": svc.DeleteMemoryRequest(id=SEED_IDS[2], scope=scope, mode=sync),
        "SearchMemories": svc.SearchMemoriesRequest(query="hiking", scope=scope),
        "ForgetMemories": svc.ForgetMemoriesRequest(scope=scope, dry_run=True),
        "GetWriteStatus": svc.GetWriteStatusRequest(write_token=write_token),
        "Preload": svc.PreloadRequest(
            query="hiking", user_scope=scope, agent_scope=pb.Scope(agent_id=AGENTS[0])
        ),
        "ExportMemories": svc.ExportMemoriesRequest(scope=scope, page_size=50),
        # A new memory (no seed id), as a create makes one: the first OK import
        # stores it, and later ones at the same version leave it as it is.
        "ImportMemories": svc.ImportMemoriesRequest(
            memories=[
                svc.ExportedMemory(
                    memory=pb.Memory(
                        id=IMPORTED_IDS[0],
                        content="likes oolong tea",
                        scope=SEED_SCOPES[1],
                        version=1,
                    )
                )
            ]
        ),
        "WatchMemories": svc.WatchMemoriesRequest(scope=scope),
        "GetStats": svc.GetStatsRequest(),
        # "gemini" is the contract's other embedder; this server has no API key
        # for it, so it refuses (the fuzz must never start a re-embedding).
        "StartReembed": svc.StartReembedRequest(embedder="gemini"),
        "GetReembedStatus": svc.GetReembedStatusRequest(),
    }


#: Ids of memories only imports make.
IMPORTED_IDS = ("imported-1", "imported-2")
#: Embedder names StartReembed parses. None can start a job on the fuzzed
#: servers: "local" is the current embedder, and "gemini" has no API key there
#: (test_fuzz.py starts them without one); the rest are malformed.
EMBEDDERS = (
    "local",
    "gemini",
    "gemini:gemini-embedding-001",
    "gemini:",
    "local:all-MiniLM-L6-v2",
    "LOCAL",
    " local",
    "qdrant",
)


def _imported_memories(
    ids: st.SearchStrategy[str],
    metadata: st.SearchStrategy[dict[str, Any]],
    versions: st.SearchStrategy[int],
) -> st.SearchStrategy[svc.ExportedMemory]:
    """Exported memories of a pool scope, without a vector (embedded again on
    import) and without times (stored as of the import, never expiring)."""
    return st.builds(
        lambda memory_id, content, scope, key, meta, version: svc.ExportedMemory(
            memory=pb.Memory(
                id=memory_id,
                content=content,
                scope=scope,
                memory_key=key,
                metadata=struct(meta),
                version=version,
            )
        ),
        ids,
        st.text(max_size=60).map(lambda s: f"likes {s}"),
        st.sampled_from(SEED_SCOPES),
        st.sampled_from(["", "imported-topic"]),
        metadata,
        versions,
    )


#: Fields a valid request of that RPC leaves empty.
_SET_BY_THE_SERVER = {("CreateMemory", "memory.id")}


def _dotted(path: tuple[descriptor.FieldDescriptor, ...]) -> str:
    return ".".join(f.name for f in path)


def _is_scope(field: descriptor.FieldDescriptor) -> bool:
    return field.type == FD.TYPE_MESSAGE and field.message_type.full_name == "memoryd.v1.Scope"


def _pool_scopes(name: str) -> st.SearchStrategy[pb.Scope]:
    if name == "user_scope":
        return st.sampled_from([s for s in SEED_SCOPES if s.user_id])
    if name == "agent_scope":
        return st.sampled_from([s for s in SEED_SCOPES if not s.user_id])
    return st.sampled_from(SEED_SCOPES)


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


def _changed(base: Any, changes: Sequence[tuple[tuple[Any, ...], Any]]) -> Any:
    request = type(base)()
    request.CopyFrom(base)
    for path, value in changes:
        holder = request
        for field in path[:-1]:
            holder = getattr(holder, field.name)
        _build(holder, {path[-1].name: value})
    return request


def _build(built: Any, fields: dict[str, Any]) -> Any:
    """``built`` with ``fields`` set in place."""
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
