"""LSH Ensemble incremental insert: how accuracy drifts as tables are added without a rebuild.

Takes an index of a whole lake, keeps a fraction of its tables as the base, then adds the
rest in steps. Each step is a delta generation whose LSH Ensemble tables reuse the base's
partition bounds (what the component builds when ``ctx.base`` is set); after each step the
union of the per-generation candidates is compared, on the same queries, with the
candidates of a rebuild over the same tables: precision/recall before verification against
brute force, candidate-stage latency, and ``generation_report`` (the false-positive bound
of the current partitioning relative to the rebuild's), which drives ``rebuild_advice``.

The generations' tables come from ``build.lshensemble.reference_tables`` (the numpy builder
the Spark component is tested equal to, tests/test_lshensemble.py) over the index's own
signatures, so no Spark build per step is needed.

    python bench/lshensemble_drift.py --lake LAKE --index INDEX --name NAME \
        [--base 0.5] [--steps 5] [--order random|size] [--per-interval 10]

``--order size`` adds the tables holding the largest columns last (a shift of the size
distribution that widens the last partition); ``random`` adds random tables each step.
Writes bench/results/lshensemble_drift_NAME.json and prints a Markdown table.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from lshensemble_common import L, bench_parser, ensure_index, mean
from lakejoin_jupyter.indexing.lshensemble import DEFAULT_PARTITIONS, reference_tables
from lakejoin_jupyter.search import bruteforce

THRESHOLDS = (0.3, 0.5, 0.7, 0.9)


class Generation:
    """LSH Ensemble tables over a subset of the index's columns (global ids ``cols``)."""

    def __init__(self, index, cols, uppers=None):
        self.cols = np.asarray(cols, dtype=np.int64)
        sig = np.asarray(index.signatures)[self.cols]
        self.sizes = np.diff(index.arrays.sets_indptr)[self.cols]
        ref = reference_tables(sig, self.sizes, DEFAULT_PARTITIONS, uppers=uppers)
        self.intervals = ref["intervals"]
        self.tables = L.Tables.from_reference(ref, sig.shape[1], 1)
        self.signatures = sig
        # what generation_report reads of an index
        self.arrays = type("A", (), {"sets_indptr": np.r_[0, np.cumsum(self.sizes)]})()
        self.components = {"lshensemble": {"intervals": self.intervals}}

    def has(self, name):
        return name in self.components

    def candidates(self, sig_q, q_size, t):
        """Candidate global column ids and the CPU seconds spent (process time: the machine
        is shared, wall time would mostly measure other people's jobs)."""
        c0 = time.process_time()
        pr = L.probe(self.tables, self.signatures, self.sizes, sig_q, q_size, t)
        return self.cols[pr.ids], time.process_time() - c0


