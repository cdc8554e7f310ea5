"""scripts/buf-breaking: the real buf compares proto/ with the released contract's image.

Each test runs the scripts of this checkout, unchanged, on a copy of the
contract tree, so that a change made for the test never touches the checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUF = Path(sys.executable).with_name("buf")
BASELINE = Path("proto/memoryd/v1/released.binpb")
SERVICE = Path("proto/memoryd/v1/memory_service.proto")
MODEL = Path("proto/memoryd/v1/memory.proto")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the contract tree with the breaking and release scripts."""
    copy = tmp_path / "repo"
    copy.mkdir()
    for part in ("buf.yaml", "proto", "third_party"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, copy / part)
        else:
            shutil.copy2(source, copy / part)
    (copy / "scripts").mkdir()
    for script in ("buf-breaking", "proto-release"):
        shutil.copy2(ROOT / "scripts" / script, copy / "scripts" / script)
    return copy


def _run(tree: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tree / "scripts" / script), str(BUF)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _edit(tree: Path, path: Path, old: str, new: str) -> None:
    text = (tree / path).read_text()
    assert text.count(old) == 1, f"{old!r} is not in {path} exactly once"
    (tree / path).write_text(text.replace(old, new))


BREAKING_CHANGES = {
    "renamed field": (MODEL, "string memory_key = 7", "string memory_name = 7"),
    "removed rpc": (
        SERVICE,
        "rpc ForgetMemories(ForgetMemoriesRequest) returns (ForgetMemoriesResponse) {}",
        "",
    ),
    "changed field number": (MODEL, "string memory_key = 7", "string memory_key = 17"),
}


@pytest.mark.parametrize("change", BREAKING_CHANGES, ids=list(BREAKING_CHANGES))
def test_a_breaking_change_fails_the_check(tree: Path, change: str):
    assert _run(tree, "buf-breaking").returncode == 0, "the unchanged contract must pass"
    path, old, new = BREAKING_CHANGES[change]
    _edit(tree, path, old, new)
    result = _run(tree, "buf-breaking")
    assert result.returncode != 0, result.stdout + result.stderr
    assert str(path) in result.stdout, result.stdout + result.stderr


def test_a_missing_baseline_fails_the_check(tree: Path):
    (tree / BASELINE).unlink()
    result = _run(tree, "buf-breaking")
    assert result.returncode != 0
    assert f"{BASELINE} is missing" in result.stderr


def test_only_a_release_moves_the_baseline(tree: Path):
    _edit(
        tree,
        MODEL,
        "  int64 version = 10 [(google.api.field_behavior) = OUTPUT_ONLY];",
        "  int64 version = 10 [(google.api.field_behavior) = OUTPUT_ONLY];\n\n"
        "  // Output only. A field added after the release.\n"
        "  string note = 99 [(google.api.field_behavior) = OUTPUT_ONLY];",
    )
    assert _run(tree, "buf-breaking").returncode == 0, "an added field is compatible"
    released = _run(tree, "proto-release")
    assert released.returncode == 0, released.stdout + released.stderr
    # Removing the field added in the new release now breaks the new baseline.
    _edit(tree, MODEL, "  string note = 99 [(google.api.field_behavior) = OUTPUT_ONLY];", "")
    assert _run(tree, "buf-breaking").returncode != 0


def test_a_release_refuses_a_breaking_change(tree: Path):
    before = (tree / BASELINE).read_bytes()
    _edit(tree, MODEL, "string memory_key = 7", "string memory_name = 7")
    assert _run(tree, "proto-release").returncode != 0
    assert (tree / BASELINE).read_bytes() == before
