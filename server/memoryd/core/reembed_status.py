"""What a re-embedding job reports: its state, counts and times."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime


class ReembedState(enum.Enum):
    """Mirrors the contract's ReembedState."""

    #: No job has run.
    NONE = "none"
    #: Vectors are being computed; reads use the old embedder.
    RUNNING = "running"
    #: Reads and writes use the new embedder.
    SWITCHED = "switched"
    #: The job stopped; ``error`` says why. Starting it again resumes it.
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class ReembedStatus:
    """The current or last job. ``total`` grows with memories written meanwhile."""

    state: ReembedState = ReembedState.NONE
    from_embedder_id: str = ""
    to_embedder_id: str = ""
    done: int = 0
    total: int = 0
    error: str = ""
    start_time: datetime | None = None
    end_time: datetime | None = None


NO_JOB = ReembedStatus()
