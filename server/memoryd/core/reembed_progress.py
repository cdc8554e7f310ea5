"""A re-embedding job's progress, as persisted after each page so that a
restart resumes it (core/reembed.py), and the ports it needs from the wiring."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any, Protocol

from memoryd.core.ports import Embedder, VectorIndex
from memoryd.core.reembed_status import ReembedState, ReembedStatus


class Phase(enum.StrEnum):
    #: Scanning the old index page by page into the new one.
    COPY = "copy"
    #: Applying the changes made since the copy started.
    CATCH_UP = "catch_up"


@dataclass(frozen=True, slots=True)
class Progress:
    """Everything a restart needs to resume the job where it stopped."""

    state: ReembedState
    #: The target as StartReembed named it ("gemini", "local").
    target: str
    from_embedder_id: str
    to_embedder_id: str
    #: The new index, as ReembedTargets names it (an Edge shard directory).
    index_name: str
    phase: Phase = Phase.COPY
    #: Where the copy's scan resumes (None: from the start, or done).
    scan_offset: str | None = None
    #: The last change sequence when the copy started: catch-up starts after it.
    start_change_seq: int = 0
    #: The last change applied to the new index.
    caught_up_seq: int = 0
    done: int = 0
    total: int = 0
    #: The index the switch replaced, to drop (set once the switch is durable).
    replaced_index: str = ""
    error: str = ""
    start_time: datetime | None = None
    end_time: datetime | None = None

    def status(self) -> ReembedStatus:
        return ReembedStatus(
            state=self.state,
            from_embedder_id=self.from_embedder_id,
            to_embedder_id=self.to_embedder_id,
            done=self.done,
            total=max(self.total, self.done),
            error=self.error,
            start_time=self.start_time,
            end_time=self.end_time,
        )

    def but(self, **changes: Any) -> Progress:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        document = asdict(self)
        document["state"] = self.state.value
        document["phase"] = self.phase.value
        for name in ("start_time", "end_time"):
            at = getattr(self, name)
            document[name] = None if at is None else at.isoformat()
        return document

    @classmethod
    def from_json(cls, document: dict[str, Any]) -> Progress:
        fields = dict(document)
        fields["state"] = ReembedState(fields["state"])
        fields["phase"] = Phase(fields["phase"])
        for name in ("start_time", "end_time"):
            at = fields.get(name)
            fields[name] = None if at is None else datetime.fromisoformat(at)
        return cls(**fields)


class ProgressStore(Protocol):
    """Where the job's progress survives a restart (a small file)."""

    def load(self) -> dict[str, Any] | None:
        """The last saved document, or None if no job ever ran."""
        ...

    def save(self, document: dict[str, Any]) -> None:
        """Replaces the saved document durably and atomically."""
        ...


class ReembedTargets(Protocol):
    """What the wiring provides to build the new pair and switch to it."""

    def embedder(self, target: str) -> Embedder:
        """The embedder a target names ("local", "gemini", "gemini:<model>");
        raises InvalidArgument naming ``embedder`` for an unknown one."""
        ...

    async def open_index(self, name: str | None, embedder: Embedder) -> tuple[str, VectorIndex]:
        """Opens the new index ``name`` beside the active one (None: a new
        name), built for ``embedder``; returns its name and the index, wrapped
        like the active one."""
        ...

    async def activate(self, name: str, embedder: Embedder) -> str:
        """Makes index ``name`` the one the server opens from now on (durably,
        at once); returns the name of the index it replaces."""
        ...

    async def drop(self, name: str) -> None:
        """Deletes an index that is no longer active (closed already)."""
        ...
