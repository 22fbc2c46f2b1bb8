"""LSH Ensemble vs datasketch MinHashLSHEnsemble, side by side in one run, plus exact search.

Both are fed the same signatures (the index's MinHash, bit-identical to datasketch's by
construction; datasketch gets LeanMinHash(seed, hashvalues, scheme="affine32") of the first
``--ds-num-perm`` values) on the same lake and queries. Reported per threshold: recall and
precision of the candidates (before verification), query latency p50/p90 (ours: candidates
only and with exact verification; datasketch: its candidate-only query), build time, index
memory and size on disk. Ours is one index for every threshold; datasketch is rebuilt per
threshold (its threshold is fixed at construction). Exact baselines on the same queries:
the brute-force scan of every set and ScanCount over the query's posting lists (the
"MergeList" family JOSIE improves on).

    python bench/lshensemble_perf.py --lake LAKE --index INDEX --name NAME \
        [--per-interval 20] [--hi 1000] [--ds-num-perm 128] [--ds-partitions 16] \
        [--thresholds 0.1 ... 1.0] [--ds-thresholds ...] [--no-ds-pickle]

Memory: datasketch = resident-set growth of a fresh process while its index is built (its
dict-of-lists hash tables live in the Python heap); ours = the resident-set growth when
the memory-mapped arrays the search reads are loaded whole into RAM (their byte size).
Latency is reported as wall time and as CPU time of the process (time.process_time): the
machine is shared, CPU time is what the query itself costs. Writes bench/results/lshensemble_perf_NAME.json and prints Markdown.
"""
from __future__ import annotations

import argparse
import gc
import json
import pickle
import time
from pathlib import Path

import numpy as np
import psutil

from lshensemble_common import (L, bench_parser, Query, context, ensure_index, ensure_tables, mean,
                                pick_queries, precision_recall)


def rss() -> int:
    gc.collect()
    return psutil.Process().memory_info().rss


def pct(xs, q):
    return 1000.0 * float(np.percentile(xs, q)) if len(xs) else float("nan")


def ours(ctx, queries, thresholds, m, **opts):
    out = {}
    for t in thresholds:
        precs, recs, lat_c, lat_v, cpu_v = [], [], [], [], []
        for q in queries:
            t0 = time.perf_counter()
            pr = L.probe(ctx.tables, ctx.signatures, ctx.set_sizes, q.signature, q.size, t,
                         num_perm=m, **opts)
            lat_c.append(time.perf_counter() - t0)
            t0, c0 = time.perf_counter(), time.process_time()
            L.threshold_search(ctx, q.ids, q.signature, q.size, t, verify=True, num_perm=m,
                               exclude={q.cid}, **opts)
            lat_v.append(time.perf_counter() - t0)
            cpu_v.append(time.process_time() - c0)
            p, r = precision_recall(pr.ids, q.truth(t), q.cid)
            precs.append(p)
            recs.append(r)
        out[t] = {"precision": mean(precs), "recall": mean(recs), "p50_candidates_ms": pct(lat_c, 50),
                  "p90_candidates_ms": pct(lat_c, 90), "p50_verified_ms": pct(lat_v, 50),
                  "p90_verified_ms": pct(lat_v, 90), "p50_verified_cpu_ms": pct(cpu_v, 50)}
        print(f"    t*={t:.1f} prec {out[t]['precision']:.3f} rec {out[t]['recall']:.3f} "
              f"cand p50 {out[t]['p50_candidates_ms']:.2f} ms, verified p50 "
              f"{out[t]['p50_verified_ms']:.2f} p90 {out[t]['p90_verified_ms']:.2f} ms", flush=True)
    return out


