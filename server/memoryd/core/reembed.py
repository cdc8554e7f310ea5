"""Re-embedding a live store: every memory gets a vector of another embedder
while the server keeps serving, then reads and writes switch over at once.

The job (one at a time, a background task):
1. opens a new index beside the old one (ReembedTargets);
2. copies the old index page by page, embedding each page with the new
   embedder, after noting the last change sequence;
3. applies the changes made since (core/reembed_copy.py), until near the head;
4. pauses the indexer, applies the last changes, makes the new index the one
   the server opens (durably), swaps the pair (core/switching.py), and drops
   the old index.
Progress is saved after each page (ProgressStore), so a restart resumes the
job where it stopped; a failed job resumes when started again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from memoryd.core.admin import AGENT_MEMORY, APP_MEMORY, USER_MEMORY
from memoryd.core.errors import InvalidArgument, ReembedInProgress
from memoryd.core.indexer import Indexer
from memoryd.core.ports import Embedder, VectorIndex
from memoryd.core.reembed_copy import Copied, apply_changes, copy_page
from memoryd.core.reembed_progress import Phase, Progress, ProgressStore, ReembedTargets
from memoryd.core.reembed_status import NO_JOB, ReembedState, ReembedStatus
from memoryd.core.switching import SwitchingIndex
from memoryd.core.write_log import WriteLog

logger = logging.getLogger(__name__)

#: Called after each page is saved (a test seam: the job pauses while it waits).
AfterPage = Callable[[ReembedStatus], Awaitable[None]]


class Reembedder:
    """Starts, resumes and reports the re-embedding job of ``index``."""

    def __init__(
        self,
        index: SwitchingIndex,
        journal: WriteLog,
        indexer: Indexer,
        targets: ReembedTargets,
        store: ProgressStore,
        *,
        page_size: int = 256,
        after_page: AfterPage | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._index = index
        self._journal = journal
        self._indexer = indexer
        self._targets = targets
        self._store = store
        self._page_size = page_size
        self._after_page = after_page
        self._clock = clock
        saved = store.load()
        self._progress = None if saved is None else Progress.from_json(saved)
        self._task: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()

    def status(self) -> ReembedStatus:
        return NO_JOB if self._progress is None else self._progress.status()

    @property
    def is_running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self, target: str) -> ReembedStatus:
        """Starts the job to ``target``, resumes a failed one to it, or returns
        the running one. Raises InvalidArgument (unknown or current embedder)
        and ReembedInProgress (a job to another embedder runs)."""
        async with self._starting:
            # Off the event loop: loading a local model takes a few tenths of a second.
            embedder = await asyncio.to_thread(self._targets.embedder, target)
            progress = self._progress
            if self.is_running and progress is not None:
                await embedder.close()
                if embedder.model_id == progress.to_embedder_id:
                    return progress.status()
                raise ReembedInProgress(progress.target)
            if embedder.model_id == self._index.embedder.model_id:
                await embedder.close()
                raise InvalidArgument(
                    "embedder",
                    f"the server already uses {embedder.model_id!r}; name another embedder",
                )
            if progress is None or not _resumes(progress, embedder):
                if progress is not None and progress.state is not ReembedState.SWITCHED:
                    await self._drop_unfinished(progress)
                progress = Progress(
                    state=ReembedState.RUNNING,
                    target=target,
                    from_embedder_id=self._index.embedder.model_id,
                    to_embedder_id=embedder.model_id,
                    index_name="",
                    start_time=self._clock(),
                )
            logger.info("re-embedding to %s", embedder.model_id)
            await self._save(progress.but(state=ReembedState.RUNNING, error="", end_time=None))
            self._task = asyncio.create_task(self._run(embedder), name="memoryd-reembed")
            return self.status()

    async def resume(self) -> None:
        """On start: resumes a job the last run left running."""
        progress = self._progress
        if progress is None or progress.state is not ReembedState.RUNNING:
            return
        if progress.to_embedder_id == self._index.embedder.model_id:
            # The switch was durable; the restart came before the job finished.
            await self._finish()
            return
        try:
            embedder = self._targets.embedder(progress.target)
        except InvalidArgument as error:
            await self._fail(error)
            return
        if embedder.model_id != progress.to_embedder_id:
            await embedder.close()
            await self._fail(ValueError(f"{progress.target!r} now names {embedder.model_id!r}"))
            return
        logger.info("resuming the re-embedding to %s", progress.to_embedder_id)
        self._task = asyncio.create_task(self._run(embedder), name="memoryd-reembed")

    async def stop(self) -> None:
        """Cancels a running job; its saved progress resumes on the next start."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self, embedder: Embedder) -> None:
        new: VectorIndex | None = None
        try:
            progress = self._current()
            name, new = await self._targets.open_index(progress.index_name or None, embedder)
            await self._save(progress.but(index_name=name))
            await self._copy(embedder, new)
            await self._catch_up(embedder, new, until_quiet=True)
            old = await self._switch(embedder, new)
        except asyncio.CancelledError:
            await self._close_unless_serving(new, embedder)
            raise
        except Exception as error:
            logger.exception("re-embedding to %s failed", embedder.model_id)
            await self._close_unless_serving(new, embedder)
            await self._fail(error)
            return
        logger.info("re-embedding switched to %s", embedder.model_id)
        await old.close()
        await self._finish()

    async def _finish(self) -> None:
        """After the switch: drops the replaced index, and reports SWITCHED."""
        replaced = self._current().replaced_index
        try:  # the new pair serves already; what is left is disk space
            if replaced:
                await self._targets.drop(replaced)
        except Exception:
            logger.exception("the index replaced by re-embedding could not be dropped")
        index = self._index
        total = sum([await index.count(f) for f in (USER_MEMORY, AGENT_MEMORY, APP_MEMORY)])
        await self._save(
            self._current().but(
                state=ReembedState.SWITCHED, done=total, total=total, end_time=self._clock()
            )
        )

    async def _copy(self, embedder: Embedder, new: VectorIndex) -> None:
        old = self._index.current
        progress = self._current()
        if progress.phase is not Phase.COPY:
            return
        if progress.scan_offset is None:  # starting (again) from the first page
            last = (await self._journal.change_bounds()).last
            total = sum([await old.count(f) for f in (USER_MEMORY, AGENT_MEMORY, APP_MEMORY)])
            progress = progress.but(start_change_seq=last, caught_up_seq=last, done=0, total=total)
            await self._save(progress)
        offset = progress.scan_offset
        while True:
            copied, offset = await copy_page(old, new, embedder, offset, self._page_size)
            # A restart resumes after the saved progress, so the new index is flushed
            # first: a power loss then cannot take pages the progress counts as copied
            # (a flush took 10-25 ms at 1M points, a page's embedding about a second).
            await new.flush()
            progress = _counted(self._current(), copied).but(scan_offset=offset)
            if offset is None:
                progress = progress.but(phase=Phase.CATCH_UP)
            await self._save(progress)
            if self._after_page is not None:
                await self._after_page(progress.status())
            if offset is None:
                return

    async def _catch_up(self, embedder: Embedder, new: VectorIndex, *, until_quiet: bool) -> None:
        """Applies changes after the last one applied: pages until one comes back
        short (``until_quiet``: the indexer still runs), or until none is left."""
        while True:
            progress = self._current()
            changes = await self._journal.changes_after(progress.caught_up_seq, self._page_size)
            if changes:
                copied = await apply_changes(self._index.current, new, embedder, changes)
                await new.flush()
                await self._save(_counted(progress, copied).but(caught_up_seq=changes[-1].seq))
            if not changes or (until_quiet and len(changes) < self._page_size):
                return

    async def _switch(self, embedder: Embedder, new: VectorIndex) -> VectorIndex:
        """Applies the last changes with the indexer paused, then switches over;
        returns the old index, no longer in use."""
        async with self._indexer.paused():
            await self._catch_up(embedder, new, until_quiet=False)
            previous = await self._targets.activate(self._current().index_name, embedder)
            old = self._index.swap(embedder, new)
            await self._save(self._current().but(replaced_index=previous))
        return old

    async def _fail(self, error: Exception) -> None:
        progress = self._current()
        reason = str(error) or type(error).__name__
        await self._save(
            progress.but(state=ReembedState.FAILED, error=reason, end_time=self._clock())
        )

    async def _drop_unfinished(self, progress: Progress) -> None:
        if progress.index_name:
            await self._targets.drop(progress.index_name)

    async def _close_unless_serving(self, index: VectorIndex | None, embedder: Embedder) -> None:
        """Closes the new pair of a job that stopped, unless it was swapped in."""
        if index is not None and index is not self._index.current:
            await index.close()
        if embedder is not self._index.embedder.current:
            await embedder.close()

    def _current(self) -> Progress:
        assert self._progress is not None, "no job"
        return self._progress

    async def _save(self, progress: Progress) -> None:
        self._progress = progress
        await asyncio.to_thread(self._store.save, progress.to_json())


def _resumes(progress: Progress, embedder: Embedder) -> bool:
    """Whether a job to ``embedder`` continues ``progress`` (one that stopped)."""
    return (
        progress.state in (ReembedState.RUNNING, ReembedState.FAILED)
        and progress.to_embedder_id == embedder.model_id
    )


def _counted(progress: Progress, copied: Copied) -> Progress:
    return progress.but(done=progress.done + copied.upserted, total=progress.total + copied.created)
