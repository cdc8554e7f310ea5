"""Fixtures for the client and 10xgraph adapter tests; the server comes from tests/conftest.py."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memoryd_client import MemorydClient

from support import ServerProcess

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The scripted model the examples use drives the end-to-end tests too.
sys.path.insert(0, str(EXAMPLES))


@pytest.fixture
def client(server: ServerProcess) -> Iterator[MemorydClient]:
    with MemorydClient(server.address) as client:
        yield client
