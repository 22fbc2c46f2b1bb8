"""LSH Ensemble vs datasketch MinHashLSHEnsemble, side by side in one run, plus exact search.

Both are fed the same signatures (the index's MinHash, bit-identical to datasketch's by
construction; datasketch gets LeanMinHash(seed, hashvalues, scheme="affine32") of the first
``--ds-num-perm`` values) on the same lake and queries. Reported per threshold: recall and
precision of the candidates (before verification), query latency p50/p90 (ours: candidates
only, the LSH route with exact verification, and the engine's default ``route="auto"``, which
answers by the exact prefix filter when the cost model predicts it is faster, with the recall
of its verified answers; datasketch: its candidate-only query), build time, index
memory and size on disk. Ours is one index for every threshold; datasketch is rebuilt per
threshold (its threshold is fixed at construction). Exact baselines on the same queries:
the brute-force scan of every set and ScanCount over the query's posting lists (the
"MergeList" family JOSIE improves on).

    python bench/lshensemble_perf.py --lake LAKE --index INDEX --name NAME \
        [--per-interval 20] [--hi 1000] [--ds-num-perm 128] [--ds-partitions 16] \
        [--thresholds 0.1 ... 1.0] [--ds-thresholds ...] [--no-ds-pickle] [--route-fit]

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


def _timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def ours(ctx, queries, thresholds, m, fit_rows=None, **opts):
    """Per threshold: the LSH candidates' precision and recall, the LSH route verified (the
    thesis' method) and the engine's default route (``auto``: LSH or the exact prefix
    filter by the cost model), with the recall of the verified answers."""
    out = {}
    for t in thresholds:
        precs, recs, lat_c, lat_v, cpu_v, lat_a, cpu_a, rec_a, n_exact = ([] for _ in range(9))
        for q in queries:
            pr, dt, _ = _timed(lambda: L.probe(ctx.tables, ctx.signatures, ctx.set_sizes,
                                               q.signature, q.size, t, num_perm=m, **opts))
            lat_c.append(dt)
            (_, st_l), dt, dc = _timed(lambda: L.threshold_search(
                ctx, q.ids, q.signature, q.size, t, verify=True, num_perm=m,
                exclude={q.cid}, route="lsh", **opts))
            lat_v.append(dt)
            cpu_v.append(dc)
            (rows, st_a), dt, dc = _timed(lambda: L.threshold_search(
                ctx, q.ids, q.signature, q.size, t, verify=True, num_perm=m,
                exclude={q.cid}, route="auto", **opts))
            lat_a.append(dt)
            cpu_a.append(dc)
            n_exact.append(st_a["route"] == "exact")
            truth = q.truth(t)
            p, r = precision_recall(pr.ids, truth, q.cid)
            precs.append(p)
            recs.append(r)
            rec_a.append(precision_recall(np.array([i for i, _, _ in rows], dtype=np.int64),
                                          truth, q.cid)[1])
            if fit_rows is not None:
                (_, st_e), dt_e, _ = _timed(lambda: L.threshold_search(
                    ctx, q.ids, q.signature, q.size, t, verify=True, num_perm=m,
                    exclude={q.cid}, route="exact", **opts))
                fit_rows.append((st_e["prefix_entries"], sum(b for _, b, _ in st_l["band_params"]),
                                 _query_entries(ctx, q), lat_v[-1], dt_e))
        out[t] = {"precision": mean(precs), "recall": mean(recs), "p50_candidates_ms": pct(lat_c, 50),
                  "p90_candidates_ms": pct(lat_c, 90), "p50_verified_ms": pct(lat_v, 50),
                  "p90_verified_ms": pct(lat_v, 90), "p50_verified_cpu_ms": pct(cpu_v, 50),
                  "p50_engine_ms": pct(lat_a, 50), "p90_engine_ms": pct(lat_a, 90),
                  "p50_engine_cpu_ms": pct(cpu_a, 50), "engine_recall": mean(rec_a),
                  "engine_exact_share": mean(n_exact)}
        o = out[t]
        print(f"    t*={t:.1f} prec {o['precision']:.3f} rec {o['recall']:.3f} "
              f"cand p50 {o['p50_candidates_ms']:.2f} ms, LSH verified p50 "
              f"{o['p50_verified_ms']:.2f} p90 {o['p90_verified_ms']:.2f} ms; engine (auto) p50 "
              f"{o['p50_engine_ms']:.2f} p90 {o['p90_engine_ms']:.2f} ms, recall "
              f"{o['engine_recall']:.3f}, exact route {100 * o['engine_exact_share']:.0f}%",
              flush=True)
    return out


def _query_entries(ctx, q) -> int:
    ip = ctx.arrays.post_indptr
    ids = np.asarray(q.ids, dtype=np.int64)
    return int((ip[ids + 1] - ip[ids]).sum())


def route_choices(rows: np.ndarray, exact_us, lsh_us) -> dict:
    """How routing by the given per-unit costs chooses on timed runs (rows of prefix
    entries, bands, query entries, LSH s, exact s): share of wrong choices (the slower
    route), share sent to LSH, p50 of the chosen route and of the best of both."""
    prefix, bands, entries, lsh_s, exact_s = rows.T
    pe = exact_us[0] + exact_us[1] * prefix + exact_us[2] * entries
    pl = lsh_us[0] + lsh_us[1] * bands + lsh_us[2] * entries
    return {"wrong": float(np.mean((pe <= pl) != (exact_s <= lsh_s))),
            "share_lsh": float(np.mean(pe > pl)),
            "p50_chosen_ms": 1e3 * float(np.median(np.where(pe <= pl, exact_s, lsh_s))),
            "p50_best_ms": 1e3 * float(np.median(np.minimum(lsh_s, exact_s))),
            "p50_exact_ms": 1e3 * float(np.median(exact_s)),
            "p50_lsh_ms": 1e3 * float(np.median(lsh_s))}


def route_fit(rows) -> dict:
    """Least-squares per-unit costs (microseconds) of the two routes, the constants of
    search/lshensemble.py's ROUTE_EXACT_US and ROUTE_LSH_US."""
    r = np.asarray(rows, dtype=np.float64)
    prefix, bands, entries, lsh_s, exact_s = r.T
    ex = np.linalg.lstsq(np.c_[np.ones(len(r)), prefix, entries], exact_s * 1e6, rcond=None)[0]
    ls = np.linalg.lstsq(np.c_[np.ones(len(r)), bands, entries], lsh_s * 1e6, rcond=None)[0]
    fitted = route_choices(r, ex, ls)
    shipped = route_choices(r, L.ROUTE_EXACT_US, L.ROUTE_LSH_US)
    return {"runs": len(r), "lsh_faster_share": float(np.mean(lsh_s < exact_s)),
            "module_wrong_choices": shipped["wrong"],
            "exact_us": [round(float(x), 4) for x in ex],
            "lsh_us": [round(float(x), 4) for x in ls],
            "module_exact_us": list(L.ROUTE_EXACT_US), "module_lsh_us": list(L.ROUTE_LSH_US),
            "p50_ms_lsh": fitted["p50_lsh_ms"], "p50_ms_exact": fitted["p50_exact_ms"],
            "p50_ms_fitted_choice": fitted["p50_chosen_ms"],
            "p50_ms_best_of_both": fitted["p50_best_ms"], "wrong_choices": fitted["wrong"]}


