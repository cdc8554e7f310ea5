"""The operator streams as typed items: ExportMemories and WatchMemories.

``client.export_memories(request)`` yields the snapshot's ExportHeader first
(how many memories, the embedder, the change sequence), then each
ExportedMemory; ``client.import_memories(records)`` takes such records back::

    for item in client.export_memories(svc.ExportMemoriesRequest(scope=scope)):
        match item:
            case svc.ExportHeader(): total = item.memory_count
            case svc.ExportedMemory(): records.append(item)

``client.watch_memories(request)`` yields a WatchStarted, then one MemoryChange
per applied change, and a last WatchFellBehind if the consumer read too slowly
(resume with its ``resume_after_sequence`` as ``start_after_sequence``)::

    for event in client.watch_memories(svc.WatchMemoriesRequest(scope=scope)):
        match event:
            case svc.WatchStarted(): ...
            case svc.MemoryChange(): invalidate(event.memory.id)
            case svc.WatchFellBehind(): resume_after = event.resume_after_sequence
"""

from __future__ import annotations

from memoryd.v1 import memory_service_pb2 as svc

#: One item of an export: the header, once and first, then the records.
ExportItem = svc.ExportHeader | svc.ExportedMemory

#: One event of the change feed.
WatchEvent = svc.WatchStarted | svc.MemoryChange | svc.WatchFellBehind


def export_items(response: svc.ExportMemoriesResponse) -> list[ExportItem]:
    """What an ExportMemoriesResponse carries: its header, if set, then its records."""
    items: list[ExportItem] = [response.header] if response.HasField("header") else []
    items.extend(response.memories)
    return items


def watch_event(response: svc.WatchMemoriesResponse) -> WatchEvent | None:
    """The event a WatchMemoriesResponse carries; None for an event this client does
    not know (a newer server's), which callers skip."""
    which = response.WhichOneof("event")
    if which is None:
        return None
    event: WatchEvent = getattr(response, which)
    return event
