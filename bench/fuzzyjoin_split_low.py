"""Calibration rounds 29-31 (bench/results/fuzzyjoin_calibration.md): low-ratio joins'
error rate corrected by a measured factor (29-30) or floor (31).

A join whose ratio s1 = d1 / d2 is at most ``fuzzy.AGREE_RATIO`` keeps its function's own
rating; where another function joins its right value to a different left value (a split
join) it is wrong 2.4-5 times as often as rated (round 28). The variants replay the choice
on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is;
* ``split``: a split low-ratio join's probability of being wrong multiplied by
  ``SPLIT_FACTOR``: p -> max(0, 1 - SPLIT_FACTOR (1 - p)) (``split_corrected``); the
  bound's z set with ``--set fuzzy.STANDARD_ERRORS=Z``;
* ``table`` (round 30): every low-ratio join's probability of being wrong multiplied by
  its table's ``table_factor``, read from right values whose low-ratio joins go to 2+ left
  values (``table_corrected``);
* ``floor`` (round 31): every low-ratio join of a function rated p -> p (1 - its
  ``near_sure_floor``): the reference table queried against itself (``reference_ratios``)
  gives nulls the model rates near-sure; the floor is their expected count over the
  function's near-sure joins, at most 1 (``floor_corrected``).

``measure`` prints per dataset the table's factor beside the chosen union's wrong /
expected ratio of its low-ratio joins, and over the chosen unions the split, unanimous and
high-ratio joins' wrong rows against their expected count (sum of 1 - rating);
``SPLIT_FACTOR`` is the split joins' ratio pooled over the development split.

    python bench/fuzzyjoin_split_low.py measure --work W --split dev
    python bench/fuzzyjoin_split_low.py --work W --variant split --set fuzzy.STANDARD_ERRORS=1 \\
        --out dev_split.csv

Caches: family distances in ``W/family/`` (fuzzyjoin_agree_replay.py), ``W/refself/``.
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_agree_replay as agree  # (first: it puts the repository on sys.path)
import fuzzyjoin_replay as replay
from lakejoin_jupyter.join import fuzzy, match_precision as mp

VARIANTS = ("base", "split", "table", "floor")
# wrong / expected among the split low-ratio joins of the unions chosen at 0.9 on the
# development split, the join as it is (``measure``)
SPLIT_FACTOR = 3.82   # 346.5 / 90.67 over 3242 joins (round 29)
PRIOR = 1.0           # table_factor: one wrong join's worth of evidence that the model is right
NEAR_SURE = 0.99      # floor: the ratings the factors cannot reach (round 30)
REF_SAMPLE = 500      # floor: at most this many left values queried against the others
STATE = {"ref": None}  # floor: the current dataset's reference ratios (``prepare``)


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


def _scaled(agreed: dict, masks: dict, factor: float) -> dict:
    """``agreed`` with 1 - p multiplied by ``factor`` where ``masks`` is set."""
    out = {}
    for f, p in agreed.items():
        q = p.copy()
        m = masks[f]
        q[m] = np.clip(1.0 - factor * (1.0 - p[m]), 0.0, 1.0)
        out[f] = q
    return out


def split_corrected(cands: dict, agreed: dict, ratio: float, factor: float) -> dict:
    """``agreed`` with each split low-ratio join's 1 - p multiplied by ``factor``."""
    return _scaled(agreed, split_joins(cands, ratio), factor)


def low_joins(cands: dict, ratio: float) -> dict:
    """Per function, the mask of its low-ratio joins: a join at a finite distance whose
    ratio s1 is finite and at most ``ratio``."""
    out = {}
    for f, c in cands.items():
        s1, _ = mp.nearest_ratios(c.r_near)
        out[f] = (c.r_left >= 0) & np.isfinite(c.r_dist) & np.isfinite(s1) & (s1 <= ratio)
    return out


def exclusive_counts(cands: dict, agreed: dict, ratio: float) -> tuple[float, float]:
    """(wrong at least, expected wrong) over the right values whose low-ratio joins go to
    k >= 2 different left values: k - 1 of them are wrong at least (the left table names
    each entity once), and the ratings expect the sum over the k left values of 1 - the
    highest rating (``agreed``) any function's low-ratio join to it has."""
    fns = list(cands)
    low = low_joins(cands, ratio)
    L = np.stack([np.where(low[f], cands[f].r_left, -1) for f in fns], axis=1)
    P = np.stack([agreed[f] for f in fns], axis=1)
    wrong = expected = 0.0
    for i in np.flatnonzero((L >= 0).sum(axis=1) >= 2):
        best: dict = {}
        for l, p in zip(L[i].tolist(), P[i].tolist()):
            if l >= 0:
                best[l] = max(best.get(l, 0.0), p)
        if len(best) >= 2:
            wrong += len(best) - 1
            expected += sum(1.0 - p for p in best.values())
    return wrong, expected


def table_factor(cands: dict, agreed: dict, ratio: float, prior: float = PRIOR) -> float:
    """The table's factor: (wrong at least + ``prior``) / (expected + ``prior``) of
    :func:`exclusive_counts`, at least 1 (a check that can only show optimism)."""
    wrong, expected = exclusive_counts(cands, agreed, ratio)
    return max(1.0, (wrong + prior) / (expected + prior))


def table_corrected(cands: dict, agreed: dict, ratio: float, prior: float = PRIOR) -> dict:
    """``agreed`` with every low-ratio join's 1 - p multiplied by :func:`table_factor`."""
    k = table_factor(cands, agreed, ratio, prior)
    if k == 1.0:
        return {f: p.copy() for f, p in agreed.items()}
    return _scaled(agreed, low_joins(cands, ratio), k)


