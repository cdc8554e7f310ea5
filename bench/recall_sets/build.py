"""Builds the recall sets into bench/recall_sets/data/; ``--check`` fails if the
checked-in files differ from what the builders make (python bench/recall_sets/build.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The builders reuse bench/recall_set.py and bench/corpus.py, however this is started.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recall_sets.lexical import lexical
from recall_sets.mixed import mixed
from recall_sets.model import DATA, RecallSet
from recall_sets.paraphrase import paraphrase
from recall_sets.updates import updates


def build_all() -> list[RecallSet]:
    return [paraphrase(), lexical(), mixed(), updates()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    files = {path: text for s in build_all() for path, text in s.files().items()}
    if args.check:
        stale = [p for p, text in files.items() if not p.exists() or p.read_text("utf-8") != text]
        for path in stale:
            print(f"drift: {path.relative_to(DATA.parent.parent.parent)}", file=sys.stderr)
        return 1 if stale else 0
    DATA.mkdir(exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    for s in build_all():
        print(f"{s.name}: {len(s.memories)} memories, {len(s.cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
