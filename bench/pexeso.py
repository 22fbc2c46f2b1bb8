"""PEXESO search vs numpy brute force, and fuzzy recall gained over equi-join.

    python bench/pexeso.py --lake path/to/lakes --min-values 200000

1. Reads every CSV of the lake (pandas, all text), normalizes each column to its set of
   distinct tokens (lake/normalize.py) and keeps text columns (most tokens hold a letter:
   PEXESO embeds string columns only [P §II-A]). If the lake has fewer than
   ``--min-values`` distinct values, copies of real columns with random typos (a deleted,
   doubled or swapped character in ~40% of values) are added until it has that many.
2. Embeds every distinct value (default n-gram embedder) and builds the PEXESO arrays
   with the numpy reference builder (index/pexeso_arrays.build_partition, which the Spark
   build equals, tests/test_pexeso.py); times it.
3. Queries: ``--queries`` random real text columns (20..2000 values), each excluded from
   its own results. For every tau: PEXESO (block-and-verify) against the numpy brute
   force (one matrix product per chunk of lake vectors, then the exact distance for the
   pairs near tau), same query, same run; the answers (columns and joinability counts)
   must be identical. Also PEXESO on the paper's grid (|P| = 5, m = 6) at every tau and
   with random pivots (paper Fig. 7a) at the middle tau. ``--cache DIR`` keeps the read
   lake and its vectors for later runs; ``--skip-recall`` skips step 4.
4. Recall over equi-join: queries are the lake's columns named like country/state; the
   equi-join answer is the columns containing >= T of the query's values exactly, the
   fuzzy answer PEXESO's at tau; we report the extra columns and sample matched pairs
   that equi-join misses, and how many extra columns are themselves country/state
   columns (a name-based proxy for relevance: the lake has no labels).

Prints markdown tables; ``--out FILE`` also writes them.
"""
from __future__ import annotations

import argparse
import os
import pickle
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lakejoin_jupyter.embed import get_embedder                        # noqa: E402
from lakejoin_jupyter.index.arrays import build_arrays                 # noqa: E402
from lakejoin_jupyter.index.pexeso_arrays import build_partition       # noqa: E402
from lakejoin_jupyter.lake.normalize import normalize_many            # noqa: E402
from lakejoin_jupyter.search import pexeso as px                       # noqa: E402
from lakejoin_jupyter.search import pexeso_cost                        # noqa: E402

LETTER = re.compile(r"[^\W\d_]")


def read_lake(root: Path):
    cols, names = [], []
    for p in sorted(root.rglob("*.csv")):
        try:
            df = pd.read_csv(p, dtype=str, keep_default_na=False, on_bad_lines="skip",
                             encoding_errors="replace", low_memory=False)
        except Exception as e:  # noqa: BLE001
            print(f"skip {p}: {e}", file=sys.stderr)
            continue
        for c in df.columns:
            toks = sorted({t for t in normalize_many(df[c].tolist()) if t is not None})
            if len(toks) >= 2 and sum(bool(LETTER.search(t)) for t in toks) >= 0.5 * len(toks):
                cols.append(toks)
                names.append(f"{p.relative_to(root)}:{c}")
    return cols, names


def typo(rng, s: str) -> str:
    if len(s) < 3 or rng.random() > 0.4:
        return s
    i = int(rng.integers(0, len(s) - 1))
    op = rng.integers(0, 3)
    if op == 0:
        return s[:i] + s[i + 1:]
    if op == 1:
        return s[:i] + s[i] + s[i:]
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def augment(cols, names, min_values, seed=0):
    rng = np.random.default_rng(seed)
    distinct = set().union(*map(set, cols))
    n_real = len(cols)
    while len(distinct) < min_values:
        src = int(rng.integers(0, n_real))
        new = sorted({typo(rng, t) for t in cols[src]})
        cols.append(new)
        names.append(f"[typos of {names[src]}]")
        distinct.update(new)
    return n_real


