"""Side-by-side benchmark of the exact top-k overlap methods on synthetic lakes.

    python bench/josie.py WORK_DIR --lakes opendata-1e5 webtable-1e5 \
        [--per-interval 10] [--ks 1 10 50] [--out bench/results/josie.md]

For each lake (generated and indexed with the real Spark build by bench/josie_prepare.py
under WORK_DIR/NAME, reused when present) queries are lake columns sampled as in JOSIE §4.2:
stratified by |Q ∩ U| (U without the query's own column) into 10 equal-width intervals
over [10, max), ``--per-interval`` queries each; the query's own column is excluded.

Methods, all on the same memory-mapped arrays of the same index, in one process:
  josie        JOSIE-D (plan="josie": the cost-based algorithm alone)
  josie-auto   the engine's default: JOSIE-D or MergeList-D chosen per query (plan="auto")
  mergelist    MergeList-D (numpy gather + bincount/sort)
  probeset     ProbeSet-D
  duckdb       DuckDB SQL over the same postings: join with the query's distinct lists,
               sum the weights, group by set_id, top k. Warm: a DuckDB table loaded from
               the index's postings Parquet (sorted by token_id); cold: read_parquet over
               the Parquet files.
Warm: everything in the page cache; each method runs a query once untimed, then timed
(the first method to touch a query's lists would otherwise pay their CPU-cache misses).
Cold: before every query the index files are dropped from the page cache with
posix_fadvise(DONTNEED) and the memory maps are re-opened (so no page is mapped), i.e. the
state of a fresh process on an index not in memory; JOSIE uses the "cold" cost profile.
Latency is wall-clock; "CPU ms" is the process CPU time of the same call (all threads, so
DuckDB's can exceed its wall time), which is steadier than wall time on a shared machine.
Every answer is checked against MergeList-D's overlap multiset; mismatches are counted.
Peak extra memory per query is measured in a separate warm pass with tracemalloc (numpy
allocations; DuckDB's own allocator is not visible to it).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.josie_prepare import prepare  # noqa: E402
from bench.josie_real import replace_section  # noqa: E402
from lakejoin_jupyter.index.reads import drop_from_page_cache, load_arrays  # noqa: E402
from lakejoin_jupyter.search.josie_cost import CostModel  # noqa: E402
from lakejoin_jupyter.index.store import ARRAY_FILES  # noqa: E402
from lakejoin_jupyter.search import josie, mergelist, probeset  # noqa: E402
from lakejoin_jupyter.search.overlap import distinct_lists  # noqa: E402

METHODS = ("josie", "josie-auto", "mergelist", "probeset", "duckdb")


def index_files(index: Path) -> list:
    return [str(index / rel) for rel in ARRAY_FILES.values()]


def parquet_files(index: Path) -> list:
    return [str(p) for p in (index / "postings" / "postings.parquet").glob("*.parquet")]


def sample_queries(a, per_interval: int, max_size: int | None, seed: int = 618):
    """Set ids stratified by |Q ∩ U| in 10 equal-width intervals over [10, max)
    (search/josie.stratified_columns), in random run order (JOSIE's harness)."""
    rng = np.random.default_rng(seed)
    out, edges = josie.stratified_columns(a, per_interval, rng, max_size)
    order = rng.permutation(len(out))
    return [out[i] for i in order], edges


class DuckPeer:
    def __init__(self, index: Path, in_memory: bool):
        import duckdb
        self.con = duckdb.connect()
        self.con.execute("SET threads TO 2")
        src = f"read_parquet('{index / 'postings' / 'postings.parquet'}/*.parquet')"
        if in_memory:
            self.con.execute(f"CREATE TABLE post AS SELECT token_id, set_id FROM {src} "
                             f"ORDER BY token_id")
            self.src = "post"
        else:
            self.src = src

    def search(self, a, token_ids, k, exclude):
        lists = distinct_lists(a, token_ids, exclude)
        if lists.n == 0:
            return []
        import pandas as pd
        qdf = pd.DataFrame({"token_id": lists.list_tokens.astype(np.int32),
                            "weight": (lists.skipped + 1).astype(np.int64)})
        self.con.register("q", qdf)
        ex = ",".join(str(int(x)) for x in lists.exclude) or "-1"
        rows = self.con.execute(
            f"SELECT p.set_id, SUM(q.weight) AS ov FROM {self.src} p JOIN q USING (token_id) "
            f"WHERE p.set_id NOT IN ({ex}) GROUP BY p.set_id "
            f"ORDER BY ov DESC, p.set_id LIMIT {int(k)}").fetchall()
        self.con.unregister("q")
        return [(int(s), int(o)) for s, o in rows]


def run_method(name, a, q, k, exclude, costs, duck):
    if name == "josie":
        return josie.search(a, q, k, exclude, costs=costs, plan="josie")
    if name == "josie-auto":
        return josie.search(a, q, k, exclude, costs=costs, plan="auto")
    if name == "mergelist":
        return mergelist.search(a, q, k, exclude)
    if name == "probeset":
        return probeset.search(a, q, k, exclude)
    return duck.search(a, q, k, exclude), None


def bench_lake(work: Path, name: str, per_interval: int, ks, max_size, methods, cold: bool,
               memory: bool, log):
    index = prepare(work, name)
    manifest = json.loads((index / "manifest.json").read_text())
    prep = json.loads((work / name / "prepare.json").read_text())
    a = load_arrays(index)
    queries, edges = sample_queries(a, per_interval, max_size)
    log(f"{name}: {a.n_sets} sets, {a.n_tokens} tokens, {len(queries)} queries")
    costs = {"warm": CostModel.from_manifest(manifest, "warm"),
             "cold": CostModel.from_manifest(manifest, "cold")}
    rows = []        # one per (mode, k, method, query)
    duck_warm = DuckPeer(index, in_memory=True) if "duckdb" in methods else None
    for sid, lo, hi in queries[: min(len(queries), 5)]:          # warm-up
        for m in methods:
            run_method(m, a, a.set_tokens(sid), 10, {sid}, costs["warm"], duck_warm)
    for k in ks:
        for i, (sid, lo, hi) in enumerate(queries):
            q = np.asarray(a.set_tokens(sid))
            # whichever method touches a query's posting lists first pays their CPU-cache
            # misses (about 2 ms here), so each method runs once untimed, then timed
            order = methods[i % len(methods):] + methods[:i % len(methods)]
            got = {}
            for m in order:
                run_method(m, a, q, k, {sid}, costs["warm"], duck_warm)
                c = time.process_time()
                t = time.perf_counter()
                res, st = run_method(m, a, q, k, {sid}, costs["warm"], duck_warm)
                got[m] = (time.perf_counter() - t, time.process_time() - c, st,
                          sorted(o for _, o in res))
            ref = got["mergelist" if "mergelist" in got else methods[0]][3]
            for m in methods:
                dt, dc, st, ms = got[m]
                rows.append(_row("warm", k, m, sid, lo, hi, dt, st, ms == ref, dc))
        log(f"  warm k={k} done")
    if memory:
        for sid, lo, hi in queries:
            q = np.asarray(a.set_tokens(sid))
            for m in methods:
                if m == "duckdb":
                    continue
                gc.collect()
                tracemalloc.start()
                run_method(m, a, q, 10, {sid}, costs["warm"], None)
                _, peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
                rows.append({"mode": "memory", "k": 10, "method": m, "query": sid, "lo": lo,
                             "hi": hi, "peak_bytes": peak})
        log("  memory done")
    if duck_warm is not None:
        duck_warm.con.close()
    del a
    gc.collect()
    if cold:
        duck_cold = DuckPeer(index, in_memory=False) if "duckdb" in methods else None
        files = index_files(index) + parquet_files(index)
        k = 10
        for sid, lo, hi in queries:
            got = {}
            for m in methods:
                a = load_arrays(index)
                q = np.array(a.set_tokens(sid))
                del a
                gc.collect()
                drop_from_page_cache(files)
                a = load_arrays(index)
                c = time.process_time()
                t = time.perf_counter()
                res, st = run_method(m, a, q, k, {sid}, costs["cold"], duck_cold)
                dt = time.perf_counter() - t
                dc = time.process_time() - c
                got[m] = (dt, dc, st, sorted(o for _, o in res))
                del a
                gc.collect()
            ref = got["mergelist" if "mergelist" in got else methods[0]][3]
            for m in methods:
                dt, dc, st, ms = got[m]
                rows.append(_row("cold", k, m, sid, lo, hi, dt, st, ms == ref, dc))
        log("  cold done")
        if duck_cold is not None:
            duck_cold.con.close()
    return {"lake": name, "prepare": prep, "counts": manifest["counts"],
            "lists": manifest["components"].get("josie", {}).get("lists"),
            "costs": manifest["components"].get("josie", {}).get("costs"),
            "edges": edges, "rows": rows}


def _row(mode, k, m, sid, lo, hi, dt, st, ok, cpu):
    r = {"mode": mode, "k": k, "method": m, "query": sid, "lo": lo, "hi": hi, "ms": dt * 1000,
         "cpu_ms": cpu * 1000, "ok": bool(ok)}
    if st is not None:
        d = st.as_dict()
        for key in ("n", "lists_read", "posting_entries_read", "sets_read", "set_tokens_read",
                    "plan"):
            if key in d:
                r[key] = d[key]
    return r


# ---------------------------------------------------------------------------- report

def _pct(x, p):
    return float(np.percentile(x, p)) if len(x) else float("nan")


def summarize(result, methods) -> str:
    import pandas as pd
    df = pd.DataFrame(result["rows"])
    out = []
    c, lists, prep = result["counts"], result["lists"] or {}, result["prepare"]
    out.append(f"### {result['lake']}\n")
    out.append(f"{c['columns']:,} sets, {c['tokens']:,} distinct tokens, {c['postings']:,} "
               f"posting entries; {lists.get('distinct', 0):,} distinct posting lists "
               f"({lists.get('dup_pct', 0)}% of lists in a duplicate group). Lake generated in "
               f"{prep.get('generate_seconds', '?')} s, indexed by "
               f"{prep.get('builder', 'the Spark build (local[2])')} in "
               f"{prep.get('build_seconds', '?')} s. Query-size intervals (|Q ∩ U|): "
               f"{result['edges']}.\n")
    for mode in ("warm", "cold"):
        sub = df[df["mode"] == mode]
        if sub.empty:
            continue
        out.append(f"\n**{mode}** ({'page cache dropped and maps re-opened before every query' if mode == 'cold' else 'index in the page cache'})\n")
        out.append("| k | method | p50 ms | p90 ms | mean ms | p50 CPU ms | posting entries read (mean) | "
                   "lists read (mean) | sets read (mean) | set tokens read (mean) | "
                   "p50 / MergeList-D p50 | DuckDB p50 / p50 | DuckDB CPU p50 / CPU p50 | "
                   "answers = MergeList-D |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for k in sorted(sub["k"].unique()):
            sk = sub[sub["k"] == k]
            base = _pct(sk[sk["method"] == "mergelist"]["ms"], 50)
            duck = _pct(sk[sk["method"] == "duckdb"]["ms"], 50)
            duck_cpu = _pct(sk[sk["method"] == "duckdb"]["cpu_ms"], 50)
            for m in methods:
                r = sk[sk["method"] == m]
                if r.empty:
                    continue
                p50 = _pct(r["ms"], 50)

                def mean(col):
                    return f"{r[col].mean():,.0f}" if col in r and r[col].notna().any() else "n/a"
                out.append(f"| {k} | {m} | {p50:.2f} | {_pct(r['ms'], 90):.2f} | "
                           f"{r['ms'].mean():.2f} | {_pct(r['cpu_ms'], 50):.2f} | "
                           f"{mean('posting_entries_read')} | "
                           f"{mean('lists_read')} | {mean('sets_read')} | "
                           f"{mean('set_tokens_read')} | {p50 / base:.2f}x | "
                           f"{duck / p50:.1f}x | {duck_cpu / _pct(r['cpu_ms'], 50):.1f}x | "
                           f"{int(r['ok'].sum())}/{len(r)} |")
        if "plan" in sub:
            auto = sub[(sub["method"] == "josie-auto")]
            if not auto.empty:
                share = (auto["plan"] == "josie").mean()
                out.append(f"\njosie-auto chose JOSIE-D for {share:.0%} of the {mode} queries "
                           f"(MergeList-D for the rest).")
    mem = df[df["mode"] == "memory"]
    if not mem.empty:
        out.append("\n**Peak extra memory per query** (tracemalloc, k=10, warm)\n")
        out.append("| method | p50 KiB | p90 KiB | max KiB |")
        out.append("|---|---:|---:|---:|")
        for m in methods:
            r = mem[mem["method"] == m]["peak_bytes"] / 1024
            if len(r):
                out.append(f"| {m} | {_pct(r, 50):,.0f} | {_pct(r, 90):,.0f} | {r.max():,.0f} |")
    # by query-size interval at k=10 (the paper's figures are per interval)
    sub = df[(df["mode"] == "warm") & (df["k"] == 10)]
    if not sub.empty:
        out.append("\n**By query size** (warm, k=10): p50 ms per interval of |Q ∩ U|\n")
        ivs = sorted(sub["lo"].unique())
        out.append("| method | " + " | ".join(f"[{lo},{sub[sub['lo'] == lo]['hi'].iloc[0]})" for lo in ivs) + " |")
        out.append("|---|" + "---:|" * len(ivs))
        for m in methods:
            r = sub[sub["method"] == m]
            out.append(f"| {m} | " + " | ".join(f"{_pct(r[r['lo'] == lo]['ms'], 50):.2f}" for lo in ivs) + " |")
        for col in ("posting_entries_read", "sets_read"):
            out.append(f"\nmean {col.replace('_', ' ')} per interval (warm, k=10)\n")
            out.append("| method | " + " | ".join(str(lo) for lo in ivs) + " |")
            out.append("|---|" + "---:|" * len(ivs))
            for m in ("josie", "mergelist", "probeset"):
                r = sub[sub["method"] == m]
                out.append(f"| {m} | " + " | ".join(f"{r[r['lo'] == lo][col].mean():,.0f}" for lo in ivs) + " |")
    return "\n".join(out) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="folder for the generated lakes and indexes")
    p.add_argument("--lakes", nargs="+", default=["opendata-1e5", "webtable-1e5"])
    p.add_argument("--per-interval", type=int, default=10)
    p.add_argument("--max-query", type=int, nargs="*", default=None,
                   help="upper end of the query-size range per lake (default: largest)")
    p.add_argument("--ks", type=int, nargs="+", default=[1, 10, 50])
    p.add_argument("--methods", nargs="+", default=list(METHODS))
    p.add_argument("--no-cold", action="store_true")
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--out", type=Path, default=None, help="markdown report to write")
    p.add_argument("--json", type=Path, default=None, help="raw rows to write")
    a = p.parse_args(argv)
    t0 = time.time()

    def log(msg):
        print(f"[{time.time() - t0:7.1f} s] {msg}", flush=True)

    results = []
    for i, name in enumerate(a.lakes):
        mq = a.max_query[i] if a.max_query and i < len(a.max_query) and a.max_query[i] > 0 else None
        r = bench_lake(a.work, name, a.per_interval, a.ks, mq, a.methods, not a.no_cold,
                       not a.no_memory, log)
        results.append(r)
        report(r, a)                                  # each lake's section as soon as it is done
    if a.json:
        a.json.write_text(json.dumps(results, default=float))


def report(r, a):
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),)
    head = (f"Machine: {platform.machine()}, {os.cpu_count()} cores (load average at the end "
            f"{', '.join(f'{x:.1f}' for x in load)}, this benchmark included); ratios compare "
            f"methods run side by "
            f"side on the same queries in the same process.\n\nCommand: `python "
            f"bench/josie.py {' '.join(sys.argv[1:])}`\n\n")
    text = summarize(r, a.methods).replace("\n", "\n" + head, 1)
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        replace_section(a.out, text, (f"<!-- josie:{r['lake']} -->", f"<!-- /josie:{r['lake']} -->"))


if __name__ == "__main__":
    main()
