"""Table union search on a TUS-style benchmark made from real tables, with two baselines.

    python bench/union.py --lakes ../shared/data/lakes --work /tmp/union_bench
    python bench/union.py --lakes ../shared/data/lakes --work /tmp/union_bench --tune
    python bench/union.py --lakes ../shared/data/lakes --work /tmp/union_disjoint --disjoint
    python bench/union.py --lakes ../shared/data/lakes --work /tmp/union_bench --check development

The full run writes its tables to WORK/union.md (WORK/union_disjoint.md with --disjoint), or
to --out; the committed bench/results files are updated by hand from it.

The benchmark follows the construction of the TUS benchmark (Nargesian et al., VLDB 2018,
§6.1): seed tables of the lake (FiveThirtyEight + reference CSVs with >= 3 columns and >= 20
rows) each give PER_SEED derived tables (a random subset of at least half of the columns,
shuffled, a 30-70% sample of the rows, headers replaced by col_0, col_1, ... so values must
decide); a table with a sibling in the lake (a table of the same folder, or one sharing half of
its column names) is not a seed. The derived tables are mixed into a copy of the whole lake; a seed's unionable
tables are its derived ones, every other table counts as non-unionable. Each seed, read with
pandas' defaults, is a query (the seed itself is excluded from its results).

Methods, side by side in one run and through the same alignment: TUS-style evidence ensemble
(search/union.py defaults), header matching alone, value overlap alone. Seeds are split into
development (the first DEV_SEEDS of the fixed seed order: weights and sharpness were tuned on
them with --tune: sharpness 8, min_column 0.5) and validation (the rest: the headline).
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

N_SEEDS = 40
DEV_SEEDS = 15
PER_SEED = 10
SEED = 20261125
KS = (5, 10)
QUERY_SHARE = 0.3  # --disjoint: the seed rows that form the query
SIBLING = 0.5     # header-set Jaccard that makes two lake tables siblings


def read_csv(path: Path) -> pd.DataFrame | None:
    for enc in ("utf-8", "cp1252"):
        try:
            return pd.read_csv(path, encoding=enc, low_memory=False)
        except UnicodeDecodeError:
            continue
        except Exception:
            return None
    return None


def pick_seeds(lake: Path, rng) -> list[Path]:
    """Seeds: readable tables with >= 3 columns and 20-50,000 rows and no *sibling*: another
    table in the same folder (a story's tables: often one schema, e.g. a bracket file per
    day) or anywhere sharing half of its column names. Siblings are truly unionable with
    each other, so the benchmark could not count them as non-unionable."""
    heads, ok = {}, []
    for p in sorted(lake.rglob("*.csv")):
        df = read_csv(p)
        if df is None:
            continue
        heads[p] = {str(c).strip().lower() for c in df.columns}
        if df.shape[1] < 3 or len(df) < 20 or len(df) > 50_000:
            continue
        if any(str(c).startswith("Unnamed") for c in df.columns) or df.columns.duplicated().any():
            continue
        ok.append(p)

    def sibling(p):
        h = heads[p]
        return any(q.parent == p.parent or len(h & g) / len(h | g) >= SIBLING
                   for q, g in heads.items() if q != p)

    ok = [p for p in ok if not sibling(p)]
    order = rng.permutation(len(ok))
    return [ok[i] for i in order[:N_SEEDS]]


def derive(df: pd.DataFrame, rng) -> pd.DataFrame:
    n = df.shape[1]
    m = int(rng.integers(max(2, math.ceil(n / 2)), n + 1))
    cols = [df.columns[i] for i in rng.permutation(n)[:m]]
    frac = float(rng.uniform(0.3, 0.7))
    rows = np.sort(rng.choice(len(df), size=max(5, int(frac * len(df))), replace=False))
    out = df.iloc[rows][cols].copy()
    out.columns = [f"col_{i}" for i in range(m)]
    return out


def make_lake(lakes: Path, work: Path, disjoint: bool = False) -> dict:
    """Copy the lake, add the derived tables; {seed path (relative): [derived rel paths]}.
    ``disjoint``: a random QUERY_SHARE of the seed's rows is the query (written to
    work/queries/), the derived tables sample the other rows only, so they add new rows."""
    rng = np.random.default_rng(SEED)
    lake = work / "lake"
    if lake.exists():
        shutil.rmtree(lake)
    shutil.copytree(lakes, lake)
    seeds = pick_seeds(lake, rng)
    truth = {}
    for s_i, p in enumerate(seeds):
        df = read_csv(p)
        rel = p.relative_to(lake).as_posix()
        truth[rel] = []
        if disjoint:
            rows = rng.permutation(len(df))
            cut = int(QUERY_SHARE * len(df))
            (work / "queries").mkdir(exist_ok=True)
            df.iloc[np.sort(rows[:cut])].to_csv(work / "queries" / f"q{s_i:02d}.csv", index=False)
            df = df.iloc[np.sort(rows[cut:])]
        for j in range(PER_SEED):
            d = derive(df, rng)
            out = lake / "derived" / f"t{s_i:02d}_{j}.csv"
            out.parent.mkdir(parents=True, exist_ok=True)
            d.to_csv(out, index=False)
            truth[rel].append(out.relative_to(lake).as_posix())
    return truth


def ap_at(ranked: list, relevant: set, k: int) -> float:
    hits, s = 0, 0.0
    for i, t in enumerate(ranked[:k], 1):
        if t in relevant:
            hits += 1
            s += hits / i
    return s / min(k, len(relevant)) if relevant else 0.0


METHODS = {"tus": None, "header": {"header": 1.0}, "overlap": {"set": 1.0}}


def evaluate(engine, truth: dict, seeds: list, weights, **kw) -> dict:
    t = engine.index.tables
    path_of = dict(zip(t["name"], t["path"]))
    rows, lat = [], []
    for s in seeds:
        qf = LAKE.parent / "queries" / f"q{list(truth).index(s):02d}.csv"
        df = read_csv(qf if qf.exists() else LAKE / s)
        name = t.loc[t["path"] == s, "name"].iloc[0]
        t0 = time.perf_counter()             # the seed itself is left out (query_table)
        res = engine.search_unionable(df, k=max(KS), weights=weights, query_table=name, **kw)
        lat.append(time.perf_counter() - t0)
        ranked = [path_of[h.table] for h in res]
        rel = set(truth[s])
        r = {"seed": s, "by name": sum(len(getattr(h, "named", ())) for h in res),
             "by name, unionable": sum(len(getattr(h, "named", ())) for h in res
                                       if path_of[h.table] in rel)}
        for k in KS:
            got = len(rel & set(ranked[:k]))
            r[f"P@{k}"] = got / k
            r[f"R@{k}"] = got / len(rel)
            r[f"MAP@{k}"] = ap_at(ranked, rel, k)
        rows.append(r)
    out = pd.DataFrame(rows).drop(columns=["seed", "by name", "by name, unionable"]).mean().to_dict()
    out["by name"] = int(sum(r["by name"] for r in rows))      # pairs aligned by name in the top k
    out["by name, unionable"] = int(sum(r["by name, unionable"] for r in rows))
    out["p50_ms"] = float(np.percentile(lat, 50) * 1000)
    out["p90_ms"] = float(np.percentile(lat, 90) * 1000)
    return out


LAKE: Path = Path(".")


def main(argv=None) -> None:
    global LAKE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lakes", required=True, type=Path, help="folder with fivethirtyeight/ and reference/")
    ap.add_argument("--work", required=True, type=Path, help="scratch folder (lake copy, index)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the lake copy and index")
    ap.add_argument("--tune", action="store_true", help="grid over sharpness and min_column on the development seeds")
    ap.add_argument("--disjoint", action="store_true",
                    help="queries and derived tables share no row (the derived tables add rows)")
    ap.add_argument("--check", choices=("development", "validation"),
                    help="method tus on one split of the existing index, printed (no result "
                         "file): to compare two versions of the code on the same index")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--out", type=Path, help="the results file of a full run (default: "
                    "WORK/union.md, WORK/union_disjoint.md with --disjoint)")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build

    args.work.mkdir(parents=True, exist_ok=True)
    LAKE = args.work / "lake"
    idx = args.work / "lake.index"
    truth_file = args.work / "truth.json"
    import json
    build_s = None
    if args.rebuild or not idx.exists():
        if (args.work / "queries").exists():
            shutil.rmtree(args.work / "queries")
        truth = make_lake(args.lakes, args.work, args.disjoint)
        truth_file.write_text(json.dumps(truth))
        t0 = time.time()
        rep = build(LAKE, idx, master=args.master, overwrite=True, progress=False,
                    settings=BuildSettings(components=("-josie", "-mate", "-lshensemble", "union")))
        build_s = (time.time() - t0, rep.phase_seconds)
        print(rep.summary().splitlines()[0])
    truth = json.loads(truth_file.read_text())
    seeds = list(truth)
    dev, val = seeds[:DEV_SEEDS], seeds[DEV_SEEDS:]
    engine = open_index(idx, verify=False)
    engine.search_unionable(read_csv(LAKE / seeds[0]), k=1)      # warm: load arrays, embedder
    if args.check:
        r = evaluate(engine, truth, dev if args.check == "development" else val, None)
        print(args.check, "tus", {k: round(v, 3) for k, v in r.items()},
              f"load {os.getloadavg()[0]:.1f}")
        return
    if args.tune:
        for sharp in (1, 2, 4, 8):
            for mc in (0.3, 0.5, 0.7):
                r = evaluate(engine, truth, dev, None, sharpness=sharp, min_column=mc)
                print(f"sharpness {sharp} min_column {mc}: MAP@10 {r['MAP@10']:.3f} "
                      f"P@10 {r['P@10']:.3f} R@10 {r['R@10']:.3f}")
        return
    res = {}
    load = [os.getloadavg()[0]]
    for split, ss in (("validation", val), ("development", dev)):
        for m, w in METHODS.items():
            res[(split, m)] = evaluate(engine, truth, ss, w)
            print(split, m, {k: round(v, 3) for k, v in res[(split, m)].items()})
            load.append(os.getloadavg()[0])
    b = engine.index.manifest.get("build", {})
    build_s = (b.get("seconds", float("nan")), b.get("phases", {}))
    disjoint = (LAKE.parent / "queries").exists()
    result = args.out or args.work / ("union_disjoint.md" if disjoint else "union.md")
    write(result, res, len(seeds), sum(len(v) for v in truth.values()),
          len(engine.index.tables), engine.index.n_sets, build_s, disjoint, load)


def write(result: Path, res, n_seeds, n_derived, n_tables, n_cols, build_s, disjoint=False,
          load=()) -> None:
    cols = ["MAP@5", "P@5", "R@5", "MAP@10", "P@10", "R@10", "p50_ms", "p90_ms"]
    lines = ["Command: `python bench/union.py --lakes ../shared/data/lakes "
             + ("--work /tmp/union_disjoint --disjoint`" if disjoint else "--work /tmp/union_bench`"),
             "",
             ("Disjoint rows: each query is a random 30% of its seed's rows (not in the lake), "
              "the derived tables sample the other 70%, so they add rows the query lacks and "
              "value overlap is left to the columns with repeated values." if disjoint else
              "Derived tables sample the seed's rows; the query is the whole seed (the TUS "
              "construction), so every derived column shares values with the query."), "",
             f"TUS-style benchmark: {n_seeds} seed tables of the FiveThirtyEight + reference lake, "
             f"{n_derived} derived unionable tables (column subsets, row samples, headers "
             f"col_0, col_1, ...) mixed into the lake ({n_tables} tables, {n_cols} columns). "
             f"Seeds {DEV_SEEDS} development (tuning) / {n_seeds - DEV_SEEDS} validation. "
             "One run, the three methods through the same alignment; the machine was shared "
             "(2 cores, other jobs running), so latencies are noisy: load average (1 min) "
             f"{min(load, default=float('nan')):.1f}-{max(load, default=float('nan')):.1f} "
             "during the queries.", ""]
    for split in ("validation", "development"):
        lines += [f"### {split.capitalize()} seeds" + (" (headline)" if split == "validation" else ""),
                  "", "| method | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
        for m in METHODS:
            r = res[(split, m)]
            lines.append(f"| {m} | " + " | ".join(
                f"{r[c]:.1f}" if c.endswith("ms") else f"{r[c]:.3f}" for c in cols) + " |")
        t, h, o = (res[(split, m)] for m in METHODS)
        lines += ["", f"MAP@10 gain over header matching: {t['MAP@10'] - h['MAP@10']:+.3f}, "
                      f"over value overlap: {t['MAP@10'] - o['MAP@10']:+.3f}.", ""]
        if split == "validation" and o["MAP@10"] + 0.2 > 1:
            lines += [f"The issue's goal (MAP above both baselines by >= 0.2) cannot hold here: "
                      f"value overlap alone reaches MAP@10 {o['MAP@10']:.3f}, so +0.2 would "
                      f"need a MAP above 1. " + ("" if disjoint else
                      "This construction samples the query's own rows, so every derived "
                      "column shares values with it; see the disjoint construction "
                      "(union_disjoint.md) for tables that add new rows."), ""]
    if build_s:
        secs, phases = build_s
        u = phases.get("union", float("nan"))
        lines += [f"Index build (core without JOSIE/LSH Ensemble/MATE, plus union; same loaded "
                  f"machine): {secs:.0f} s, of which the union component {u:.0f} s "
                  f"({u / secs:.0%}).", ""]
    result.write_text("\n".join(lines) + "\n")
    print(f"wrote {result}")


if __name__ == "__main__":
    main()
