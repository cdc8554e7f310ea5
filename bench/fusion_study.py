"""Which fusion of dense and BM25 rankings to ship: an offline study on the recall sets.

In process, no server: every set goes into one raw Qdrant Edge shard with the
dense (MiniLM) and BM25 vectors store/edge_shards.py gives a point. Each case
is ONE engine call (query_batch) that returns the dense and the BM25
candidates with their scores, and the engine's own RRF and DBSF fusions of
them; the other fusions (bench/fusions.py) are computed from the two lists.
Prints recall@1/@5 per set per fusion, recency rules for the updates set,
BM25's score profile, what a score means per fusion, and engine latency.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import fusions as fu
import qdrant_edge as qe
from fusion_tables import Observed, Rule, bm25_profile, meanings, table
from recall_sets import Case, RecallSet, load_all

from memoryd.core.ports import IndexSpec
from memoryd.embed.onnx_local import OnnxMiniLMEmbedder
from memoryd.store.base import DENSE
from memoryd.store.edge_shards import create_shard, sparse
from memoryd.store.lexical import SPARSE, query_terms

#: Candidates per ranking: store/query_plan.candidate_count for a limit of 10.
CANDIDATES = 100
WEIGHTS = [round(0.1 * i, 1) for i in range(1, 10)]
#: The noisy-or the engine computes too, as a Formula over the two prefetches.
NOISY_OR_W, NOISY_OR_K = 1.0, 20.0


def noisy_or_formula(w: float, k: float) -> qe.Formula:
    """fusions.noisy_or as one Qdrant Edge Formula: $score[0] is the dense
    prefetch's cosine, $score[1] the BM25 prefetch's score (0 where a point is
    in one prefetch only)."""
    e = qe.Expression
    cosine = e.Max([e.Variable("$score[0]"), e.Constant(0.0)])
    bm25 = e.Variable("$score[1]")
    lexical = e.Mult([e.Constant(w), e.Div(bm25, e.Sum([bm25, e.Constant(k)]), 0.0)])
    gap = e.Mult(
        [e.Sum([e.Constant(1.0), e.Neg(cosine)]), e.Sum([e.Constant(1.0), e.Neg(lexical)])]
    )
    return qe.Formula(e.Sum([e.Constant(1.0), e.Neg(gap)]), {"$score[0]": 0.0, "$score[1]": 0.0})


class Corpus:
    """Every set's memories in one shard; point ids are creation order."""

    def __init__(self, sets: Sequence[RecallSet], embedder: OnnxMiniLMEmbedder, path: Path):
        self.shard = create_shard(path, IndexSpec(embedder.model_id, embedder.dimension))
        self.ids: dict[tuple[str, str], int] = {}
        self.rounds: dict[int, int] = {}
        memories = [m for s in sets for m in sorted(s.memories, key=lambda m: m.round)]
        for start in range(0, len(memories), 128):
            chunk = memories[start : start + 128]
            vectors = embedder.embed_sync([m.content for m in chunk])
            points = []
            for pid, m, v in zip(range(start, start + 128), chunk, vectors, strict=False):
                self.ids[(m.user, m.content)] = pid
                self.rounds[pid] = m.round
                vector = {DENSE: list(v), SPARSE: sparse(m.content)}
                points.append(qe.Point(pid, vector, {"user": m.user}))
            self.shard.update(qe.UpdateOperation.upsert_points(points))

    def requests(self, case: Case, vector: list[float]) -> list[qe.QueryRequest]:
        """Dense, BM25, and the engine's RRF, DBSF and noisy-or requests for ``case``."""
        where = qe.Filter(must=[qe.FieldCondition("user", match=qe.MatchValue(case.user))])
        dense = qe.Query.Nearest(vector, using=DENSE)
        lexical = qe.Query.Nearest(qe.SparseVector(*query_terms(case.query)), using=SPARSE)
        both = [qe.Prefetch(CANDIDATES, query=q) for q in (dense, lexical)]
        return [
            qe.QueryRequest(limit=CANDIDATES, query=dense, filter=where),
            qe.QueryRequest(limit=CANDIDATES, query=lexical, filter=where),
            qe.QueryRequest(limit=10, query=qe.Fusion.Rrf(k=60), prefetches=both, filter=where),
            qe.QueryRequest(limit=10, query=qe.Fusion.Dbsf(), prefetches=both, filter=where),
            qe.QueryRequest(
                limit=10,
                query=noisy_or_formula(NOISY_OR_W, NOISY_OR_K),
                prefetches=both,
                filter=where,
            ),
        ]

    def observe(self, case: Case, vector: list[float]) -> Observed:
        dense, lexical, rrf, dbsf, noisy_or = self.shard.query_batch(
            qe.QueryBatchRequest(self.requests(case, vector))
        )
        return Observed(
            case,
            self.ids[(case.user, case.expected)],
            {int(p.id): float(p.score) for p in dense},
            {int(p.id): float(p.score) for p in lexical},
            # query_plan.fused_score's scaling of RRF, and DBSF's sum of two halved.
            [(int(p.id), min(1.0, float(p.score) * 30)) for p in rrf],
            [(int(p.id), float(p.score) / 2) for p in dbsf],
            [(int(p.id), float(p.score)) for p in noisy_or],
            self.rounds,
        )


