"""Decision-ready hits: what the per-hit join figures cost, and how close join_rows is.

    python bench/hits.py overhead LAKE INDEX --queries 100 [--k 10] [--out bench/results/hits.md]
    python bench/hits.py estimate LAKE INDEX --queries 200 [--k 10] [--out bench/results/hits.md]
    python bench/hits.py composite LAKE INDEX --queries 200 [--k 10] [--out bench/results/hits.md]

``overhead``: search latency with the annotations (join/preview.py: rows, fan-out, row
coverage, join rows, key kind, own table) against the bare search (``annotate=False``), the
same queries alternating in one run; also ``rank="useful"`` (which asks the method for
max(2k, k + 10) candidates). Queries: a random sample (seed 0) of the lake's columns with at
least 10 distinct values, each read as its table's DataFrame and searched with
``query_table`` (its own column left out, as in the other modes: the hits are other
tables').

``estimate``: for the top-k hits of random real query columns (seed 0; each query is its
table's DataFrame, its own column left out), ``join_rows`` against ``len(hit.join(df))``,
the real left join. Two figures: with the stored multiplicities (the index's joinstats:
exact by construction) and the two figures an index without them gives: with MATE, the
rows counted in MATE's value postings (exact), without MATE the column's mean rows per
value for every matched value.

``composite``: two-column queries (two random columns of a lake table with at least 10
distinct values each; the table is the query DataFrame, its own two columns left out),
MATE's top-k hits; ``join_rows`` (MATE's verification counts the lake rows of every
matched key tuple) and the estimate it replaced (a tuple's rows = the smallest of its
columns' stored counts) against the real join.
Nothing is tuned here, so there is no development / validation split.

Builds the index when INDEX does not exist: the real Spark build, default components but
LSH Ensemble (not used here).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def open_or_build(lake: Path, index: Path, components=("-lshensemble",)):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.index.store import is_index
    if not is_index(index):
        from lakejoin_jupyter.config import BuildSettings, SparkSettings
        from lakejoin_jupyter.indexing.pipeline import build
        from lakejoin_jupyter.spark import get_spark
        spark = get_spark(SparkSettings(master="local[2]", driver_memory="6g",
                                        shuffle_partitions=16))
        t = time.time()
        report = build(lake, index, spark=spark, progress=False, overwrite=True,
                       settings=BuildSettings(components=tuple(components)))
        print(f"built {index} in {time.time() - t:.0f} s: {report.summary().splitlines()[0]}",
              flush=True)
    return open_index(index)


def sample_queries(engine, n: int, seed: int = 0, min_distinct: int = 10) -> list:
    """(table, column) pairs: ``n`` random columns with at least ``min_distinct`` values."""
    cols = engine.index.columns
    tables = engine.index.tables
    ok = cols[cols["n_distinct"] >= min_distinct]
    pick = ok.sample(n=min(n, len(ok)), random_state=seed)
    names = tables.set_index("table_id")["name"]
    return [(str(names[t]), str(c)) for t, c in zip(pick["table_id"], pick["name"])]


def seed_left_out(engine, table: str) -> dict:
    """``query_table=table`` where the engine takes it: the frame read with ``engine.table``
    leaves its own column out (an engine before fixnu18a's D2 did so by the frame's attrs;
    one between D2 and ``query_table`` lists it, marked, last). For the benches that run
    one script under older checkouts (row_numbers.py, frame_pair_cost.py)."""
    import inspect
    return {"query_table": table} if "query_table" in \
        inspect.signature(engine.search).parameters else {}


def _p(xs, q):
    return float(np.percentile(xs, q)) if len(xs) else float("nan")


# ---------------------------------------------------------------------- overhead

def overhead(engine, queries, k: int, repeats: int = 3) -> dict:
    frames = {}
    for t, c in queries:
        if t not in frames:
            frames[t] = engine.table(t)
    variants = {"bare": dict(annotate=False), "annotated": dict(annotate=True),
                "useful": dict(annotate=True, rank="useful")}
    times = {v: [] for v in variants}
    for t, c in queries:                           # warm: the pages the queries read
        engine.search(frames[t], c, k=k, annotate=False, query_table=t)
    for rep in range(repeats):
        order = list(variants) if rep % 2 == 0 else list(variants)[::-1]
        for t, c in queries:
            for v in order:
                t0 = time.perf_counter()
                engine.search(frames[t], c, k=k, query_table=t, **variants[v])
                times[v].append(time.perf_counter() - t0)
    out = {v: {"p50_ms": _p(x, 50) * 1e3, "p90_ms": _p(x, 90) * 1e3} for v, x in times.items()}
    per_query = np.array(times["annotated"]) / np.array(times["bare"])
    out["ratio_p50"] = out["annotated"]["p50_ms"] / out["bare"]["p50_ms"]
    out["ratio_p90"] = out["annotated"]["p90_ms"] / out["bare"]["p90_ms"]
    out["useful_ratio_p50"] = out["useful"]["p50_ms"] / out["bare"]["p50_ms"]
    out["per_query_ratio_median"] = float(np.median(per_query))
    out["n_searches"] = len(times["bare"])
    return out


# ---------------------------------------------------------------------- estimate

def estimate(engine, queries, k: int) -> dict:
    from lakejoin_jupyter.join import preview
    rows = []
    for i, (t, c) in enumerate(queries):
        df = engine.table(t)
        res = engine.search(df, c, k=k, rank="overlap", query_table=t)
        q = res.query
        for h in res:
            real = len(h.join(df))
            gen, local = engine.index.generation_of(h.column_ids[0])
            qi, qr = engine._query_side(q, gen)
            est = preview.single_counts(qi, qr, q.n_rows, gen.arrays.set_tokens(local), None,
                                        None, mean_count=engine._catalog.mean_count(h.column_ids[0]))
            by_mate = None
            if gen.has("mate"):
                rep = engine._repeated_from_mate(gen, local, qi)
                by_mate = preview.single_counts(qi, qr, q.n_rows, gen.arrays.set_tokens(local),
                                                *rep).join_rows
            rows.append({"query": f"{t}.{c}", "hit": f"{h.table}.{h.column}",
                         "real": real, "stored": h.join_rows, "exact_flag": h.join_rows_exact,
                         "mean_estimate": est.join_rows, "mate": by_mate,
                         "key_ratio": h.key_ratio})
        if (i + 1) % 20 == 0:
            print(f"  {i + 1}/{len(queries)} queries, {len(rows)} hits", flush=True)
    real = np.array([r["real"] for r in rows], dtype=np.float64)
    stored = np.array([r["stored"] for r in rows], dtype=np.float64)
    mean = np.array([r["mean_estimate"] for r in rows], dtype=np.float64)
    fan = np.array([(r["key_ratio"] or 1) > 1 for r in rows])
    err_s, err_m = np.abs(stored - real) / real, np.abs(mean - real) / real
    err_x = (np.abs(np.array([r["mate"] for r in rows], dtype=np.float64) - real) / real
             if rows and rows[0]["mate"] is not None else None)
    return {"n_queries": len(queries), "n_hits": len(rows),
            "stored_equal": int((stored == real).sum()),
            "stored_flagged_exact": int(sum(bool(r["exact_flag"]) for r in rows)),
            "stored_median": float(np.median(err_s)), "stored_p90": _p(err_s, 90),
            "mean_median": float(np.median(err_m)), "mean_p90": _p(err_m, 90),
            "mean_exact": int((mean == real).sum()),
            "mate_equal": (int(sum(r["mate"] == r["real"] for r in rows))
                           if rows and rows[0]["mate"] is not None else None),
            "mate_median": (float(np.median(err_x)) if err_x is not None else float("nan")),
            "mate_p90": (_p(err_x, 90) if err_x is not None else float("nan")),
            "n_fanout": int(fan.sum()),
            "mean_fanout_median": float(np.median(err_m[fan])) if fan.any() else float("nan"),
            "mean_fanout_p90": _p(err_m[fan], 90),
            "worst": sorted(rows, key=lambda r: -abs(r["mean_estimate"] - r["real"]) / r["real"])[:5]}


# ---------------------------------------------------------------------- composite

def sample_pairs(engine, n: int, seed: int = 0, min_distinct: int = 10) -> list:
    """(table, column a, column b): ``n`` random tables with two columns of at least
    ``min_distinct`` values, two of those columns at random (seed fixed)."""
    rng = np.random.default_rng(seed)
    cols = engine.index.columns
    names = engine.index.tables.set_index("table_id")["name"]
    ok = cols[cols["n_distinct"] >= min_distinct]
    groups = [g for _, g in ok.groupby("table_id") if len(g) >= 2]
    pick = rng.choice(len(groups), size=min(n, len(groups)), replace=False)
    out = []
    for i in sorted(pick.tolist()):
        g = groups[i]
        a, b = rng.choice(len(g), size=2, replace=False)
        out.append((str(names[int(g["table_id"].iloc[0])]), str(g["name"].iloc[a]),
                    str(g["name"].iloc[b])))
    return out


def composite(engine, pairs, k: int) -> dict:
    """MATE hits of two-column queries: join_rows (exact) and the min-count estimate vs
    the real join."""
    from lakejoin_jupyter.join import preview
    rows, skipped = [], 0
    for i, (t, a, b) in enumerate(pairs):
        df = engine.table(t)
        try:
            res = engine.search(df, [a, b], k=k, method="mate", query_table=t)
        except Exception as e:  # noqa: BLE001 - a query with no complete key tuple
            skipped += 1
            print(f"  skipped {t} [{a}, {b}]: {e}", flush=True)
            continue
        q = res.query
        for h in res:
            real = len(h.join(df))
            matched = h.details["matched_keys"]
            gen, _ = engine.index.generation_of(h.column_ids[0])
            stats = gen.joinstats
            lake = np.ones((len(matched), 2))
            for j, cid in enumerate(h.column_ids):
                lake[:, j] = stats.counts(cid - gen.column_offset,
                                          gen.lookup([m[j] for m in matched]))
            est = preview.tuple_counts(matched, q.row_counts, q.n_rows, lake).join_rows
            rows.append({"query": f"{t}[{a}, {b}]", "hit": f"{h.table}{list(h.columns)}",
                         "real": real, "mate": h.join_rows, "exact_flag": h.join_rows_exact,
                         "min_estimate": est})
        if (i + 1) % 20 == 0:
            print(f"  {i + 1}/{len(pairs)} queries, {len(rows)} hits", flush=True)
    real = np.array([r["real"] for r in rows], dtype=np.float64)
    got = np.array([r["mate"] for r in rows], dtype=np.float64)
    est = np.array([r["min_estimate"] for r in rows], dtype=np.float64)
    err_g, err_e = np.abs(got - real) / real, np.abs(est - real) / real
    return {"n_queries": len(pairs), "n_skipped": skipped, "n_hits": len(rows),
            "n_queries_with_hits": len({r["query"] for r in rows}),
            "mate_equal": int((got == real).sum()),
            "flagged_exact": int(sum(bool(r["exact_flag"]) for r in rows)),
            "mate_median": float(np.median(err_g)) if rows else float("nan"),
            "mate_p90": _p(err_g, 90),
            "min_equal": int((est == real).sum()),
            "min_median": float(np.median(err_e)) if rows else float("nan"),
            "min_p90": _p(err_e, 90),
            "worst": sorted(rows, key=lambda r: -abs(r["min_estimate"] - r["real"]) / r["real"])[:5]}


# ---------------------------------------------------------------------- report

def _load():
    return f"{os.getloadavg()[0]:.1f}"


def write_section(out: Path, name: str, text: str) -> None:
    """Replace (or append) the section between <!-- hits:NAME --> markers in ``out``."""
    start, end = f"<!-- hits:{name} -->", f"<!-- /hits:{name} -->"
    old = out.read_text() if out.exists() else "# Decision-ready hits\n"
    block = f"{start}\n{text.strip()}\n{end}"
    if start in old:
        a, b = old.index(start), old.index(end) + len(end)
        new = old[:a] + block + old[b:]
    else:
        new = old.rstrip() + "\n\n" + block + "\n"
    out.write_text(new)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["overhead", "estimate", "composite"])
    p.add_argument("lake", type=Path)
    p.add_argument("index", type=Path)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", type=Path)
    p.add_argument("--json", type=Path)
    p.add_argument("--section", help="name of the section of --out to write (default: the mode)")
    a = p.parse_args(argv)
    cmd = "python bench/hits.py " + " ".join(sys.argv[1:] if argv is None else argv)
    engine = open_or_build(a.lake, a.index)
    n_cols = len(engine.index.columns)
    queries = sample_queries(engine, a.queries) if a.what != "composite" else \
        sample_pairs(engine, a.queries)
    load0 = _load()
    t = time.time()
    if a.what == "overhead":
        r = overhead(engine, queries, a.k, a.repeats)
        text = f"""### Search latency with the annotations vs without ({a.lake.name}, {n_cols:,} columns)

