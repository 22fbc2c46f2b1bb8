"""Fit LSH Ensemble's routing cost model (search/lshensemble.py ROUTE_EXACT_US, ROUTE_LSH_US)
on the timed runs of one or more `bench/lshensemble_perf.py --route-fit` results, jointly, and
report how the fitted model and the shipped constants choose on each run.

    python bench/lshensemble_route_fit.py bench/results/lshensemble_perf_A.json [B.json ...]

Each run holds, per (query, t*), the prefix entries and bands each route reads, the query's
posting entries and both routes' measured seconds. A choice is "wrong" when the route it
picks is the slower of the two on that run; "p50 chosen" is the p50 of the routes it picks.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.lshensemble_perf import route_choices, route_fit  # noqa: E402
from lakejoin_jupyter.search import lshensemble as L  # noqa: E402


def main(argv=None):
    files = [Path(f) for f in (argv or sys.argv[1:])]
    if not files:
        raise SystemExit(__doc__)
    runs = {}
    for f in files:
        res = json.loads(f.read_text())
        if "route_fit_rows" not in res:
            raise SystemExit(f"{f}: no route_fit_rows; re-run bench/lshensemble_perf.py with "
                             f"--route-fit")
        runs[res["name"]] = np.asarray(res["route_fit_rows"], dtype=np.float64)
    joint = route_fit(np.concatenate(list(runs.values())))
    print(f"joint fit over {joint['runs']} runs: exact {joint['exact_us']}, LSH {joint['lsh_us']}")
    print("\n| run | model | wrong choices | routed to LSH | p50 chosen ms | p50 best of both ms "
          "| p50 exact ms | p50 LSH ms |\n|---|---|---|---|---|---|---|---|")
    for name, rows in runs.items():
        for label, (e, l_) in {"shipped": (L.ROUTE_EXACT_US, L.ROUTE_LSH_US),
                               "joint fit": (joint["exact_us"], joint["lsh_us"])}.items():
            c = route_choices(rows, e, l_)
            print(f"| {name} | {label} | {100 * c['wrong']:.1f} % | {100 * c['share_lsh']:.1f} % "
                  f"| {c['p50_chosen_ms']:.3f} | {c['p50_best_ms']:.3f} | {c['p50_exact_ms']:.3f} "
                  f"| {c['p50_lsh_ms']:.3f} |")


if __name__ == "__main__":
    main()
