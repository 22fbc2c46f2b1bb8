"""The verification strategies of search/containment.py timed on real candidates, and the
least-squares fit of their costs (the module's COST_*_US constants).

For each benchmark query (the LSH Ensemble query set: equal-width size intervals) and
threshold, the candidates are those of the exact prefix filter; each strategy (posting
lists of Q, scan of the candidate sets, one binary search per candidate) computes their
exact overlaps, best of 3 runs. Prints the fitted (fixed, per unit) microseconds and the
p50/mean time of the strategy the module's cost model picks against the best of the three.

    python bench/containment_costs.py --lake LAKE --index INDEX --name NAME \
        [--per-interval 20] [--hi 1000] [--thresholds 0.3 0.6 0.9]
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from lshensemble_common import Query, bench_parser, ensure_index, pick_queries

from lakejoin_jupyter.search import containment as C

STRATEGIES = ("postings", "scan", "probe")


def measure(arrays, set_sizes, queries, thresholds, repeats: int = 3) -> list[dict]:
    rows = []
    for t in thresholds:
        for q in queries:
            qq = C.distinct_query(arrays, q.ids)
            need = C.min_overlap(t, q.size)
            pl = C.prefix_lists(arrays, qq, need)
            total = pl.total
            cand, _ = C.prefix_candidates(arrays, set_sizes, pl.starts, pl.lengths, pl.min_hits,
                                          need, {q.cid})
            if len(cand) == 0:
                continue
            slen = set_sizes[cand]
            row = {"t": t, "query_entries": total, "set_tokens": int(slen.sum()),
                   "candidates": len(cand), "steps": len(qq) * float(np.log2(slen + 2.0).sum()),
                   "chosen": min((c := C.strategy_costs(float(total), slen, len(qq))), key=c.get)}
            for s in STRATEGIES:
                best = float("inf")
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    C.exact_overlaps(arrays, qq, cand, strategy=s)
                    best = min(best, time.perf_counter() - t0)
                row[s] = best * 1e6
            rows.append(row)
    return rows


def fit(rows: list[dict]) -> dict:
    col = lambda k: np.array([r[k] for r in rows], dtype=np.float64)  # noqa: E731
    one = np.ones(len(rows))
    lsq = lambda X, y: [round(float(v), 5) for v in np.linalg.lstsq(X, y, rcond=None)[0]]  # noqa: E731
    chosen = np.array([r[r["chosen"]] for r in rows])
    best = np.min(np.c_[col("postings"), col("scan"), col("probe")], axis=1)
    return {"runs": len(rows),
            "postings_us": lsq(np.c_[one, col("query_entries")], col("postings")),
            "scan_us": lsq(np.c_[one, col("set_tokens")], col("scan")),
            "probe_us": lsq(np.c_[one, col("candidates"), col("steps")], col("probe")),
            "module": {"postings_us": C.COST_POSTINGS_US, "scan_us": C.COST_SCAN_US,
                       "probe_us": C.COST_PROBE_US},
            "p50_us": {s: float(np.median(col(s))) for s in STRATEGIES}
            | {"chosen": float(np.median(chosen)), "best": float(np.median(best))},
            "mean_us": {"chosen": float(chosen.mean()), "best": float(best.mean())}}


def main(argv=None):
    p = bench_parser(__doc__)
    p.add_argument("--per-interval", type=int, default=20)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--thresholds", type=float, nargs="+", default=[0.3, 0.6, 0.9])
    a = p.parse_args(argv)
    index = ensure_index(a.lake, a.index)
    arrays = index.arrays
    queries = [Query(index, c) for c in pick_queries(index, a.per_interval, 10, a.hi)]
    res = fit(measure(arrays, np.diff(np.asarray(arrays.sets_indptr)), queries, a.thresholds))
    out = Path(__file__).parent / "results" / f"containment_costs_{a.name}.json"
    out.write_text(json.dumps(res, indent=1))
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