Command: `{cmd}`. {len(queries)} queries x {a.repeats} repeats, k = {a.k}, warm, the three
variants alternating per query in one process; load average {load0} before, {_load()} after
(the machine was shared).

| variant | p50 ms | p90 ms | p50 / bare |
|---|---|---|---|
| bare search (`annotate=False`) | {r['bare']['p50_ms']:.2f} | {r['bare']['p90_ms']:.2f} | 1.00x |
| with the annotations (default) | {r['annotated']['p50_ms']:.2f} | {r['annotated']['p90_ms']:.2f} | **{r['ratio_p50']:.2f}x** |
| `rank="useful"` (2k candidates, annotated, re-ranked) | {r['useful']['p50_ms']:.2f} | {r['useful']['p90_ms']:.2f} | {r['useful_ratio_p50']:.2f}x |

Median of the per-search ratios (annotated / bare): {r['per_query_ratio_median']:.2f}x. Goal: at most 1.2x.
"""
    elif a.what == "composite":
        r = composite(engine, queries, a.k)
        worst = "\n".join(f"| {w['query']} | {w['hit']} | {w['real']:,} | {w['mate']:,} | "
                          f"{w['min_estimate']:,} |" for w in r["worst"])
        text = f"""### Composite keys (MATE hits): join_rows vs the real left join ({a.lake.name}, {n_cols:,} columns)

