"""Calibration round 29 (bench/results/fuzzyjoin_calibration.md): a split low-ratio join's
error rate corrected by the factor development measures, with a narrower bound.

A join whose ratio s1 = d1 / d2 is at most ``fuzzy.AGREE_RATIO`` keeps its function's own
rating; where another function joins its right value to a different left value (a split
join) it is wrong 2.4-5 times as often as rated in the union the join chooses, on every
set (round 28). The variants replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is;
* ``split``: ``base``, and a split low-ratio join's probability of being wrong multiplied
  by ``SPLIT_FACTOR`` (at most 1): p -> max(0, 1 - SPLIT_FACTOR (1 - p)), its error terms
  with it (``split_corrected``); the bound's z is set with ``--set
  fuzzy.STANDARD_ERRORS=Z`` (the narrower margin).

``measure`` prints, over the unions the join chooses at a target, the split and unanimous
low-ratio joins' and the high-ratio joins' wrong rows against their expected count (the
sum of 1 - the joining function's rating): ``SPLIT_FACTOR`` is that ratio for the split
joins, pooled over the development split.

    python bench/fuzzyjoin_split_low.py measure --work W --split dev
    python bench/fuzzyjoin_split_low.py --work W --variant split --set fuzzy.STANDARD_ERRORS=1 \\
        --out dev_split.csv

The family distances are cached in ``W/family/`` (bench/fuzzyjoin_agree_replay.py).
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_agree_replay as agree  # (first: it puts the repository on sys.path)
import fuzzyjoin_replay as replay
from lakejoin_jupyter.join import fuzzy, match_precision as mp

VARIANTS = ("base", "split")
# wrong / expected among the split low-ratio joins of the unions chosen at 0.9 on the
# development split, the join as it is (``measure``)
SPLIT_FACTOR = 3.82   # 346.5 / 90.67 over 3242 joins (round 29)


def split_joins(cands: dict, ratio: float) -> dict:
    """Per function, the mask of its low-ratio split joins: a join (a nearest left value
    at a finite distance) whose ratio s1 is finite and at most ``ratio`` and whose right
    value another function joins to a different left value."""
    fns = list(cands)
    L = np.stack([np.where(np.isfinite(cands[f].r_dist), cands[f].r_left, -1)
                  for f in fns], axis=1)                             # n_r x F
    out = {}
    for f in fns:
        c = cands[f]
        own = np.where(np.isfinite(c.r_dist), c.r_left, -1)
        s1, _ = mp.nearest_ratios(c.r_near)
        other = ((L >= 0) & (L != own[:, None])).any(axis=1)
        out[f] = (own >= 0) & np.isfinite(s1) & (s1 <= ratio) & other
    return out


def split_corrected(cands: dict, agreed: dict, ratio: float, factor: float) -> dict:
    """``agreed`` with each split low-ratio join's 1 - p multiplied by ``factor``."""
    masks = split_joins(cands, ratio)
    out = {}
    for f, p in agreed.items():
        q = p.copy()
        m = masks[f]
        q[m] = np.clip(1.0 - factor * (1.0 - p[m]), 0.0, 1.0)
        out[f] = q
    return out


def agreed_split(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return split_corrected(cands, agree.JOIN_AGREED(cands, ratio, also), ratio, SPLIT_FACTOR)


def measure(a) -> None:
    """Per dataset and pooled per suite: the chosen union's joins in three groups (split
    low-ratio, unanimous low-ratio, high-ratio): joins, wrong rows' share summed, and the
    expected wrong (1 - the joining function's rating, before the union's exclusive and
    hub caps)."""
    from pathlib import Path
    agree.STATE["work"] = Path(a.work)
    agree.STATE["folders"] = {n: f for _, n, _, f in replay.case_folders(
        a.work, a.autofj_venv, agree.SUITES)}
    fuzzy.agreed_probability = agree.JOIN_AGREED
    rows = []
    for d in replay.saved(Path(a.work), a.split):
        agree.prepare(d)
        cands, curves = built = replay.build(d)
        union, fn_of, _ = replay.choose(d, float(a.target), built)
        masks = split_joins(cands, fuzzy.AGREE_RATIO)
        for i in np.flatnonzero(union >= 0):
            f = fn_of[i]
            c = cands[f]
            s1 = mp.nearest_ratios(c.r_near[i:i + 1])[0][0]
            group = ("split" if masks[f][i] else "unanimous") if s1 <= fuzzy.AGREE_RATIO \
                else "high"
            rows.append((d["suite"], d["name"], group,
                         1.0 - d["tp"][f][i] / max(d["n_rows"][i], 1), 1.0 - c.p[i]))
    import pandas as pd
    df = pd.DataFrame(rows, columns=["suite", "dataset", "group", "wrong", "expected"])
    if a.out:
        df.to_csv(a.out, index=False)
    g = df.groupby(["suite", "group"])[["wrong", "expected"]].sum()
    g["joins"] = df.groupby(["suite", "group"]).size()
    g["ratio"] = g["wrong"] / g["expected"]
    print(g.round(3).to_string())
    t = df.groupby("group")[["wrong", "expected"]].sum()
    t["joins"] = df.groupby("group").size()
    t["ratio"] = t["wrong"] / t["expected"]
    print(t.round(4).to_string())


def main(argv=None):
    agree.run(__doc__, VARIANTS, {"split": agreed_split}, argv, subcommands={
        "measure": (measure, {"--work": {"required": True}, "--split": {"default": "dev"},
                              "--target": {"default": "0.9"}, "--out": {"default": None},
                              "--autofj-venv": {"default": replay.AUTOFJ_VENV}})})


if __name__ == "__main__":
    main()
