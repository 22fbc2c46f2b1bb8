"""Diagnostic (not in the join): decoys taken from the reference table itself, replayed on
the DEVELOPMENT split (bench/results/fuzzyjoin_calibration.md, eighth session).

Auto-FuzzyJoin's reference-table assumption says two left values are two entities, so a
left value queried against the OTHER left values has no partner there, and its ratio
e1 / e2 (nearest over second nearest other left value) is a null ratio drawn from the
table's own namesakes. This script adds those ratios to each join function's decoys
(the ratios d2 / d3 of the right values' own searches) and replays the choice with
bench/fuzzyjoin_replay.py on its saved blocking output, without changing join/:

    python bench/fuzzyjoin_reference_decoys.py --work /tmp/fj-bench --sample 600
    python bench/fuzzyjoin_reference_decoys.py --work /tmp/fj-bench --sample 600 --rules
    python bench/fuzzyjoin_reference_decoys.py --work /tmp/fj-bench --sample right

``--sample``: how many left values are queried (evenly spaced): a number, or "right" for
as many as the right table has distinct values (the two decoy sources weigh alike);
``--rules``: drop a left value whose nearest other left value the negative rules would
forbid it to join; ``--use pi0``: the reference ratios count in pi0's tail only (the
null's shape stays the decoys d2 / d3). Prints the replayed calibration per target and each join's estimate
against the truth at fixed thresholds (30/50/70/90 % of each function's distances).
"""
from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import numpy as np
import pandas as pd

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load


def reference_ratios(left, right, fns, sample, rules: bool) -> dict:
    """Per join function: the ratios e1 / e2 of a sample of left values against the other
    left values (NaN where undefined or, with ``rules``, where a negative rule forbids the
    value's nearest other left value)."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    k = min(len(lkeys), len(rkeys) if sample == "right" else int(sample))
    q = np.unique(np.linspace(0, len(lkeys) - 1, k).round().astype(np.int64))
    neg = fuzzy.NegativeRules(lkeys, rkeys) if rules else None
    out = {}
    for fn in fns:
        L, _ = fuzzy._features([list(lkeys), list(rkeys)], fn)
        near, idx, _ = fuzzy._nearest(L[q], L, fuzzy.NEAREST, self_index=q)
        if neg is not None:
            veto = [l >= 0 and _left_veto(neg, i, l) for i, l in zip(q.tolist(), idx[:, 0].tolist())]
            near[np.array(veto, dtype=bool)] = np.inf
        out[fn] = mp.nearest_ratios(near)[0]
    return out


def _left_veto(neg, i: int, l: int) -> bool:
    """NegativeRules.forbids for left value i joined to left value l (as if i were right)."""
    rt, rd = neg.rt, neg.rd
    neg.rt, neg.rd = neg.lt, neg.ld
    try:
        neg._memo = {}
        return bool(neg.forbids(i, l))
    finally:
        neg.rt, neg.rd, neg._memo = rt, rd, {}


def build_with(d: dict, ref: dict, use: str = "decoys"):
    """replay.build with each function's decoys pooled with the reference ratios
    (``use="decoys"``), or with only pi0 estimated from the pooled decoys and the null's
    shape from the decoys d2 / d3 alone (``use="pi0"``)."""
    from lakejoin_jupyter.join import fuzzy
    real, real_null = fuzzy.nearest_ratios, fuzzy.null_probability
    cands = {}
    try:
        for f, r in d["raw"].items():
            if use == "decoys":
                def pooled(near, _f=f):
                    s1, s2 = real(near)
                    return s1, np.concatenate([s2, ref[_f]])
                fuzzy.nearest_ratios = pooled
            else:
                def null_pooled_pi0(s1, s2, _f=f):
                    pi0 = real_null(s1, np.concatenate([s2, ref[_f]]))[1]
                    return real_null(s1, s2, pi0=pi0)
                fuzzy.null_probability = null_pooled_pi0
            cands[f] = fuzzy._Candidates(f, **r)
    finally:
        fuzzy.nearest_ratios, fuzzy.null_probability = real, real_null
    return replay.with_curves(d, cands)


def per_join_error(d: dict, cands: dict) -> tuple[float, float]:
    """Mean |and signed| (estimated - achieved precision) of each function alone at the
    30/50/70/90 % quantiles of its distances."""
    err = []
    for f, c in cands.items():
        dist = d["raw"][f]["r_dist"]
        fin = dist[np.isfinite(dist)]
        if len(fin) < 5:
            continue
        for qq in (0.3, 0.5, 0.7, 0.9):
            j = dist <= np.quantile(fin, qq)
            err.append(c.p[j].mean() - d["tp"][f][j].sum() / d["n_rows"][j].sum())
    return float(np.mean(np.abs(err))), float(np.mean(err))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="holds replay/*.pkl (replay dump) and cases/")
    ap.add_argument("--autofj-venv", default=replay.AUTOFJ_VENV)
    ap.add_argument("--sample", default="600")
    ap.add_argument("--rules", action="store_true")
    ap.add_argument("--use", choices=["decoys", "pi0"], default="decoys",
                    help="pool the reference ratios into the decoys, or into pi0's tail only")
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    ap.add_argument("--datasets", default="", help="comma-separated names (default: all dev)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    work = Path(a.work)
    targets = replay.numbers(a.targets)
    rows = []
    names = replay.words(a.datasets)
    for suite, name, sp, folder in replay.case_folders(work, a.autofj_venv, ["autofj", "rl"],
                                                       "dev"):
        if names and name not in names:
            continue
        d = pickle.load(open(work / "replay" / f"{name}.pkl", "rb"))
        left, right, _ = load(folder)
        ref = reference_ratios(left, right, list(d["raw"]), a.sample, a.rules)
        row = {"suite": suite, "dataset": name}
        for mode, built in (("before", replay.build(d)), ("reference", build_with(d, ref, a.use))):
            row[f"join_abs_{mode}"], row[f"join_signed_{mode}"] = per_join_error(d, built[0])
            for t in targets:
                union, fn_of, _ = replay.choose(d, t, built)
                s = replay.score(d, union, fn_of)
                row[f"P{t:g}_{mode}"], row[f"F1{t:g}_{mode}"] = s["P"], s["F1"]
        rows.append(row)
        print(name, flush=True)
    df = pd.DataFrame(rows)
    if a.out:
        df.to_csv(a.out, index=False)
    for mode in ("before", "reference"):
        print(f"{mode}: per join at fixed thresholds |err| {df[f'join_abs_{mode}'].mean():.4f} "
              f"signed {df[f'join_signed_{mode}'].mean():+.4f}; chosen, mean |P - target| / F1: "
              + ", ".join(f"{t:g}: {(df[f'P{t:g}_{mode}'] - t).abs().mean():.3f} / "
                          f"{df[f'F1{t:g}_{mode}'].mean():.3f}" for t in targets))


if __name__ == "__main__":
    main()