def reference_ratios(d: dict, folder) -> dict:
    """Per join function of dataset ``d``: the ratios s1 of K = min(|left|, |right|,
    ``REF_SAMPLE``) left values (evenly spaced) joined as right values to the OTHER left
    values, as the join finds a right value's nearest (the negative rules, the family
    search); NaN where a rule forbids the join or s1 is undefined."""
    from fuzzyjoin_autofj import load
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    k = min(len(lkeys), len(rkeys), REF_SAMPLE)
    q = np.unique(np.linspace(0, len(lkeys) - 1, k).round().astype(np.int64))
    rules = fuzzy.NegativeRules(lkeys, [lkeys[i] for i in q])
    out, counts = {}, {}
    for fn in d["raw"]:
        L, _ = fuzzy._features([list(lkeys), list(rkeys)], fn, counts)
        rd, ri, _ = fuzzy._nearest(L[q], L, max(fuzzy.NEAREST, fuzzy.FAMILY_SEARCH or 0),
                                   self_index=q)
        r_left = np.where(np.isfinite(rd[:, 0]), ri[:, 0], -1)
        near = (fuzzy.family_nearest(rd, ri, rules) if fuzzy.FAMILY_SEARCH
                else rd[:, :fuzzy.NEAREST])
        s1 = mp.nearest_ratios(near)[0]
        s1[(r_left < 0) | rules.rejects(r_left)] = np.nan
        out[fn] = s1
    return out


def near_sure_floor(c, low: np.ndarray, ref: np.ndarray, sure: float = NEAR_SURE) -> float:
    """The share of a function's near-sure low-ratio joins (``low`` and rated ``sure`` or
    more) counted wrong whatever their rating: min(1, pi0 N r / N_sure), N the right
    values with a ratio, r the share of the reference queries ``ref`` (ratios) at or below
    the near-sure joins' largest ratio; 0 without near-sure joins or reference ratios."""
    sure_low = low & (c.p >= sure)
    ref = np.asarray(ref, dtype=np.float64)
    if not sure_low.any() or not len(ref):
        return 0.0
    s1 = mp.nearest_ratios(c.r_near)[0]
    r = float(np.mean(np.isfinite(ref) & (ref <= s1[sure_low].max())))
    return min(1.0, c.pi0 * float(np.isfinite(s1).sum()) * r / float(sure_low.sum()))


def floor_corrected(cands: dict, agreed: dict, ratio: float, ref: dict,
                    sure: float = NEAR_SURE) -> dict:
    """``agreed`` with every low-ratio join of function f rated p -> p (1 - floor_f),
    floor_f its :func:`near_sure_floor` (read with the ratings ``agreed``)."""
    low = low_joins(cands, ratio)
    out = {}
    for f, p in agreed.items():
        c = cands[f]
        was, c.p = c.p, p
        try:
            k = near_sure_floor(c, low[f], ref.get(f, ()), sure)
        finally:
            c.p = was
        q = p.copy()
        q[low[f]] = p[low[f]] * (1.0 - k)
        out[f] = q
    return out


def agreed_floor(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return floor_corrected(cands, agree.JOIN_AGREED(cands, ratio, also), ratio,
                           STATE["ref"] or {})


def prepare_floor(d: dict) -> None:
    """The dataset's reference ratios (cached in WORK/refself/) for ``agreed_floor``."""
    STATE["ref"] = replay.cached_measure(d, agree.STATE, "refself", reference_ratios)


def agreed_table(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return table_corrected(cands, agree.JOIN_AGREED(cands, ratio, also), ratio)


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
        k = table_factor(cands, {f: c.p for f, c in cands.items()}, fuzzy.AGREE_RATIO)
        for i in np.flatnonzero(union >= 0):
            f = fn_of[i]
            c = cands[f]
            s1 = mp.nearest_ratios(c.r_near[i:i + 1])[0][0]
            group = ("split" if masks[f][i] else "unanimous") if s1 <= fuzzy.AGREE_RATIO \
                else "high"
            rows.append((d["suite"], d["name"], group,
                         1.0 - d["tp"][f][i] / max(d["n_rows"][i], 1), 1.0 - c.p[i], k))
    import pandas as pd
    df = pd.DataFrame(rows, columns=["suite", "dataset", "group", "wrong", "expected",
                                     "table_factor"])
    if a.out:
        df.to_csv(a.out, index=False)
    low = df[df.group != "high"]
    t = low.groupby(["suite", "dataset"])[["wrong", "expected"]].sum()
    t["ratio"] = t["wrong"] / t["expected"]
    t["table_factor"] = df.groupby(["suite", "dataset"])["table_factor"].first()
    print(t.round(3).to_string())
    g = df.groupby(["suite", "group"])[["wrong", "expected"]].sum()
    g["joins"] = df.groupby(["suite", "group"]).size()
    g["ratio"] = g["wrong"] / g["expected"]
    print(g.round(3).to_string())
    t = df.groupby("group")[["wrong", "expected"]].sum()
    t["joins"] = df.groupby("group").size()
    t["ratio"] = t["wrong"] / t["expected"]
    print(t.round(4).to_string())


def main(argv=None):
    agree.run(__doc__, VARIANTS, {"split": agreed_split, "table": agreed_table,
                                  "floor": agreed_floor}, argv,
              also_prepare=lambda d: prepare_floor(d) if agree.STATE["variant"] == "floor"
              else None, subcommands={
        "measure": (measure, {"--work": {"required": True}, "--split": {"default": "dev"},
                              "--target": {"default": "0.9"}, "--out": {"default": None},
                              "--autofj-venv": {"default": replay.AUTOFJ_VENV}})})


if __name__ == "__main__":
    main()