def same(r, bf, t_abs):
    want = np.nonzero(bf >= t_abs)[0]
    order = np.argsort(r.columns)
    return np.array_equal(r.columns[order], want) and np.array_equal(r.counts[order], bf[want])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lake", required=True, help="folder of CSV files (searched recursively)")
    ap.add_argument("--min-values", type=int, default=200_000)
    ap.add_argument("--embedder", default="ngram")
    ap.add_argument("--taus", default="0.1,0.2,0.4")
    ap.add_argument("--T", type=float, default=0.6)
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--pivots", type=int, default=10)
    ap.add_argument("--levels", type=int, default=5)
    ap.add_argument("--paper-pivots", type=int, default=5,
                    help="second PCA-pivot grid measured alongside (the paper's |P| = 5, m = 6)")
    ap.add_argument("--paper-levels", type=int, default=6)
    ap.add_argument("--fuzzy-tau", type=float, default=0.5)
    ap.add_argument("--fuzzy-T", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    ap.add_argument("--cache", default=None,
                    help="folder to keep the read lake and its vectors in (reused when present)")
    ap.add_argument("--recall-queries", type=int, default=0,
                    help="sample this many country/state query columns (0: all)")
    ap.add_argument("--skip-recall", action="store_true", help="skip the equi-join comparison")
    ap.add_argument("--block-bound", default=None, metavar="B,B,...",
                    help="also report, per tau, the share of (query vector, lake vector) "
                         "pairs a pivot filter on blocks of B lake vectors must still compute "
                         "(blocks from a k-d split of pivot space: a best case for any "
                         "block-and-BLAS verification)")
    ap.add_argument("--block-bound-only", action="store_true",
                    help="with --block-bound: skip the timed searches")
    ap.add_argument("--levels-sweep", default=None, metavar="M,M,...",
                    help="also time PEXESO at each of these m (same pivots, same queries and "
                         "taus), fit the cost model's per-unit costs and compare its choice of "
                         "m with the fastest measured m (search/pexeso_cost.py)")
    a = ap.parse_args(argv)
    out = []

    def emit(s=""):
        print(s, flush=True)
        out.append(s)

    emb = get_embedder(a.embedder)
    cache = Path(a.cache) if a.cache else None
    if cache and (cache / "vectors.npy").exists():
        with open(cache / "lake.pkl", "rb") as f:
            cols, names, n_real, read_s, embed_s = pickle.load(f)
        ref = build_arrays(cols)
        vec = np.load(cache / "vectors.npy")
    else:
        t0 = time.perf_counter()
        cols, names = read_lake(Path(a.lake))
        n_real = augment(cols, names, a.min_values, a.seed)
        ref = build_arrays(cols)
        read_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        vec = emb.embed(ref.tokens)
        embed_s = time.perf_counter() - t0
        if cache:
            cache.mkdir(parents=True, exist_ok=True)
            np.save(cache / "vectors.npy", vec)
            with open(cache / "lake.pkl", "wb") as f:
                pickle.dump((cols, names, n_real, read_s, embed_s), f)
    arr = ref.arrays
    t0 = time.perf_counter()
    part = build_partition(vec, arr.sets_indptr, arr.sets_tokens, n_pivots=a.pivots,
                           levels=a.levels, seed=a.seed)
    build_s = time.perf_counter() - t0
    part_paper = build_partition(vec, arr.sets_indptr, arr.sets_tokens, n_pivots=a.paper_pivots,
                                 levels=a.paper_levels, seed=a.seed)
    t0 = time.perf_counter()
    part_rand = build_partition(vec, arr.sets_indptr, arr.sets_tokens, n_pivots=a.pivots,
                                levels=a.levels, pivot_method="random", seed=a.seed)
    build_rand_s = time.perf_counter() - t0
    emit(f"lake: {a.lake}: {n_real} real text columns + {len(cols) - n_real} typo copies, "
         f"{len(ref.tokens):,} distinct values, {len(arr.sets_tokens):,} (column, value) "
         f"entries; read {read_s:.1f} s, embed ({emb.spec()['name']}, dim {emb.dim}) "
         f"{embed_s:.1f} s, PEXESO arrays (|P|={a.pivots}, m={a.levels}, PCA pivots) "
         f"{build_s:.1f} s ({len(part.cell_keys):,} non-empty leaf cells), random pivots "
         f"{build_rand_s:.1f} s")
    t0 = time.perf_counter()
    plan_model = pexeso_cost.tau_profile(part.mapped, part.pivots, part.levels, seed=a.seed)
    emit(f"plan model of the main grid (search/pexeso_cost.tau_profile, as a build records "
         f"it): {time.perf_counter() - t0:.1f} s; modelled PEXESO us per query vector at tau "
         + ", ".join(f"{t}: {u:,.0f}" for t, u in zip(plan_model["taus"],
                                                      plan_model["us_per_vector"]))
         + f"; brute force {pexeso_cost.C_BF * len(part.tokens):,.0f} us per query vector")
    t0 = time.perf_counter()
    for pp in (part, part_paper, part_rand):      # search-time views, once per loaded partition
        px._layout(pp).sq_norms(vec)
    emit(f"search layouts (leaf order, row -> columns postings, norms; once per loaded "
         f"partition, not timed below): {(time.perf_counter() - t0) / 3:.1f} s each; "
         f"BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'default')}")
    rng = np.random.default_rng(a.seed)
    sizes = np.diff(arr.sets_indptr)
    pool = [c for c in range(n_real) if 20 <= sizes[c] <= 2000]
    queries = sorted(rng.choice(pool, size=min(a.queries, len(pool)), replace=False).tolist()) \
        if a.queries else []
    taus = [float(x) for x in a.taus.split(",")] if queries else []
    if queries and not a.block_bound_only:
        emit()
        emit(f"### PEXESO vs numpy brute force ({len(queries)} query columns, T = {a.T})")
        emit()
        emit("| tau | method | median ms | total s | speedup (total) | identical answers | "
             "mean joinable cols | distance computations | block s | verify s |")
        emit("|---|---|---|---|---|---|---|---|---|---|")
    bf_pairs = bf_s = 0.0
    for tau in ([] if a.block_bound_only else taus):
        main_name = f"pexeso P={a.pivots} m={a.levels}"
        paper_name = f"pexeso P={a.paper_pivots} m={a.paper_levels}"
        rand_name = f"pexeso P={a.pivots} m={a.levels} random pivots"
        auto_name = f"engine plan (auto: pexeso or scan, P={a.pivots} m={a.levels})"
        rows = {"bruteforce (chunked float32 BLAS)": [], main_name: [], paper_name: [],
                rand_name: [], auto_name: []}
        plans = []
        ok = {k: 0 for k in rows}
        njoin, ndist = [], {k: 0 for k in rows}
        split = {k: [0.0, 0.0] for k in rows}
        for c in queries:
            q = vec[arr.set_tokens(c)]
            t_abs = px.t_count(a.T, len(q))
            t1 = time.perf_counter()
            bf = px.bruteforce(vec, arr.sets_indptr, arr.sets_tokens, q, tau, chunk=8192,
                               prefilter=True)
            bf[c] = 0
            bname = "bruteforce (chunked float32 BLAS)"
            rows[bname].append(time.perf_counter() - t1)
            ndist[bname] += len(q) * len(vec)
            ok[bname] += 1
            bf_s += rows[bname][-1]
            bf_pairs += len(q) * len(vec)
            njoin.append(int((bf >= t_abs).sum()))
            t1 = time.perf_counter()
            r = px.search([part], vec, q, tau, a.T, arr.n_sets, exclude=[c], want_pairs=False,
                          plan="auto", plan_model=[plan_model])
            rows[auto_name].append(time.perf_counter() - t1)
            plans += r.stats["plan"]
            ndist[auto_name] += r.stats.get("distance_computations", 0)
            ok[auto_name] += same(r, bf, t_abs)
            for name, pp in ((main_name, part), (paper_name, part_paper), (rand_name, part_rand)):
                if name == rand_name and tau != taus[len(taus) // 2]:
                    continue
                t1 = time.perf_counter()
                r = px.search([pp], vec, q, tau, a.T, arr.n_sets, exclude=[c], want_pairs=False)
                rows[name].append(time.perf_counter() - t1)
                ndist[name] += r.stats["distance_computations"]
                split[name][0] += r.stats["block_s"]
                split[name][1] += r.stats["verify_s"]
                ok[name] += same(r, bf, t_abs)
        base = sum(rows["bruteforce (chunked float32 BLAS)"])
        label = f"{auto_name}: {plans.count('pexeso')} pexeso / {plans.count('bruteforce')} scan"
        for d in (rows, ok, ndist, split):
            d[label] = d.pop(auto_name)
        for name, ts in rows.items():
            if not ts:
                continue
            bs, vs = (f"{x:.2f}" for x in split[name]) if name.startswith("pexeso") \
                else ("", "")
            emit(f"| {tau} | {name} | {statistics.median(ts) * 1000:.1f} | {sum(ts):.2f} | "
                 f"{base / sum(ts):.1f}x | {ok[name]}/{len(ts)} | {np.mean(njoin):.1f} | "
                 f"{ndist[name]:,} | {bs} | {vs} |")
    if bf_pairs:
        emit()
        emit(f"Brute force in this run: {bf_s / bf_pairs * 1e6:.4f} us per (query vector, lake "
             f"vector) pair (the plan model's constant C_BF: {pexeso_cost.C_BF}).")
    if queries and a.levels_sweep:
        levels_sweep(a, vec, arr, part, queries, taus, emit)
    if queries and a.block_bound:
        block_bound(a, vec, arr, part, queries, taus, emit)
    # ---------------------------------------------------------------- recall over equi-join
    if a.skip_recall:
        if a.out:
            Path(a.out).write_text("\n".join(out) + "\n")
        return

    def geo_name(c):            # the column's own name (not its file path) says country/state
        return re.search(r"country|state|nation", names[c].rsplit(":", 1)[-1], re.I)

    geo = [c for c in range(n_real) if geo_name(c) and sizes[c] >= 5]
    if a.recall_queries and len(geo) > a.recall_queries:      # seeded sample
        geo = sorted(np.random.default_rng(a.seed).choice(geo, a.recall_queries,
                                                          replace=False).tolist())
    emit()
    emit(f"### Fuzzy (PEXESO, tau = {a.fuzzy_tau}) vs equi-join, T = {a.fuzzy_T}: "
         f"{len(geo)} country/state columns as queries")
    emit()
    emit("| query column | |Q| | equi-join cols | PEXESO cols | extra | extra named country/state | example pairs equi-join misses |")
    emit("|---|---|---|---|---|---|---|")
    tot_e = tot_p = tot_x = tot_xg = 0
    for c in geo:
        ids = arr.set_tokens(c)
        q = vec[ids]
        t_abs = px.t_count(a.fuzzy_T, len(q))
        member = np.zeros(len(ref.tokens), bool)
        member[ids] = True
        cum = np.concatenate([[0], np.cumsum(member[arr.sets_tokens])])
        overlap = cum[arr.sets_indptr[1:]] - cum[arr.sets_indptr[:-1]]
        overlap[c] = 0
        equi = set(np.nonzero(overlap >= t_abs)[0].tolist())
        r = px.search([part], vec, q, a.fuzzy_tau, a.fuzzy_T, arr.n_sets, exclude=[c])
        fuzzy = set(r.columns.tolist())
        extra = sorted(fuzzy - equi)
        extra_geo = [x for x in extra if geo_name(x)]
        ex = []
        for x in extra[:2]:
            qi, tk, d = r.pairs[x]
            for i, t, dd in zip(qi, tk, d):
                if ref.tokens[ids[i]] != ref.tokens[t] and len(ex) < 3:
                    ex.append(f"{ref.tokens[ids[i]]!r}~{ref.tokens[t]!r}")
        tot_e += len(equi)
        tot_p += len(fuzzy)
        tot_x += len(extra)
        tot_xg += len(extra_geo)
        emit(f"| {names[c]} | {len(q)} | {len(equi)} | {len(fuzzy)} | {len(extra)} | "
             f"{len(extra_geo)} | {'; '.join(ex)} |")
    emit(f"| **total** | | {tot_e} | {tot_p} | {tot_x} | {tot_xg} | |")
    if a.out:
        Path(a.out).write_text("\n".join(out) + "\n")


def kd_blocks(mapped: np.ndarray, size: int) -> list:
    """Row groups of at most ``size`` rows from a k-d split of pivot space (each split at
    the median of the pivot of widest spread): tight boxes, a best case for block filters."""
    out, stack = [], [np.arange(len(mapped))]
    while stack:
        rows = stack.pop()
        if len(rows) <= size:
            out.append(rows)
            continue
        sub = mapped[rows]
        p = int(np.argmax(sub.max(axis=0) - sub.min(axis=0)))
        o = np.argsort(sub[:, p], kind="stable")
        h = len(rows) // 2
        stack += [rows[o[h:]], rows[o[:h]]]
    return out


def block_bound(a, vec, arr, part, queries, taus, emit):
    """Share of pairs left after Lemma 3 on blocks of B lake vectors (pivot boxes of a k-d
    split): what a verification by one matrix product per surviving (query vector, block)
    would still compute, against the brute force's every pair."""
    from lakejoin_jupyter.index.pexeso_arrays import map_to_pivots
    sizes_b = [int(x) for x in a.block_bound.split(",")]
    emit()
    emit(f"### Pivot filters on blocks of lake vectors: the share of pairs left to compute "
         f"(|P| = {a.pivots}, {len(queries)} query columns)")
    emit()
    emit("| block size | " + " | ".join(f"tau {t}" for t in taus) + " |")
    emit("|---|" + "---|" * len(taus))
    mapped = np.asarray(part.mapped, dtype=np.float64)
    qms = [map_to_pivots(vec[arr.set_tokens(c)], part.pivots) for c in queries]
    for b in sizes_b:
        blocks = kd_blocks(mapped, b)
        lo = np.stack([mapped[r].min(axis=0) for r in blocks], axis=1)    # (|P|, blocks)
        hi = np.stack([mapped[r].max(axis=0) for r in blocks], axis=1)
        n_rows = np.array([len(r) for r in blocks])
        cells = []
        for tau in taus:
            left = total = 0
            for qm in qms:
                ok = np.ones((len(qm), len(blocks)), dtype=bool)
                for p in range(qm.shape[1]):
                    qp = qm[:, p][:, None]
                    ok &= np.maximum(lo[p][None] - qp, qp - hi[p][None]) <= tau + px.EPS
                left += int((ok * n_rows).sum())
                total += len(qm) * len(mapped)
            cells.append(f"{left / total:.1%}")
        emit(f"| {b} | " + " | ".join(cells) + " |")


def levels_sweep(a, vec, arr, part, queries, taus, emit):
    """PEXESO at every m of --levels-sweep on the main grid's pivots: measured time and the
    counts the cost model uses; the per-unit costs fitted to the times (least squares of
    each run's block + verify time on its cell pairs, candidate pairs and distance
    computations); the model's choice of m against the fastest measured m."""
    levels = [int(x) for x in a.levels_sweep.split(",")]
    emit()
    emit(f"### Grid levels m: measured vs the cost model (|P| = {a.pivots}, same pivots, "
         f"{len(queries)} query columns, T = {a.T})")
    emit()
    emit("| m | tau | total s | block s | verify s | cell pairs | candidate pairs | "
         "distance computations |")
    emit("|---|---|---|---|---|---|---|---|")
    runs = []
    for m in levels:
        pm = build_partition(vec, arr.sets_indptr, arr.sets_tokens, levels=m, pivots=part.pivots)
        px._layout(pm).sq_norms(vec)
        for tau in taus:
            st: dict = {}
            t1 = time.perf_counter()
            for c in queries:
                q = vec[arr.set_tokens(c)]
                px.search_partition(pm, vec, q, tau, px.t_count(a.T, len(q)), arr.n_sets,
                                    exclude=[c], want_pairs=False, stats=st)
            runs.append(dict(m=m, tau=tau, s=time.perf_counter() - t1, **{
                k: st[k] for k in ("block_s", "verify_s", "cell_pairs", "candidate_pairs",
                                   "distance_computations")}))
            r = runs[-1]
            emit(f"| {m} | {tau} | {r['s']:.2f} | {r['block_s']:.2f} | {r['verify_s']:.2f} | "
                 f"{r['cell_pairs']:,} | {r['candidate_pairs']:,} | "
                 f"{r['distance_computations']:,} |")
    df = pd.DataFrame(runs)
    x = df[["cell_pairs", "candidate_pairs", "distance_computations"]].to_numpy(float)
    coef, *_ = np.linalg.lstsq(x, df["s"].to_numpy(), rcond=None)
    coef = np.maximum(coef, 0.0) * 1e6
    emit()
    emit(f"Per-unit costs fitted to these runs: cell pair {coef[0]:.3f} us, candidate pair "
         f"{coef[1]:.3f} us, distance computation {coef[2]:.3f} us (module constants: "
         f"{pexeso_cost.C_CELL}, {pexeso_cost.C_CAND}, {pexeso_cost.C_DIST}).")
    measured = df.groupby("m")["s"].sum()
    emit()
    emit("| workload | cost model's m (module constants) | cost model's m (fitted) | "
         "fastest measured m | time at the model's m / fastest |")
    emit("|---|---|---|---|---|")
    for label, kw in ((f"taus {','.join(map(str, taus))}", dict(taus=taus)),
                      (f"paper: tau over (0, {pexeso_cost.TAU_MAX}]", {})):
        m_const = pexeso_cost.level_costs(part.mapped, part.pivots, levels, seed=a.seed, **kw)
        m_fit = pexeso_cost.level_costs(part.mapped, part.pivots, levels, seed=a.seed,
                                        costs=tuple(coef), **kw)
        pick_c = int(m_const.loc[m_const.cost_us.idxmin(), "levels"])
        pick_f = int(m_fit.loc[m_fit.cost_us.idxmin(), "levels"])
        best = int(measured.idxmin())
        ratio = (f"{measured[pick_c] / measured[best]:.2f}x" if "taus" in label else "n/a")
        emit(f"| {label} | {pick_c} | {pick_f} | {best if 'taus' in label else 'not run'} | "
             f"{ratio} |")


if __name__ == "__main__":
    main()
