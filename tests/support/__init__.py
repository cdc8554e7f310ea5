"""Test and benchmark harness: memoryd servers on loopback ports, an OTLP receiver.

Lives in the tests tree, so nothing of it ships in the server distribution;
bench/harness.py puts this tree on sys.path to share it.
"""

from __future__ import annotations

from support.in_process import InProcessServer
from support.otlp import OtlpReceiver, otlp_receiver
from support.process import ServerProcess

__all__ = ["InProcessServer", "OtlpReceiver", "ServerProcess", "otlp_receiver"]