Command: `{cmd}`. {r['n_queries']} two-column queries (random tables, two random columns with
at least 10 distinct values, seed 0), MATE's top {a.k} hits: {r['n_hits']:,} (query, hit)
pairs from {r['n_queries_with_hits']} queries, each joined for real (`len(hit.join(df))`);
{time.time() - t:.0f} s, load average {load0} before, {_load()} after.

| join_rows of a composite key | equal to the join | median rel. error | p90 rel. error |
|---|---|---|---|
| counted by MATE's verification (now) | {r['mate_equal']:,} / {r['n_hits']:,} | {r['mate_median']:.1%} | {r['mate_p90']:.1%} |
| smallest per-column count (the estimate it replaces) | {r['min_equal']:,} / {r['n_hits']:,} | {r['min_median']:.1%} | {r['min_p90']:.1%} |

Flagged exact: {r['flagged_exact']:,} of {r['n_hits']:,}. The replaced estimate's largest errors:

| query | hit | real rows | MATE count | min estimate |
|---|---|---|---|---|
{worst}
"""
    else:
        r = estimate(engine, queries, a.k)
        worst = "\n".join(f"| {w['query']} | {w['hit']} | {w['real']:,} | {w['stored']:,} | "
                          f"{w['mean_estimate']:,} |" for w in r["worst"])
        text = f"""### join_rows before the join vs the real left join ({a.lake.name}, {n_cols:,} columns)