def datasketch_one(index, queries, t, num_perm, num_part, seed, pickle_size, table_perm=None):
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
    mhs = [LeanMinHash(seed=seed, hashvalues=q.signature[:num_perm], scheme="affine32")
           for q in queries]
    for q, mh in zip(queries, mhs):
        t0, c0 = time.perf_counter(), time.process_time()
        got = np.fromiter(lsh.query(mh, q.size), dtype=np.int64)
        lat.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        p, r = precision_recall(np.unique(got), q.truth(t), q.cid)
        precs.append(p)
        recs.append(r)
    # interleaved: datasketch's query, then ours (engine default and LSH route, verified) on
    # the same query, 3 passes, so a drift of the machine's speed hits all three alike
    ctx = context(index, ensure_tables(index, num_part, table_perm)[0])
    cpu_i = {"datasketch": [], "engine": [], "lsh_verified": []}
    for _ in range(3):
        for q, mh in zip(queries, mhs):
            c0 = time.process_time()
            list(lsh.query(mh, q.size))
            c1 = time.process_time()
            L.threshold_search(ctx, q.ids, q.signature, q.size, t, num_perm=num_perm,
                               exclude={q.cid}, route="auto")
            c2 = time.process_time()
            L.threshold_search(ctx, q.ids, q.signature, q.size, t, num_perm=num_perm,
                               exclude={q.cid}, route="lsh")
            c3 = time.process_time()
            for key, dt in zip(cpu_i, (c1 - c0, c2 - c1, c3 - c2)):
                cpu_i[key].append(dt)
    return {"precision": mean(precs), "recall": mean(recs), "p50_ms": pct(lat, 50),
            "p90_ms": pct(lat, 90), "p50_cpu_ms": pct(cpu, 50), "build_s": build_s,
            "build_cpu_s": build_cpu, "memory_bytes": mem, "pickle_bytes": disk,
            "interleaved_p50_cpu_ms": {k: pct(v, 50) for k, v in cpu_i.items()},
            "interleaved_p90_cpu_ms": {k: pct(v, 90) for k, v in cpu_i.items()}}


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
        if a.table_perm:
            cmd += ["--table-perm", str(a.table_perm)]
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
              f"p90 {d['p90_ms']:.2f} ms; interleaved cpu p50 {d['interleaved_p50_cpu_ms']}",
              flush=True)
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
    """RSS growth when every page of the memory-mapped tables is touched (one byte read
    per page; a copy would count the pages twice, the map's and the copy's)."""
    base = rss()
    for arr in (tables.values, tables.set_ids):
        int(arr.reshape(-1).view(np.uint8)[::4096].sum())
    return rss() - base


