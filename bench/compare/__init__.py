"""`make bench-compare`: memoryd, the engine's floor, 10xgraph and mem0, side by side.

Each peer runs in a process of its own (so its peak RSS is its own) and prints
one JSON object; the orchestrator (``python -m compare``) collects them into
bench/results/<date>/ with a report and plots. Importing this package has no
side effects.
"""
