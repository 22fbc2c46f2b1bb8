"""LSH Ensemble accuracy: precision and recall BEFORE verification (thesis §2.5.4, Eq.
2.27/2.28) against brute-force ground truth, at t* = 0.1 .. 1.0, for 8, 16 and 32 partitions,
plus where the recall goes: recall by candidate-size/query-size ratio x/q, and the
signature-length ceiling (the best any banding of m hash values can do for a pair of
Jaccard J is 1 - (1 - J)^m, with r = 1, b = m).

    python bench/lshensemble_accuracy.py --lake LAKE --index INDEX --name NAME \
        [--per-interval 20] [--hi 1000] [--partitions 8 16 32] \
        [--variant paper:fn_weight=0.5 --variant recall:fn_weight=0.9] [--num-perm 256]

INDEX is built from LAKE with the real Spark build when it does not exist. Precision is
averaged over queries with a non-empty answer, recall over queries with a non-empty truth
(as the thesis does). Writes bench/results/lshensemble_accuracy_NAME.json and prints
Markdown tables.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from lshensemble_common import (L, bench_parser, Query, context, ensure_index, ensure_tables, mean,
                                pick_queries, precision_recall)

RATIO_BUCKETS = [0, 1, 2, 5, 10, 50, 200, np.inf]


def parse_variant(text: str) -> tuple[str, dict]:
    name, _, spec = text.partition(":")
    opts = {}
    for kv in filter(None, spec.split(",")):
        k, v = kv.split("=")
        opts[k] = None if v == "none" else (float(v) if "." in v else int(v))
    return name, opts


def main(argv=None):
    p = bench_parser(__doc__)
    p.add_argument("--per-interval", type=int, default=20)
    p.add_argument("--lo", type=int, default=10)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--partitions", type=int, nargs="+", default=[8, 16, 32])
    p.add_argument("--thresholds", type=float, nargs="+",
                   default=[round(0.1 * i, 1) for i in range(1, 11)])
    p.add_argument("--variant", action="append", default=None,
                   help="NAME:opt=value,...  search options of a variant (default paper:fn_weight=0.5)")
    p.add_argument("--num-perm", type=int, default=None, help="hash values used (default: all)")
    p.add_argument("--out", default=None)
    a = p.parse_args(argv)
    variants = [parse_variant(v) for v in (a.variant or ["paper:fn_weight=0.5"])]
    index = ensure_index(a.lake, a.index)
    m = a.num_perm or index.components["minhash"]["num_perm"]
    qids = pick_queries(index, a.per_interval, a.lo, a.hi)
    tables = {n: ensure_tables(index, n) for n in a.partitions}
    t0 = time.time()
    queries = [Query(index, c) for c in qids]
    print(f"{a.name}: {index.arrays.n_sets} sets, {len(queries)} queries "
          f"(|Q| {min(q.size for q in queries)}..{max(q.size for q in queries)}), "
          f"ground truth in {time.time() - t0:.1f} s, m = {m}", flush=True)
    sizes = np.diff(index.arrays.sets_indptr)
    rows, ratio_rows = [], []
    for n_part in a.partitions:
        ctx = context(index, tables[n_part][0])
        for vname, opts in variants:
            for t in a.thresholds:
                precs, recs, ncand = [], [], []
                found_by_bucket = np.zeros(len(RATIO_BUCKETS) - 1)
                total_by_bucket = np.zeros(len(RATIO_BUCKETS) - 1)
                ceiling_by_bucket = np.zeros(len(RATIO_BUCKETS) - 1)
                for q in queries:
                    pr = L.probe(ctx.tables, ctx.signatures, ctx.set_sizes, q.signature, q.size,
                                 t, num_perm=m, **opts)
                    truth = q.truth(t)
                    prec, rec = precision_recall(pr.ids, truth, q.cid)
                    precs.append(prec)
                    recs.append(rec)
                    ncand.append(len(pr.ids))
                    if len(truth):
                        xq = sizes[truth] / q.size
                        bucket = np.searchsorted(RATIO_BUCKETS, xq, side="right") - 1
                        got = np.isin(truth, pr.ids)
                        jac = q.overlap[truth] / (q.size + sizes[truth] - q.overlap[truth])
                        np.add.at(total_by_bucket, bucket, 1)
                        np.add.at(found_by_bucket, bucket, got)
                        np.add.at(ceiling_by_bucket, bucket, 1 - (1 - jac) ** m)
                rows.append({"partitions": n_part, "variant": vname, "t": t,
                             "precision": mean(precs), "recall": mean(recs),
                             "queries_with_answers": sum(r is not None for r in recs),
                             "mean_candidates": float(np.mean(ncand))})
                ratio_rows.append({"partitions": n_part, "variant": vname, "t": t,
                                   "pairs": total_by_bucket.tolist(),
                                   "found": found_by_bucket.tolist(),
                                   "ceiling": ceiling_by_bucket.tolist()})
                r = rows[-1]
                print(f"  P={n_part:2d} {vname:8s} t*={t:.1f}  precision {r['precision']:.3f}  "
                      f"recall {r['recall']:.3f}  (queries with answers {r['queries_with_answers']}, "
                      f"candidates {r['mean_candidates']:.0f})", flush=True)
    out = Path(a.out or Path(__file__).parent / "results" / f"lshensemble_accuracy_{a.name}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"name": a.name, "lake": a.lake, "n_sets": int(index.arrays.n_sets),
                               "queries": len(queries), "num_perm": m, "rows": rows,
                               "by_ratio": ratio_rows, "buckets": [str(b) for b in RATIO_BUCKETS],
                               "partitions": {n: s for n, (_, s) in tables.items()}}, indent=1))
    print_markdown(rows, ratio_rows, a.partitions, variants)


def print_markdown(rows, ratio_rows, parts, variants):
    ts = sorted({r["t"] for r in rows})
    for vname, _ in variants:
        print(f"\n#### variant {vname}: precision / recall before verification\n")
        print("| t* | " + " | ".join(f"P={n} prec | P={n} rec" for n in parts) + " |")
        print("|---|" + "---|---|" * len(parts))
        for t in ts:
            cells = []
            for n in parts:
                r = next(x for x in rows if x["t"] == t and x["partitions"] == n and x["variant"] == vname)
                cells += [f"{r['precision']:.3f}", f"{r['recall']:.3f}"]
            print(f"| {t:.1f} | " + " | ".join(cells) + " |")
        n = parts[-1]
        print(f"\n#### variant {vname}, P={n}: recall by x/q (found / answers; ceiling 1-(1-J)^m)\n")
        labels = [f"{lo:g}-{hi:g}" for lo, hi in zip(RATIO_BUCKETS[:-1], RATIO_BUCKETS[1:])]
        print("| t* | " + " | ".join(labels) + " |")
        print("|---|" + "---|" * len(labels))
        for t in ts:
            rr = next(x for x in ratio_rows if x["t"] == t and x["partitions"] == n and x["variant"] == vname)
            cells = [f"{f / p:.2f} ({c / p:.2f}) n={int(p)}" if p else "-"
                     for f, c, p in zip(rr["found"], rr["ceiling"], rr["pairs"])]
            print(f"| {t:.1f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