Command: `{cmd}`. {r['n_queries']} random query columns (seed 0), their top {a.k} hits:
{r['n_hits']:,} (query, hit) pairs, each joined for real (`len(hit.join(df))`); {time.time() - t:.0f} s.

| join_rows | equal to the join | median rel. error | p90 rel. error |
|---|---|---|---|
| stored multiplicities (this index) | {r['stored_equal']:,} / {r['n_hits']:,} | {r['stored_median']:.1%} | {r['stored_p90']:.1%} |
| without them, with MATE: rows counted in MATE's value postings | {'n/a' if r['mate_equal'] is None else format(r['mate_equal'], ',')} / {r['n_hits']:,} | {r['mate_median']:.1%} | {r['mate_p90']:.1%} |
| without them and without MATE: mean rows per value | {r['mean_exact']:,} / {r['n_hits']:,} | {r['mean_median']:.1%} | {r['mean_p90']:.1%} |
| the same estimate, hits with fan-out > 1 only ({r['n_fanout']:,}) | | {r['mean_fanout_median']:.1%} | {r['mean_fanout_p90']:.1%} |

The stored figure is flagged exact for {r['stored_flagged_exact']:,} of {r['n_hits']:,} pairs.
The mean-based estimate's largest errors:

| query | hit | real rows | stored | mean estimate |
|---|---|---|---|---|
{worst}
"""
    print(text)
    if a.json:
        a.json.write_text(json.dumps(r, indent=1, default=str))
    if a.out:
        write_section(a.out, a.section or a.what, text)


if __name__ == "__main__":
    main()
