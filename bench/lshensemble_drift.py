"""LSH Ensemble incremental insert: how accuracy drifts as tables are added without a rebuild.

Builds the index of a fraction of the lake's tables (the base), then adds the rest in
steps, each as a delta index whose LSH Ensemble reuses the base's partitions (what
`lakejoin index --add` builds: the component receives ``ctx.base``), and after each step
compares, on the same queries, the union of the per-generation candidates with the
candidates of a full rebuild of the same tables: precision/recall before verification
against brute force on the rebuild, candidate-stage latency, and the drift measure behind
``rebuild_advice`` (false-positive bound of the current partitioning / rebuild's).

    python bench/lshensemble_drift.py --lake LAKE --work DIR --name NAME \
        [--base 0.5] [--steps 5] [--order random|size] [--per-interval 10]

``--order size`` adds the largest tables last (a distribution shift that widens the last
partition); ``random`` adds a random sample each step. Writes
bench/results/lshensemble_drift_NAME.json and prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from lshensemble_common import L, ensure_index, mean, pick_queries, spark_session
from lakejoin_jupyter.hashing import minhash_of_tokens
from lakejoin_jupyter.index.store import Index
from lakejoin_jupyter.lake.discover import discover
from lakejoin_jupyter.search import bruteforce

THRESHOLDS = (0.3, 0.5, 0.7, 0.9)


def build(files, out: Path, base: Index | None = None) -> Index:
    """Full build of ``files`` at ``out``; with ``base``, the LSH Ensemble component is
    built as an incremental insert into the base's partitions (ctx.base)."""
    from lakejoin_jupyter.build import pipeline
    if not (out / "manifest.json").exists():
        original = pipeline.COMPONENTS["lshensemble"]
        if base is not None:
            def with_base(ctx):
                ctx.base = base
                return original.build(ctx)
            pipeline.COMPONENTS["lshensemble"] = pipeline.Component("lshensemble", with_base,
                                                                      default=True)
        try:
            pipeline.build(list(files), out, spark=spark_session(), progress=False)
        finally:
            pipeline.COMPONENTS["lshensemble"] = original
    return Index(out, verify=False, check_lake=False)


def column_keys(ix: Index) -> list:
    uri = ix.tables["uri"].to_numpy()
    return [(uri[t], n) for t, n in zip(ix.columns["table_id"], ix.columns["name"])]


def candidates(ix: Index, keys: list, tokens: list, t: float) -> tuple[set, float]:
    """Keys of the LSH Ensemble candidates of ``ix`` for a query given as tokens."""
    tables = L.Tables.load(ix)
    sig = minhash_of_tokens(tokens, tables.num_perm, tables.seed)
    t0 = time.perf_counter()
    pr = L.probe(tables, ix.signatures, np.diff(ix.arrays.sets_indptr), sig, len(tokens), t)
    return {keys[i] for i in pr.ids.tolist()}, time.perf_counter() - t0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lake", required=True)
    p.add_argument("--work", required=True, help="folder for the indexes")
    p.add_argument("--name", required=True)
    p.add_argument("--base", type=float, default=0.5)
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--order", choices=["random", "size"], default="random")
    p.add_argument("--per-interval", type=int, default=10)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    files = [t.uri for t in discover(a.lake).tables]
    if a.order == "random":
        files = [files[i] for i in np.random.default_rng(a.seed).permutation(len(files))]
    else:
        files.sort(key=lambda f: Path(f).stat().st_size)
    n_base = int(round(a.base * len(files)))
    chunks = np.array_split(np.arange(n_base, len(files)), a.steps)
    base = build(files[:n_base], work / "base.index")
    gens = [base]
    rows = []
    for s, chunk in enumerate(chunks, 1):
        gens.append(build([files[i] for i in chunk], work / f"delta{s}.index", base))
        rebuild = build(files[:chunk[-1] + 1], work / f"rebuild{s}.index")
        report = L.generation_report(gens)
        advice = L.rebuild_advice(gens)
        rkeys = column_keys(rebuild)
        gkeys = [column_keys(g) for g in gens]
        qcols = pick_queries(rebuild, a.per_interval, 10, a.hi, seed=a.seed + s)
        for t in THRESHOLDS:
            stats = {"gen": ([], [], []), "rebuild": ([], [], [])}
            for c in qcols:
                ids = np.asarray(rebuild.arrays.set_tokens(c))
                tokens = rebuild.token_text(ids)
                sc = bruteforce.scores(rebuild.arrays, ids, len(ids))
                truth = {rkeys[i] for i in np.flatnonzero((sc.overlap > 0) & (sc.containment >= t - 1e-12))
                         if i != c}
                got_g, secs = set(), 0.0
                for g, keys in zip(gens, gkeys):
                    k, dt = candidates(g, keys, tokens, t)
                    got_g |= k
                    secs += dt
                got_r, secs_r = candidates(rebuild, rkeys, tokens, t)
                for name, got, dt in (("gen", got_g, secs), ("rebuild", got_r, secs_r)):
                    got = got - {rkeys[c]}
                    pr, rc, lat = stats[name]
                    pr.append(len(got & truth) / len(got) if got else None)
                    rc.append(len(got & truth) / len(truth) if truth else None)
                    lat.append(dt)
            rows.append({"step": s, "t": t, "added_fraction": round(1 - n_base / (chunk[-1] + 1), 3),
                         "generations": len(gens), "cost_ratio": report["cost_ratio"],
                         "advice": advice, "queries": len(qcols),
                         **{f"{n}_{k}": v for n, (pr, rc, lat) in stats.items()
                            for k, v in (("precision", mean(pr)), ("recall", mean(rc)),
                                         ("ms_p50", 1000 * float(np.median(lat))))}})
            r = rows[-1]
            print(f"step {s} t*={t}: generations {r['generations']} cost ratio {r['cost_ratio']:.3f} | "
                  f"gens prec {r['gen_precision']:.3f} rec {r['gen_recall']:.3f} {r['gen_ms_p50']:.2f} ms | "
                  f"rebuild prec {r['rebuild_precision']:.3f} rec {r['rebuild_recall']:.3f} "
                  f"{r['rebuild_ms_p50']:.2f} ms | advice: {bool(advice)}", flush=True)
    out = Path(__file__).parent / "results" / f"lshensemble_drift_{a.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"lake": a.lake, "order": a.order, "base": a.base, "rows": rows}, indent=1))
    print("\n| step | added | t* | cost ratio | prec gens / rebuild | recall gens / rebuild | "
          "candidates ms p50 gens / rebuild | advice |\n|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['step']} | {r['added_fraction']:.0%} | {r['t']} | {r['cost_ratio']:.2f} | "
              f"{r['gen_precision']:.3f} / {r['rebuild_precision']:.3f} | "
              f"{r['gen_recall']:.3f} / {r['rebuild_recall']:.3f} | "
              f"{r['gen_ms_p50']:.2f} / {r['rebuild_ms_p50']:.2f} | {'yes' if r['advice'] else 'no'} |")


if __name__ == "__main__":
    main()
