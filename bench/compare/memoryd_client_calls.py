"""memoryd calls as the benchmark makes them, through ``memoryd_client.MemorydClient``."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from grpc_health.v1 import health_pb2, health_pb2_grpc

from memoryd.v1 import memory_pb2 as pb
from memoryd.v1 import memory_service_pb2 as svc
from memoryd_client import MemorydClient

SYNC, ASYNC = svc.WRITE_MODE_SYNC, svc.WRITE_MODE_ASYNC
DENSE, HYBRID = svc.RETRIEVAL_MODE_DENSE, svc.RETRIEVAL_MODE_HYBRID
#: The server's default mode (HYBRID) and recency: what a request that says nothing gets.
DEFAULT = svc.RETRIEVAL_MODE_UNSPECIFIED
BATCH = 100


def connect(address: str) -> MemorydClient:
    """A client with deadlines long enough for SYNC batches of 100."""
    client = MemorydClient(address, read_timeout=60.0, write_timeout=120.0)
    client.wait_ready(timeout=30.0)
    return client


def empty_rpc(client: MemorydClient) -> Callable[[], object]:
    """The empty RPC (health Check) on the client's own channel, the connection its
    calls use (a private attribute: the client has no public one)."""
    health = health_pb2_grpc.HealthStub(client._raw)
    request = health_pb2.HealthCheckRequest()
    return lambda: health.Check(request)


def wait_until_indexed(client: MemorydClient, user: str) -> None:
    """Returns once ``user``'s acknowledged ASYNC writes are indexed: a read of a
    scope waits for them, so a timed round after this starts on an idle server."""
    search(client, user, "the acknowledged writes are indexed")


def batch_create(client: MemorydClient, user: str, texts: Iterable[str], mode: int = SYNC) -> None:
    """One BatchCreateMemories of ``texts`` into ``user``'s scope."""
    scope = pb.Scope(user_id=user)
    requests = [svc.CreateMemoryRequest(memory=pb.Memory(content=t, scope=scope)) for t in texts]
    client.batch_create_memories(svc.BatchCreateMemoriesRequest(requests=requests, mode=mode))


def store_in_batches(client: MemorydClient, by_user: Iterable[tuple[str, list[str]]]) -> int:
    """Stores every user's texts, SYNC, ``BATCH`` at a time; returns how many."""
    stored = 0
    for user, texts in by_user:
        for offset in range(0, len(texts), BATCH):
            chunk = texts[offset : offset + BATCH]
            batch_create(client, user, chunk)
            stored += len(chunk)
    return stored


def create(client: MemorydClient, user: str, text: str, mode: int) -> svc.CreateMemoryResponse:
    memory = pb.Memory(content=text, scope=pb.Scope(user_id=user))
    answer: svc.CreateMemoryResponse = client.create_memory(
        svc.CreateMemoryRequest(memory=memory, mode=mode)
    )
    return answer


def search_request(
    user: str, query: str, mode: int = DENSE, *, recency: bool = False
) -> svc.SearchMemoriesRequest:
    """The top 5 memories of ``user`` for ``query``. By default DENSE with recency
    off: the same work as the floor's query and the peers'."""
    request = svc.SearchMemoriesRequest(
        query=query, scope=pb.Scope(user_id=user), limit=5, retrieval_mode=mode
    )
    if not recency:
        request.recency_half_life.SetInParent()
    return request


def search(
    client: MemorydClient, user: str, query: str, mode: int = DENSE, *, recency: bool = False
) -> list[str]:
    """The contents of ``search_request``'s results."""
    request = search_request(user, query, mode, recency=recency)
    return [r.memory.content for r in client.search_memories(request).results]
