"""Where ``memoryd import`` reads records from: JSONL, a 10xgraph store, a mem0 store.

Each reader module is imported only when its ``--from`` is chosen, so the CLI
works without the optional dependencies of the others.
"""
