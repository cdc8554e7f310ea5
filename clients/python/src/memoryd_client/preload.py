"""The Preload stream as typed events.

``client.preload(request)`` yields each PreloadResponse's event, unwrapped from
the ``event`` oneof: ScopeHits (one per scope, as soon as it is searched), then
PreloadContext, then exactly one terminal PreloadDone, or a single
PreloadNotModified when ``if_none_match`` still holds. Match them by type::

    for event in client.preload(request):
        match event:
            case svc.ScopeHits(): ...
            case svc.PreloadContext(): ...
            case svc.PreloadDone() | svc.PreloadNotModified(): ...
"""

from __future__ import annotations

from memoryd.v1 import memory_service_pb2 as svc

#: One event of the Preload stream.
PreloadEvent = svc.ScopeHits | svc.PreloadContext | svc.PreloadDone | svc.PreloadNotModified


def preload_event(response: svc.PreloadResponse) -> PreloadEvent | None:
    """The event a PreloadResponse carries; None for an event this client does not
    know (a newer server's), which callers skip."""
    which = response.WhichOneof("event")
    if which is None:
        return None
    event: PreloadEvent = getattr(response, which)
    return event


class ContextBlock:
    """Collects a Preload stream's context block: ``text`` once the stream has
    ended, None if it ended in not_modified (the caller's block still holds)."""

    def __init__(self) -> None:
        self.text: str | None = None

    def add(self, event: PreloadEvent) -> None:
        if isinstance(event, svc.PreloadContext):
            self.text = event.text
