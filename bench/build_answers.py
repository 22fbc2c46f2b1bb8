"""Answers of a Spark-built synthetic-lake index against reference builds (the 10^6 check of
the build-speed issue): JOSIE, LSH Ensemble and MATE.

    python bench/build_answers.py WORK --index INDEX --columns N [--queries 3] [--results OUT]

INDEX is the Spark build of bench/synthetic.py's open-data lake of N columns (seed 0, 4
columns per table), e.g. the one bench/build.py --keep leaves in WORK. Checked:

* JOSIE: the reference build is bench/josie_prepare.py's ``ref-opendata-N``: the same sets
  drawn as integers (bench.synthetic.generate_ids) and indexed by the vectorized reference
  builder (index.arrays.build_arrays_from_ids), no Spark. Column ids are the same in both;
  token ids may differ inside duplicate groups (ties broken by text in one, by integer in
  the other), which no answer depends on. Queries: lake columns stratified by |Q ∩ U| as in
  JOSIE §4.2 (search.josie.stratified_columns), each query's own column excluded; top-k
  (set id, overlap) lists must be equal for k = 1, 10, 50, or equal up to ties: the same
  overlaps, each recounted from the sets, and the same sets above the k-th overlap (which
  of several sets tied at the k-th overlap an exact top-k returns depends on token order).
* LSH Ensemble: the component's tables are compared array for array with its numpy
  reference builder (indexing/lshensemble.reference_tables) over the index's signatures;
  for the same queries, the candidates of a probe at t* = 0.5 and 0.8 must be equal; and a
  sample of signatures is recomputed with datasketch from the token texts.
* MATE: queries are two columns of a random lake table (their distinct value pairs); the
  oracle is search/bruteforce_nary (every column mapping) over every table sharing a value
  with the query's first column, each read from its file and normalized here (nothing from
  the MATE arrays); tables sharing none score 0. Top-10 (table, score, mapping) must be equal.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def josie_check(ix, ref_dir: Path, per_interval: int, ks=(1, 10, 50)) -> dict:
    from lakejoin_jupyter.index.reads import load_arrays
    from lakejoin_jupyter.search.josie_cost import CostModel
    from lakejoin_jupyter.search import josie

    a = load_arrays(ix.path)
    r = load_arrays(ref_dir)
    costs_a = CostModel.from_manifest(ix.manifest, "warm")
    costs_r = CostModel.from_manifest(json.loads((ref_dir / "manifest.json").read_text()), "warm")
    same_shape = (a.n_sets == r.n_sets and a.n_tokens == r.n_tokens
                  and np.array_equal(np.asarray(a.sets_indptr), np.asarray(r.sets_indptr))
                  and np.array_equal(np.sort(np.asarray(a.token_freq)), np.sort(np.asarray(r.token_freq))))
    queries, _ = josie.stratified_columns(a, per_interval, np.random.default_rng(618))
    n = equal = tied = 0
    bad = []
    for sid, _, _ in queries:
        qa, qr = np.asarray(a.set_tokens(sid)), np.asarray(r.set_tokens(sid))
        for k in ks:
            got, _ = josie.search(a, qa, k, [sid], costs=costs_a, plan="auto")
            want, _ = josie.search(r, qr, k, [sid], costs=costs_r, plan="auto")
            got, want = [tuple(map(int, x)) for x in got], [tuple(map(int, x)) for x in want]
            n += 1
            if got == want:
                equal += 1
            elif _same_up_to_ties(got, want, lambda s: np.intersect1d(qa, a.set_tokens(s)).size,
                                  lambda s: np.intersect1d(qr, r.set_tokens(s)).size):
                tied += 1
            else:
                bad.append((int(sid), k))
    return {"same_sets_and_frequencies": bool(same_shape), "queries": len(queries),
            "answers": n, "equal": equal, "equal_up_to_ties": tied, "different": bad[:10]}


def _same_up_to_ties(got, want, overlap_got, overlap_want) -> bool:
    """Two exact top-k answers that differ only in which sets fill the places tied at the
    k-th overlap: the same overlap sequence, every listed overlap true in its own index
    (recounted from the sets), and the same sets above the k-th overlap."""
    if [o for _, o in got] != [o for _, o in want]:
        return False
    if any(overlap_got(s) != o for s, o in got) or any(overlap_want(s) != o for s, o in want):
        return False
    kth = got[-1][1] if got else 0
    return {s for s, o in got if o > kth} == {s for s, o in want if o > kth}


def lshensemble_check(ix, queries: list, n_signature_checks: int = 200) -> dict:
    import mmh3
    from datasketch import MinHash

    from lakejoin_jupyter.indexing.lshensemble import reference_tables
    from lakejoin_jupyter.search import lshensemble as L

    sec = ix.manifest["components"]["lshensemble"]
    sig = np.asarray(ix.signatures)
    sizes = np.diff(np.asarray(ix.arrays.sets_indptr))
    m = int(sec.get("num_perm", sig.shape[1]))
    t = time.time()
    ref = reference_tables(sig[:, :m], sizes, sec["partitions_requested"])
    ref_s = time.time() - t
    built = {k: ix.load_npy(f"lshensemble/{k}.npy") for k in ("partitions", "values", "set_ids", "directory")}
    arrays_equal = {k: bool(np.array_equal(np.asarray(built[k]), ref[k])) for k in built}
    spark_tables = L.Tables.load(ix)
    ref_tables = L.Tables(partitions=ref["partitions"], values=ref["values"], set_ids=ref["set_ids"],
                          directory=ref["directory"], num_perm=spark_tables.num_perm,
                          seed=spark_tables.seed)
    n = equal = 0
    for sid in queries:
        for th in (0.5, 0.8):
            a = L.probe(spark_tables, sig, sizes, sig[sid], int(sizes[sid]), th)
            b = L.probe(ref_tables, sig, sizes, sig[sid], int(sizes[sid]), th)
            n += 1
            equal += bool(np.array_equal(np.sort(a.ids), np.sort(b.ids)))
    mh = ix.manifest["components"]["minhash"]
    rng = np.random.default_rng(1)
    sig_ok = 0
    sample = rng.choice(ix.arrays.n_sets, size=min(n_signature_checks, ix.arrays.n_sets), replace=False)
    for cid in sample:
        h = MinHash(num_perm=mh["num_perm"], seed=mh["seed"], hashfunc=lambda s: mmh3.hash(s, signed=False))
        for tok in ix.token_text(np.asarray(ix.arrays.set_tokens(int(cid)))):
            h.update(tok)
        sig_ok += bool(np.array_equal(sig[cid], h.hashvalues))
    return {"arrays_equal": arrays_equal, "reference_seconds": round(ref_s, 1), "probes": n,
            "equal": equal, "signatures_checked": len(sample), "signatures_equal": sig_ok}


def mate_check(ix, n_queries: int, max_candidates: int = 3000, seed: int = 7) -> dict:
    from lakejoin_jupyter.index.mate_arrays import load
    from lakejoin_jupyter.lake.normalize import normalize_many
    from lakejoin_jupyter.lake.read import TableInfo, read_table
    from lakejoin_jupyter.search import bruteforce_nary as oracle
    from lakejoin_jupyter.search import mate

    ma = load(ix)
    tables = ix.tables.set_index("table_id")
    cols = ix.columns
    col_table = cols["table_id"].to_numpy()
    first_col = tables["first_column_id"]
    a = ix.arrays
    rng = np.random.default_rng(seed)
    done, equal, skipped, cand_sizes, bad = 0, 0, 0, [], []

    def matrix(tid):
        df = read_table(TableInfo.from_json(tables.loc[tid, "info"]))
        toks = [normalize_many(df[c].tolist()) for c in df.columns]
        flat = sorted({t for col in toks for t in col if t is not None})
        ids = dict(zip(flat, ix.lookup(flat).tolist()))
        return np.array([[ids.get(t, -1) if t is not None else -1 for t in row]
                         for row in zip(*toks)], dtype=np.int64).reshape(len(df), len(df.columns))

    candidates_pool = tables[(tables["status"] == "indexed") & (tables["n_columns"] >= 2)].index.to_numpy()
    tries = 0
    while done < n_queries and tries < 50 * n_queries:
        tries += 1
        tid = int(rng.choice(candidates_pool))
        m0 = matrix(tid)
        j0, j1 = sorted(rng.choice(m0.shape[1], size=2, replace=False).tolist())
        keys = m0[:, [j0, j1]]
        keys = np.unique(keys[(keys >= 0).all(axis=1)], axis=0)
        if len(keys) < 5:
            continue
        keys = keys[rng.permutation(len(keys))[:200]]
        # tables sharing a value with the first key column (others score 0)
        sets = np.unique(np.concatenate([np.asarray(a.postings(int(t))[0]) for t in np.unique(keys[:, 0])]))
        cand = np.unique(col_table[sets])
        if len(cand) > max_candidates:
            skipped += 1
            continue
        fc = int(first_col.loc[tid])
        exclude = frozenset(range(fc, fc + m0.shape[1]))
        got, _ = mate.search(ma, keys, 10, exclude=exclude)
        mats = [(int(c), int(first_col.loc[c]), m0 if c == tid else matrix(int(c))) for c in cand]
        want = oracle.topk(oracle.joinability(mats, keys, exclude), 10)
        done += 1
        cand_sizes.append(len(cand))
        g = [(h[0], h[1], tuple(h[2])) for h in got]
        w = [(x.table_id, x.score, tuple(x.mapping)) for x in want]
        if g == w:
            equal += 1
        else:
            bad.append({"table": tid, "columns": [j0, j1], "got": g, "want": w})
    return {"queries": done, "equal": equal, "skipped_too_many_candidates": skipped,
            "candidate_tables_median": int(np.median(cand_sizes)) if cand_sizes else 0,
            "different": bad[:5]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("work", type=Path)
    ap.add_argument("--index", required=True, type=Path)
    ap.add_argument("--columns", required=True, type=int)
    ap.add_argument("--queries", type=int, default=3, help="JOSIE queries per |Q ∩ U| interval")
    ap.add_argument("--mate-queries", type=int, default=10)
    ap.add_argument("--results", type=Path)
    ap.add_argument("--checks", default="josie,lshensemble,mate",
                    help="comma-separated subset of josie, lshensemble, mate")
    a = ap.parse_args(argv)
    from bench.josie_prepare import prepare_reference
    from lakejoin_jupyter.index.store import LakeIndex

    ix = LakeIndex(a.index, check_lake=False).generations[0]
    out = {"index": str(a.index), "columns": a.columns}
    checks = set(a.checks.split(","))
    from lakejoin_jupyter.search import josie
    if "josie" in checks:
        t = time.time()
        ref = prepare_reference(a.work, f"ref-opendata-{a.columns}")
        out["reference_build_s"] = round(time.time() - t, 1)
        t = time.time()
        out["josie"] = josie_check(ix, ref, a.queries)
        out["josie"]["seconds"] = round(time.time() - t, 1)
        print(json.dumps(out["josie"]), flush=True)
    if "lshensemble" in checks:
        qs = [s for s, _, _ in josie.stratified_columns(ix.arrays, a.queries, np.random.default_rng(618))[0]]
        t = time.time()
        out["lshensemble"] = lshensemble_check(ix, qs)
        out["lshensemble"]["seconds"] = round(time.time() - t, 1)
        print(json.dumps(out["lshensemble"]), flush=True)
    if "mate" in checks:
        t = time.time()
        out["mate"] = mate_check(ix, a.mate_queries)
        out["mate"]["seconds"] = round(time.time() - t, 1)
        print(json.dumps(out["mate"]), flush=True)
    if a.results:
        a.results.write_text(json.dumps(out, indent=1))
    j, l, m = out.get("josie"), out.get("lshensemble"), out.get("mate")
    ok = ((j is None or j["equal"] == j["answers"])
          and (l is None or (l["equal"] == l["probes"] and all(l["arrays_equal"].values())
                             and l["signatures_equal"] == l["signatures_checked"]))
          and (m is None or m["equal"] == m["queries"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
