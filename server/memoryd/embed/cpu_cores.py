"""How many cores the local model may use: its default thread count."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

SYSFS_CPUS = Path("/sys/devices/system/cpu")


def usable_cpus() -> set[int]:
    """The CPUs this process may run on (its affinity mask, where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return set(os.sched_getaffinity(0))
    return set(range(os.cpu_count() or 1))


def usable_cores(cpus: Collection[int] | None = None, sysfs: Path = SYSFS_CPUS) -> int:
    """The physical cores among ``cpus`` (by default every CPU this process may run on),
    counting a core's hyperthreads once.

    onnxruntime's own default is one thread per physical core, as two threads on one
    core's hyperthreads share its arithmetic units; it counts the whole machine's,
    though, not those of a container's cpuset. Where the topology cannot be read,
    each CPU counts as a core."""
    cpus = usable_cpus() if cpus is None else cpus
    cores = set()
    for cpu in cpus:
        try:
            siblings = (sysfs / f"cpu{cpu}" / "topology" / "thread_siblings_list").read_text()
        except OSError:
            return max(len(cpus), 1)
        cores.add(siblings.strip())
    return max(len(cores), 1)