def datasketch_one(index, queries, t, num_perm, num_part, seed, pickle_size):
    """Build datasketch's index at threshold t (in this process) and run the queries."""
    from datasketch import LeanMinHash, MinHashLSHEnsemble
    sizes = np.diff(index.arrays.sets_indptr)
    sig = np.asarray(index.signatures)
    ids = np.flatnonzero(sizes > 0)
    base = rss()
    t0, c0 = time.perf_counter(), time.process_time()
    lsh = MinHashLSHEnsemble(threshold=t, num_perm=num_perm, num_part=num_part)
    lsh.index((int(c), LeanMinHash(seed=seed, hashvalues=sig[c, :num_perm], scheme="affine32"),
               int(sizes[c])) for c in ids)
    build_s, build_cpu = time.perf_counter() - t0, time.process_time() - c0
    mem = rss() - base
    disk = len(pickle.dumps(lsh, protocol=pickle.HIGHEST_PROTOCOL)) if pickle_size else None
    precs, recs, lat, cpu = [], [], [], []
    for q in queries:
        mh = LeanMinHash(seed=seed, hashvalues=q.signature[:num_perm], scheme="affine32")
        t0, c0 = time.perf_counter(), time.process_time()
        got = np.fromiter(lsh.query(mh, q.size), dtype=np.int64)
        lat.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        p, r = precision_recall(np.unique(got), q.truth(t), q.cid)
        precs.append(p)
        recs.append(r)
    return {"precision": mean(precs), "recall": mean(recs), "p50_ms": pct(lat, 50),
            "p90_ms": pct(lat, 90), "p50_cpu_ms": pct(cpu, 50), "build_s": build_s,
            "build_cpu_s": build_cpu, "memory_bytes": mem, "pickle_bytes": disk}


def datasketch_run(a, thresholds):
    """datasketch at each threshold, each in a fresh process: its memory is the RSS growth
    of a process that held nothing else, and an address-space limit (--ds-memory-limit)
    makes a too-large build fail with MemoryError instead of pushing a shared machine into
    the OOM killer."""
    import subprocess
    import sys
    out = {}
    for t in thresholds:
        cmd = [sys.executable, __file__, "--lake", a.lake, "--index", a.index, "--name", a.name,
               "--per-interval", str(a.per_interval), "--hi", str(a.hi),
               "--ds-num-perm", str(a.ds_num_perm), "--ds-partitions", str(a.ds_partitions),
               "--ds-memory-limit", str(a.ds_memory_limit), "--ds-worker", str(t)]
        if a.no_ds_pickle:
            cmd.append("--no-ds-pickle")
        res = subprocess.run(cmd, capture_output=True, text=True)
        line = [x for x in res.stdout.splitlines() if x.startswith("{")]
        if res.returncode != 0 or not line:
            out[t] = {"error": (res.stderr.strip().splitlines() or ["?"])[-1]}
            print(f"    datasketch t*={t:.1f}: FAILED {out[t]['error']}", flush=True)
            continue
        out[t] = json.loads(line[-1])
        d = out[t]
        print(f"    datasketch t*={t:.1f}: build {d['build_s']:.1f} s (cpu {d['build_cpu_s']:.1f}), "
              f"memory {d['memory_bytes'] / 2**20:.0f} MiB, prec {d['precision']:.3f} "
              f"rec {d['recall']:.3f} p50 {d['p50_ms']:.2f} ms (cpu {d['p50_cpu_ms']:.2f}) "
              f"p90 {d['p90_ms']:.2f} ms", flush=True)
    return out


def exact_baselines(index, queries):
    from lakejoin_jupyter.index.reads import ranges
    from lakejoin_jupyter.search import bruteforce
    arrays = index.arrays
    scan, post, post_cpu = [], [], []
    for q in queries:
        t0 = time.perf_counter()
        bruteforce.scores(arrays, q.ids, q.size)
        scan.append(time.perf_counter() - t0)
        t0, c0 = time.perf_counter(), time.process_time()
        ip = arrays.post_indptr
        lens = ip[q.ids + 1] - ip[q.ids]
        hits = arrays.post_sets[ranges(ip[q.ids], lens)]
        np.bincount(hits, minlength=arrays.n_sets)
        post.append(time.perf_counter() - t0)
        post_cpu.append(time.process_time() - c0)
    return {"bruteforce_scan": {"p50_ms": pct(scan, 50), "p90_ms": pct(scan, 90)},
            "scancount_postings": {"p50_ms": pct(post, 50), "p90_ms": pct(post, 90),
                                   "p50_cpu_ms": pct(post_cpu, 50)}}


def table_bytes(tables: L.Tables) -> int:
    return int(tables.values.nbytes + tables.set_ids.nbytes + tables.partitions.nbytes)


def resident_bytes(tables: L.Tables) -> int:
    """RSS growth when the memory-mapped tables are read into RAM (every page touched)."""
    base = rss()
    copy = (np.array(tables.values), np.array(tables.set_ids))
    grown = rss() - base
    del copy
    return grown


