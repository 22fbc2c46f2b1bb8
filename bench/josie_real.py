"""Real-data check: JOSIE equals brute force on every column of a real lake.

    python bench/josie_real.py LAKE_DIR WORK_DIR [--ks 1 10 50] [--out bench/results/josie.md]

Indexes LAKE_DIR (e.g. the FiveThirtyEight data, 319 CSVs) with the real Spark
build into WORK_DIR/<lake name>.index (reused when present), then uses every column with at
least 10 distinct values as a query through the engine (the query's own column excluded),
for each k, with JOSIE (the engine default, plan="auto", and plan="josie"), MergeList-D,
ProbeSet-D and the brute-force oracle; also a DataFrame query (the column read back as
pandas, normalized by the engine; not excluded, a DataFrame is not known to be in the lake). Reports how many queries give exactly
the oracle's overlap multiset (the goal is 100%) and the latencies.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MARK = ("<!-- josie_real -->", "<!-- /josie_real -->")


def replace_section(path: Path, body: str, mark=MARK) -> None:
    text = path.read_text() if path.exists() else ""
    block = f"{mark[0]}\n{body}\n{mark[1]}"
    if mark[0] in text and mark[1] in text:
        pre, rest = text.split(mark[0], 1)
        post = rest.split(mark[1], 1)[1]
        text = pre + block + post
    else:
        text = text + ("\n" if text else "") + block + "\n"
    path.write_text(text)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lake", type=Path)
    p.add_argument("work", type=Path)
    p.add_argument("--ks", type=int, nargs="+", default=[1, 10, 50])
    p.add_argument("--min-distinct", type=int, default=10)
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.index.store import is_index
    from lakejoin_jupyter.spark import get_spark

    a.work.mkdir(parents=True, exist_ok=True)
    index = a.work / f"{a.lake.name}.index"
    build_s = None
    if not is_index(index):
        spark = get_spark(SparkSettings(master="local[2]", driver_memory="4g",
                                        shuffle_partitions=8, log_dir=str(a.work / "spark-logs")))
        t = time.time()
        build(a.lake, index, spark=spark, progress=False, overwrite=True)
        build_s = time.time() - t
        spark.stop()
    eng = open_index(index, check_lake=False)
    ix = eng.index
    sizes = np.concatenate([np.diff(part.arrays.sets_indptr) for part in ix.generations])
    n_tokens = sum(part.arrays.n_tokens for part in ix.generations)
    cols = np.flatnonzero(sizes >= a.min_distinct)
    variants = {"josie (engine default)": dict(method="auto"),
                "josie plan=josie": dict(method="josie", plan="josie"),
                "mergelist": dict(method="mergelist"),
                "probeset": dict(method="probeset")}
    agree = {(v, k): 0 for v in variants for k in a.ks}
    agree_df = {k: 0 for k in a.ks}
    times = {v: [] for v in variants}
    times["bruteforce"] = []
    plans = {"josie": 0, "mergelist": 0}
    failures = []
    frames = {}
    t0 = time.time()
    for k in a.ks:
        for cid in cols:
            cid = int(cid)
            t = time.perf_counter()
            want = [h.overlap for h in eng.search(cid, k=k, method="bruteforce")]
            times["bruteforce"].append(time.perf_counter() - t)
            for v, kw in variants.items():
                t = time.perf_counter()
                res = eng.search(cid, k=k, **kw)
                times[v].append(time.perf_counter() - t)
                got = [h.overlap for h in res]
                if sorted(got) == sorted(want):
                    agree[(v, k)] += 1
                else:
                    failures.append((v, k, cid, got, want))
                if v.startswith("josie (engine"):
                    assert res.method == "josie"
                    plans[res.stats["plan"]] += 1
            # the same column as a pandas DataFrame query (engine normalization; a DataFrame
            # is not known to be in the lake, so its own column is among the hits)
            table, name = ix.column_label(cid)
            if table not in frames:
                frames[table] = eng.table(table)
            df = frames[table]
            res = eng.search(df, name, k=k)
            ref = eng.search(df, name, k=k, method="bruteforce")
            agree_df[k] += sorted(h.overlap for h in res) == sorted(h.overlap for h in ref)
    n = len(cols)
    lines = [f"### Real data: {a.lake.name} ({len(ix.tables)} tables, {len(sizes):,} columns, "
             f"{n_tokens:,} distinct values)\n",
             f"Command: `python bench/josie_real.py {' '.join(sys.argv[1:])}`" + (
                 f" (index built in {build_s:.0f} s)" if build_s else "") + "\n",
             f"Queries: every column with at least {a.min_distinct} distinct values: {n} columns, "
             f"each with k in {a.ks}; own column excluded. Checked {time.time() - t0:.0f} s.\n",
             "| method | " + " | ".join(f"k={k}: = oracle" for k in a.ks) + " | p50 ms | p90 ms |",
             "|---|" + "---:|" * (len(a.ks) + 2)]
    for v in variants:
        ms = np.array(times[v]) * 1000
        lines.append(f"| {v} | " + " | ".join(f"{agree[(v, k)]}/{n} ({agree[(v, k)] / n:.0%})" for k in a.ks)
                     + f" | {np.percentile(ms, 50):.2f} | {np.percentile(ms, 90):.2f} |")
    ms = np.array(times["bruteforce"]) * 1000
    lines.append("| bruteforce (oracle) | " + " | ".join("-" for _ in a.ks)
                 + f" | {np.percentile(ms, 50):.2f} | {np.percentile(ms, 90):.2f} |")
    lines.append("\nDataFrame queries (the column read back as pandas, normalized by the engine, "
                 "default method vs oracle): " + ", ".join(f"k={k}: {agree_df[k]}/{n}" for k in a.ks))
    lines.append(f"\nThe engine default chose JOSIE-D for {plans['josie']} and MergeList-D for "
                 f"{plans['mergelist']} of the {plans['josie'] + plans['mergelist']} queries.")
    if failures:
        lines.append(f"\n**{len(failures)} disagreements**, first: {failures[:3]}")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        replace_section(a.out, text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