def main(argv=None):
    p = bench_parser(__doc__)
    p.add_argument("--base", type=float, default=0.5)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--order", choices=["random", "size"], default="random")
    p.add_argument("--per-interval", type=int, default=10)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    index = ensure_index(a.lake, a.index)
    cols = index.columns
    sizes = np.diff(index.arrays.sets_indptr)
    tables = np.unique(cols["table_id"].to_numpy())
    if a.order == "random":
        tables = np.random.default_rng(a.seed).permutation(tables)
    else:
        biggest = cols.assign(size=sizes).groupby("table_id")["size"].max()
        tables = biggest.loc[tables].sort_values(kind="stable").index.to_numpy()
    n_base = int(round(a.base * len(tables)))
    chunks = [tables[:n_base]] + np.array_split(tables[n_base:], a.steps)
    col_of = cols.groupby("table_id")["column_id"].apply(np.asarray)
    members = [np.sort(np.concatenate([col_of[t] for t in ch])) for ch in chunks]
    gens = [Generation(index, members[0])]
    rng = np.random.default_rng(a.seed)
    rows = []
    for s in range(1, a.steps + 1):
        gens.append(Generation(index, members[s], uppers=gens[0].intervals))
        union = np.sort(np.concatenate(members[:s + 1]))
        rebuild = Generation(index, union)
        report = L.generation_report(gens)
        advice = L.rebuild_advice(gens)
        in_union = np.zeros(index.arrays.n_sets, dtype=bool)
        in_union[union] = True
        edges = [10] + [int(a.hi * (k + 1) / 10) for k in range(10)]
        qcols = []
        for lo, hi in zip(edges[:-1], edges[1:]):
            pool = union[(sizes[union] >= lo) & (sizes[union] <= hi)]
            if len(pool):
                qcols += rng.choice(pool, min(a.per_interval, len(pool)), replace=False).tolist()
        for t in THRESHOLDS:
            acc = {"gen": ([], [], []), "rebuild": ([], [], [])}
            for c in qcols:
                ids = np.asarray(index.arrays.set_tokens(c), dtype=np.int64)
                sig_q = np.asarray(index.signatures[c])
                sc = bruteforce.scores(index.arrays, ids, len(ids))
                ok = in_union & (sc.overlap > 0) & (sc.containment >= t - 1e-12)
                ok[c] = False
                truth = np.flatnonzero(ok)
                got_g, secs = [], 0.0
                for g in gens:
                    ids_g, dt = g.candidates(sig_q, len(ids), t)
                    got_g.append(ids_g)
                    secs += dt
                got_r, secs_r = rebuild.candidates(sig_q, len(ids), t)
                for name, got, dt in (("gen", np.unique(np.concatenate(got_g)), secs),
                                      ("rebuild", got_r, secs_r)):
                    got = got[got != c]
                    hit = len(np.intersect1d(got, truth))
                    pr, rc, lat = acc[name]
                    pr.append(hit / len(got) if len(got) else None)
                    rc.append(hit / len(truth) if len(truth) else None)
                    lat.append(dt)
            rows.append({"step": s, "t": t, "added_fraction": round(1 - len(members[0]) / len(union), 3),
                         "generations": len(gens), "cost_ratio": report["cost_ratio"],
                         "max_size": report["max_size"], "base_max_size": report["base_max_size"],
                         "advice": advice, "queries": len(qcols),
                         **{f"{n}_{k}": v for n, (pr, rc, lat) in acc.items()
                            for k, v in (("precision", mean(pr)), ("recall", mean(rc)),
                                         ("cpu_ms_mean", 1000 * float(np.mean(lat))))}})
            r = rows[-1]
            print(f"step {s} t*={t}: generations {r['generations']} cost ratio {r['cost_ratio']:.3f} | "
                  f"gens prec {r['gen_precision']:.3f} rec {r['gen_recall']:.3f} {r['gen_cpu_ms_mean']:.2f} ms | "
                  f"rebuild prec {r['rebuild_precision']:.3f} rec {r['rebuild_recall']:.3f} "
                  f"{r['rebuild_cpu_ms_mean']:.2f} ms | advice: {bool(advice)}", flush=True)
    out = Path(__file__).parent / "results" / f"lshensemble_drift_{a.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"lake": a.lake, "order": a.order, "base": a.base, "rows": rows}, indent=1))
    print(f"\n#### drift, {a.name}, order {a.order}: base {a.base:.0%} of the tables, "
          f"{a.steps} additions\n")
    print("| step | added sets | t* | cost ratio | precision gens / rebuild | recall gens / rebuild "
          "| candidates CPU ms (mean) gens / rebuild | advice |\n|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['step']} | {r['added_fraction']:.0%} | {r['t']} | {r['cost_ratio']:.2f} | "
              f"{r['gen_precision']:.3f} / {r['rebuild_precision']:.3f} | "
              f"{r['gen_recall']:.3f} / {r['rebuild_recall']:.3f} | "
              f"{r['gen_cpu_ms_mean']:.2f} / {r['rebuild_cpu_ms_mean']:.2f} | {'yes' if r['advice'] else 'no'} |")


if __name__ == "__main__":
    main()