def main(argv=None):
    p = bench_parser(__doc__)
    p.add_argument("--per-interval", type=int, default=20)
    p.add_argument("--hi", type=int, default=1000)
    p.add_argument("--thresholds", type=float, nargs="+", default=[round(0.1 * i, 1) for i in range(1, 11)])
    p.add_argument("--ds-thresholds", type=float, nargs="+", default=None)
    p.add_argument("--ds-num-perm", type=int, default=128)
    p.add_argument("--ds-partitions", type=int, default=16)
    p.add_argument("--our-partitions", type=int, nargs="+", default=[16, 32])
    p.add_argument("--table-perm", type=int, default=None,
                   help="build our tables over the first N signature positions (build option "
                        "lshensemble.num_perm; default all of the index's)")
    p.add_argument("--fn-weight", type=float, nargs="+", default=[L.FN_WEIGHT])
    p.add_argument("--no-ds-pickle", action="store_true")
    p.add_argument("--no-datasketch", action="store_true",
                   help="ours only (e.g. for query sizes datasketch is not compared on)")
    p.add_argument("--route-fit", action="store_true",
                   help="also time the exact route on every (query, t*) and fit the routing "
                        "cost model (search/lshensemble.py ROUTE_*_US) on the first configuration")
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
                             int(index.components["minhash"]["seed"]), not a.no_ds_pickle,
                             a.table_perm)
        print(json.dumps(res))
        return
    tabs = {n: ensure_tables(index, n, a.table_perm) for n in a.our_partitions}
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
        for m in sorted({a.ds_num_perm, m_full} & set(range(1, tables.num_perm + 1))):
            for w in a.fn_weight:
                key = f"P={n} m={m} fn_weight={w}"
                print(f"  ours {key}", flush=True)
                rows = [] if a.route_fit and "route_fit" not in res else None
                res["ours"][key] = ours(ctx, queries, a.thresholds, m, fit_rows=rows, fn_weight=w)
                if rows:
                    res["route_fit"] = route_fit(rows)
                    # (prefix entries, bands, query entries, LSH s, exact s) per (query, t*),
                    # for a joint fit over several runs (bench/lshensemble_route_fit.py)
                    res["route_fit_rows"] = [[float(x) for x in row] for row in rows]
                    print("  route fit:", res["route_fit"], flush=True)
    res["datasketch"] = {} if a.no_datasketch else datasketch_run(a, a.ds_thresholds or a.thresholds)
    out = Path(__file__).parent / "results" / f"lshensemble_perf_{a.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, default=str))
    print_markdown(res, a)


