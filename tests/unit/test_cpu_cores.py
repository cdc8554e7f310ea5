"""The local model's default thread count: one per physical core the process may use."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from memoryd.embed.cpu_cores import usable_cores, usable_cpus


def topology(root: Path, siblings: dict[int, str]) -> Path:
    """A sysfs cpu directory where CPU n's hyperthread siblings are ``siblings[n]``."""
    for cpu, sibling_list in siblings.items():
        directory = root / f"cpu{cpu}" / "topology"
        directory.mkdir(parents=True)
        (directory / "thread_siblings_list").write_text(sibling_list + "\n")
    return root


def test_a_cores_hyperthreads_count_once(tmp_path: Path):
    # Two cores, two hyperthreads each, numbered as Linux numbers them on x86.
    sysfs = topology(tmp_path, {0: "0,2", 1: "1,3", 2: "0,2", 3: "1,3"})
    assert usable_cores({0, 1, 2, 3}, sysfs) == 2


def test_only_the_cores_the_process_may_use_count(tmp_path: Path):
    sysfs = topology(tmp_path, {0: "0,2", 1: "1,3", 2: "0,2", 3: "1,3"})
    # A cpuset of both hyperthreads of one core: one core.
    assert usable_cores({0, 2}, sysfs) == 1
    # One hyperthread of each core: two.
    assert usable_cores({0, 1}, sysfs) == 2


def test_cpus_without_hyperthreads_count_each(tmp_path: Path):
    sysfs = topology(tmp_path, {0: "0", 1: "1", 2: "2"})
    assert usable_cores({0, 1, 2}, sysfs) == 3


def test_an_unreadable_topology_counts_every_cpu_as_a_core(tmp_path: Path):
    sysfs = topology(tmp_path, {0: "0-1", 1: "0-1"})
    # CPU 2's topology is missing (a sandbox that hides parts of /sys).
    assert usable_cores({0, 1, 2}, sysfs) == 3
    assert usable_cores({0, 1}, tmp_path / "absent") == 2


def test_an_empty_set_still_gives_the_model_a_thread(tmp_path: Path):
    assert usable_cores(set(), tmp_path) == 1


@pytest.mark.skipif(sys.platform != "linux", reason="reads Linux's /sys topology")
def test_this_machine_has_at_least_one_core_and_no_more_than_its_cpus():
    cpus = usable_cpus()
    assert cpus == set(os.sched_getaffinity(0))
    assert 1 <= usable_cores() <= len(cpus)
    # A process confined to one CPU gets one thread.
    assert usable_cores({min(cpus)}) == 1