def main(argv=None):
    p = bench_parser(__doc__)
    p.add_argument("--per-interval", type=int, default=20)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--thresholds", type=float, nargs="+", default=[round(0.1 * i, 1) for i in range(1, 11)])
    p.add_argument("--ds-thresholds", type=float, nargs="+", default=None)
    p.add_argument("--ds-num-perm", type=int, default=128)
    p.add_argument("--ds-partitions", type=int, default=16)
    p.add_argument("--our-partitions", type=int, nargs="+", default=[16, 32])
    p.add_argument("--fn-weight", type=float, nargs="+", default=[L.FN_WEIGHT])
    p.add_argument("--no-ds-pickle", action="store_true")
    p.add_argument("--ds-memory-limit", type=float, default=14.0,
                   help="address-space limit of each datasketch process, GiB")
    p.add_argument("--ds-worker", type=float, default=None, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    index = ensure_index(a.lake, a.index)
    m_full = int(index.components["minhash"]["num_perm"])
    qids = pick_queries(index, a.per_interval, 10, a.hi)
    if a.ds_worker is not None:
        import resource
        lim = int(a.ds_memory_limit * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
        queries = [Query(index, c) for c in qids]
        res = datasketch_one(index, queries, a.ds_worker, a.ds_num_perm, a.ds_partitions,
                             int(index.components["minhash"]["seed"]), not a.no_ds_pickle)
        print(json.dumps(res))
        return
    tabs = {n: ensure_tables(index, n) for n in a.our_partitions}
    queries = [Query(index, c) for c in qids]
    print(f"{a.name}: {index.arrays.n_sets} sets, {len(queries)} queries", flush=True)
    res = {"name": a.name, "n_sets": int(index.arrays.n_sets), "queries": len(queries),
           "exact": exact_baselines(index, queries), "ours": {}, "ours_index": {}}
    print("  exact:", res["exact"], flush=True)
    for n, (tables, section) in tabs.items():
        res["ours_index"][n] = {"build_s": section.get("seconds"), "bytes": table_bytes(tables),
                                "resident_bytes": resident_bytes(tables),
                                "signature_bytes": int(index.signatures.nbytes)}
        ctx = context(index, tables)
        for m in sorted({a.ds_num_perm, m_full}):
            for w in a.fn_weight:
                key = f"P={n} m={m} fn_weight={w}"
                print(f"  ours {key}", flush=True)
                res["ours"][key] = ours(ctx, queries, a.thresholds, m, fn_weight=w)
    res["datasketch"] = datasketch_run(a, a.ds_thresholds or a.thresholds)
    out = Path(__file__).parent / "results" / f"lshensemble_perf_{a.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, default=str))
    print_markdown(res, a)


def print_markdown(res, a):
    ds = res["datasketch"]
    key = f"P={a.ds_partitions} m={a.ds_num_perm} fn_weight={a.fn_weight[0]}"
    ref = res["ours"].get(key) or next(iter(res["ours"].values()))
    print(f"\n#### {res['name']}: ours ({key}) vs datasketch (P={a.ds_partitions}, m={a.ds_num_perm})\n")
    print("| t* | recall ours | recall ds | precision ours | precision ds | ours cand p50 ms | "
          "ours verified p50 / p90 ms (cpu p50) | ds p50 / p90 ms (cpu p50) | ds build s | ds memory MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for t, d in ds.items():
        o = ref[float(t)] if float(t) in ref else ref[t]
        if "error" in d:
            print(f"| {float(t):.1f} | {o['recall']:.3f} | failed: {d['error']} |")
            continue
        print(f"| {float(t):.1f} | {o['recall']:.3f} | {d['recall']:.3f} | {o['precision']:.3f} | "
              f"{d['precision']:.3f} | {o['p50_candidates_ms']:.2f} | {o['p50_verified_ms']:.2f} / "
              f"{o['p90_verified_ms']:.2f} ({o.get('p50_verified_cpu_ms', float('nan')):.2f}) | "
              f"{d['p50_ms']:.2f} / {d['p90_ms']:.2f} ({d.get('p50_cpu_ms', float('nan')):.2f}) | "
              f"{d['build_s']:.1f} | {d['memory_bytes'] / 2**20:.0f} |")
    for n, ix in res["ours_index"].items():
        print(f"\nours P={n}: build {ix['build_s']} s (Spark job), tables {ix['bytes'] / 2**20:.1f} MiB "
              f"(resident {ix['resident_bytes'] / 2**20:.1f} MiB), + signatures "
              f"{ix['signature_bytes'] / 2**20:.1f} MiB shared with the core index")
    print(f"\nexact: {res['exact']}")


if __name__ == "__main__":
    main()
