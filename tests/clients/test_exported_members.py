"""Each public package's surface is its __all__, and every name in it exists."""

from __future__ import annotations

import importlib
import types

import pytest


@pytest.mark.parametrize("package", ["memoryd_client", "memoryd_client.tenxgraph"])
def test_all_lists_exactly_the_public_names(package: str) -> None:
    module = importlib.import_module(package)
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and name != "annotations"
        and not isinstance(value, types.ModuleType)
        and getattr(value, "__module__", package).startswith("memoryd")
    }
    assert set(module.__all__) >= public
    assert all(hasattr(module, name) for name in module.__all__)


def test_only_the_adapter_imports_tenxgraph() -> None:
    import pathlib

    root = pathlib.Path(importlib.import_module("memoryd_client").__file__ or "").parent
    importers = {
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if "tenxgraph" in path.read_text().replace("memoryd_client.tenxgraph", "")
        and "import" in path.read_text()
    }
    assert all(name.startswith("tenxgraph/") for name in importers), importers