def print_markdown(res, a):
    ds = res["datasketch"]
    key = f"P={a.ds_partitions} m={a.ds_num_perm} fn_weight={a.fn_weight[0]}"
    ref = res["ours"].get(key) or next(iter(res["ours"].values()))
    print(f"\n#### {res['name']}: ours ({key}) vs datasketch (P={a.ds_partitions}, m={a.ds_num_perm})\n")
    print("| t* | recall ours (LSH) | recall ds | precision ours | precision ds | ours cand p50 ms | "
          "ours LSH verified p50 / p90 ms (cpu p50) | engine (auto) p50 / p90 ms (cpu p50), exact route | "
          "ds p50 / p90 ms (cpu p50) | cpu p50 ratio LSH verified / ds | cpu p50 ratio engine / ds | "
          "ds build s | ds memory MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for t, d in ds.items():
        o = ref[float(t)] if float(t) in ref else ref[t]
        if "error" in d:
            print(f"| {float(t):.1f} | {o['recall']:.3f} | failed: {d['error']} |")
            continue
        eng = (f"{o['p50_engine_ms']:.2f} / {o['p90_engine_ms']:.2f} ({o['p50_engine_cpu_ms']:.2f}), "
               f"{100 * o['engine_exact_share']:.0f}%" if "p50_engine_ms" in o else "n/a")
        r_eng = (f"{o['p50_engine_cpu_ms'] / d['p50_cpu_ms']:.2f}x" if "p50_engine_cpu_ms" in o
                 else "n/a")
        print(f"| {float(t):.1f} | {o['recall']:.3f} | {d['recall']:.3f} | {o['precision']:.3f} | "
              f"{d['precision']:.3f} | {o['p50_candidates_ms']:.2f} | {o['p50_verified_ms']:.2f} / "
              f"{o['p90_verified_ms']:.2f} ({o.get('p50_verified_cpu_ms', float('nan')):.2f}) | {eng} | "
              f"{d['p50_ms']:.2f} / {d['p90_ms']:.2f} ({d.get('p50_cpu_ms', float('nan')):.2f}) | "
              f"{o['p50_verified_cpu_ms'] / d['p50_cpu_ms']:.2f}x | {r_eng} | "
              f"{d['build_s']:.1f} | {d['memory_bytes'] / 2**20:.0f} |")
    inter = {t: d["interleaved_p50_cpu_ms"] for t, d in ds.items() if "interleaved_p50_cpu_ms" in d}
    if inter:
        print("\nInterleaved (datasketch's query, then ours on the same query, 3 passes, in "
              "datasketch's process): CPU p50 ms\n")
        print("| t* | datasketch candidates | ours engine (auto) verified | ours LSH route verified | "
              "engine / datasketch | LSH route / datasketch |")
        print("|---|---|---|---|---|---|")
        for t, d in inter.items():
            print(f"| {float(t):.1f} | {d['datasketch']:.3f} | {d['engine']:.3f} | "
                  f"{d['lsh_verified']:.3f} | {d['engine'] / d['datasketch']:.2f}x | "
                  f"{d['lsh_verified'] / d['datasketch']:.2f}x |")
    if "route_fit" in res:
        print(f"\nrouting cost model fit: {res['route_fit']}")
    for n, ix in res["ours_index"].items():
        print(f"\nours P={n}: build {ix['build_s']} s (Spark job), tables {ix['bytes'] / 2**20:.1f} MiB "
              f"(resident {ix['resident_bytes'] / 2**20:.1f} MiB), + signatures "
              f"{ix['signature_bytes'] / 2**20:.1f} MiB shared with the core index")
    print(f"\nexact: {res['exact']}")


if __name__ == "__main__":
    main()