def fusions() -> dict[str, Rule]:
    rules: dict[str, Rule] = {
        "DENSE (cosine)": lambda o: fu.ordered(o.dense),
        "BM25 only": lambda o: fu.ordered(o.lexical),
        "RRF k=60 (engine; today's HYBRID)": lambda o: o.engine_rrf,
        "DBSF (engine)": lambda o: o.engine_dbsf,
        f"noisy-or, w_bm25={NOISY_OR_W}, k={NOISY_OR_K:g} (engine Formula)": (
            lambda o: o.engine_noisy_or
        ),
    }
    for w in (0.3, 0.2):
        rules[f"weighted RRF k=60, w_bm25={w}"] = lambda o, w=w: fu.rrf(o.dense, o.lexical, 60, w)
    for w in WEIGHTS:
        rules[f"min-max convex, w_bm25={w}"] = lambda o, w=w: fu.convex(o.dense, o.lexical, w)
    for low, high in [(0.0, 1.0), (0.1, 0.9), (0.2, 0.8)]:
        rules[f"adaptive, w_bm25={low}+{high - low:.1f}*peak"] = lambda o, low=low, high=high: (
            fu.adaptive(o.dense, o.lexical, low, high)
        )
    for w in (0.3, 0.4, 0.5, 0.6):
        for k in (5.0, 10.0, 20.0, 40.0):
            rules[f"saturated, w_bm25={w}, k={k:g}"] = lambda o, w=w, k=k: fu.saturated(
                o.dense, o.lexical, w, k
            )
    for w in (0.5, 0.8, 1.0):
        for k in (10.0, 20.0, 40.0):
            rules[f"noisy-or, w_bm25={w}, k={k:g}"] = lambda o, w=w, k=k: fu.noisy_or(
                o.dense, o.lexical, w, k
            )
    return rules


def recency(base: dict[str, Rule]) -> dict[str, Rule]:
    """Each of ``base`` with a decay per round of age, and with a tie-break on creation order."""
    rules: dict[str, Rule] = {}
    for label, rule in base.items():
        for factor in (0.9, 0.8, 0.7, 0.5):
            rules[f"{label} x {factor} per older round"] = lambda o, rule=rule, f=factor: (
                fu.decayed(rule(o), o.rounds, f)
            )
        for eps in (0.02, 0.05, 0.1):
            rules[f"{label} + newest within {eps}"] = lambda o, rule=rule, eps=eps: (
                fu.newest_within(rule(o), _Age(), eps)
            )
    return rules


class _Age(dict[int, int]):
    """Creation order of a point: its id."""

    def __missing__(self, key: int) -> int:
        return key


def latency(corpus: Corpus, observed: Sequence[Observed], vectors: dict[str, list[float]]) -> None:
    """Milliseconds per query (p50) of each way to run a hybrid search in the engine."""

    def p50(call: Callable[[Case, list[float]], Any]) -> float:
        samples = []
        for o in observed:
            start = time.perf_counter()
            call(o.case, vectors[o.case.query])
            samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples)

    def request(i: int) -> Callable[[Case, list[float]], Any]:
        return lambda c, v: corpus.shard.query(corpus.requests(c, v)[i])

    def client_side(c: Case, v: list[float]) -> fu.Fused:
        batch = qe.QueryBatchRequest(corpus.requests(c, v)[:2])
        dense, lexical = corpus.shard.query_batch(batch)
        d = {int(p.id): float(p.score) for p in dense}
        return fu.convex(d, {int(p.id): float(p.score) for p in lexical}, 0.3)

    print("| engine call (mixed set) | p50 ms |\n|---|---:|")
    print(f"| dense only | {p50(request(0)):.2f} |")
    print(f"| one query: 2 prefetches + RRF | {p50(request(2)):.2f} |")
    print(f"| one query: 2 prefetches + DBSF | {p50(request(3)):.2f} |")
    print(f"| one query: 2 prefetches + noisy-or Formula | {p50(request(4)):.2f} |")
    print(f"| one query_batch(dense, bm25) + client-side min-max convex | {p50(client_side):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="*", help="only these sets (default: all)")
    args = parser.parse_args()
    sets = [s for s in load_all() if not args.sets or s.name in args.sets]
    embedder = OnnxMiniLMEmbedder()
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        corpus = Corpus(sets, embedder, Path(scratch) / "shard")
        queries = sorted({c.query for s in sets for c in s.cases})
        vectors = {q: list(v) for q, v in zip(queries, embedder.embed_sync(queries), strict=True)}
        by_set = {s.name: [corpus.observe(c, vectors[c.query]) for c in s.cases] for s in sets}
        elapsed = time.perf_counter() - start
        print(f"{len(corpus.ids)} memories loaded and queried in {elapsed:.1f} s\n")
        rules = fusions()
        table(by_set, rules)
        shortlist = [
            "DBSF (engine)",
            "min-max convex, w_bm25=0.3",
            f"noisy-or, w_bm25={NOISY_OR_W}, k={NOISY_OR_K:g}",
        ]
        table(by_set, recency({k: rules[k] for k in shortlist}))
        bm25_profile(by_set, rules[f"noisy-or, w_bm25={NOISY_OR_W}, k={NOISY_OR_K:g}"])
        meanings()
        latency(corpus, by_set.get("mixed", by_set[sets[-1].name]), vectors)
        corpus.shard.close()


if __name__ == "__main__":
    main()
