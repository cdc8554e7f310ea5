"""``python -m memoryd.cli``: the ``memoryd`` command."""

from __future__ import annotations

import sys

from memoryd.cli import main

sys.exit(main())
