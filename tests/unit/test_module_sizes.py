"""Small modules, one concept each: no hand-written module of the server or the
Python client grows past the house ceiling (STYLE.md: aim for 50-250 lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The house ceiling for one module; past it, split by concept (never a utils.py).
MAX_LINES = 300
PACKAGES = [ROOT / "server" / "memoryd", ROOT / "clients" / "python" / "src" / "memoryd_client"]


def _modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in package.rglob("*.py"))


def test_the_packages_are_where_this_test_looks() -> None:
    assert len(_modules()) > 40


@pytest.mark.parametrize("module", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_ceiling(module: Path) -> None:
    lines = len(module.read_text().splitlines())
    assert lines <= MAX_LINES, f"{module.relative_to(ROOT)} has {lines} lines; split it"
