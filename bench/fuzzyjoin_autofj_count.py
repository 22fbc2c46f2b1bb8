"""Auto-FuzzyJoin's own precision estimate next to ours, replayed on the DEVELOPMENT split
(round 5 of issue 26's calibration; docs/algorithms/fuzzyjoin.md, "Where the calibration
error comes from"; none of the variants was kept).

autofj rates a join of right value r to its nearest left value l at threshold t right with
probability a = 1 / (1 + #{l' != l : d(l, l') <= 2t}). Here a is counted under each of our
join functions among l's LEFT_NEAREST nearest other left values, and combined with our
probability p per join (``VARIANTS``); the decoy and pi0 error terms of the bound stay
ours (the count has no sampling error), the outcome's variance is q (1 - q) of the
combined q.

    python bench/fuzzyjoin_autofj_count.py dump --work W          # left-left distances
    python bench/fuzzyjoin_autofj_count.py replay --work W --variant min
    python bench/fuzzyjoin_autofj_count.py diag --work W          # estimates at fixed t

W is a work dir with ``bench/fuzzyjoin_replay.py dump``'s cache (W/replay); ``dump``
adds W/replay_ll/<dataset>.pkl: per join function, each left value's sorted distances to
its LEFT_NEAREST nearest other left values (inf for left values no right value has as its
nearest: only those are needed).
"""
from __future__ import annotations

import argparse
import pickle
from pathlib import Path

import numpy as np
import pandas as pd

import fuzzyjoin_replay as rp  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load
from lakejoin_jupyter.join import fuzzy
from lakejoin_jupyter.join.match_precision import TIE

LEFT_NEAREST = 32
# name -> (reach of the count given the join's distance d1 and the threshold t, combination)
VARIANTS = {
    "min-own": (lambda d1, t: 2.0 * d1, "min"),        # threshold-free: the join's own distance
    "min": (lambda d1, t: np.full(len(d1), 2.0 * t), "min"),    # autofj's count at t
    "geo": (lambda d1, t: np.full(len(d1), 2.0 * t), "geo"),
    "mean": (lambda d1, t: np.full(len(d1), 2.0 * t), "mean"),
    "min-tight": (lambda d1, t: d1 + t, "min"),   # a left value r joins at t is within d1 + t of l
    # autofj's 2t on 1 - cos is sqrt(2) t on the Euclidean distance of unit vectors
    "min-autofj": ("autofj", "min"),
    "mean-autofj": ("autofj", "mean"),
}


def autofj_reach(fn: str, t: float, n: int) -> np.ndarray:
    """autofj's reach 2t translated to join function ``fn``'s distance."""
    k = np.sqrt(2.0) if fuzzy.JOIN_FUNCTIONS[fn][2] == "cosine" else 2.0
    return np.full(n, k * t)


def autofj_probability(l_near: np.ndarray, left: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """1 / (1 + the number of left values within ``reach`` of each joined left value)."""
    return 1.0 / (1.0 + (l_near[left] <= reach[:, None] + TIE).sum(axis=1))


def combine(p: np.ndarray, a: np.ndarray, how: str) -> np.ndarray:
    if how == "geo":
        return np.sqrt(p * a)
    if how == "mean":
        return 0.5 * (p + a)
    return np.minimum(p, a)


def candidates_class(l_near: dict, variant: str):
    """A ``fuzzy._Candidates`` whose joins at t carry ours combined with autofj's count."""
    reach_of, how = VARIANTS[variant]

    class Combined(fuzzy._Candidates):
        def at(self, t: float):
            joined, p, v, u = super().at(t)
            if joined.any():
                d1 = self.r_dist[joined]
                reach = (autofj_reach(self.fn, t, len(d1)) if reach_of == "autofj"
                         else reach_of(d1, t))
                a = autofj_probability(l_near[self.fn], self.r_left[joined], reach)
                q = combine(p, a, how)
                v = q * (1.0 - q) + (v - p * (1.0 - p))   # ours' decoy term kept
                p = q
            return joined, p, v, u
    return Combined


def dump(work: Path, venv: Path, split: str):
    out = work / "replay_ll"
    out.mkdir(exist_ok=True)
    for suite, name, sp, folder in rp.case_folders(work, venv, ["autofj", "rl"], split):
        if (out / f"{name}.pkl").exists() or not (work / "replay" / f"{name}.pkl").exists():
            continue
        d = pickle.load(open(work / "replay" / f"{name}.pkl", "rb"))
        left, right, _ = load(folder)
        lkeys, _ = fuzzy._distinct(left["title"])
        rkeys, _ = fuzzy._distinct(right["title"])
        res = {}
        for fn in d["raw"]:
            L, R = fuzzy._features([list(lkeys), list(rkeys)], fn)
            near = d["raw"][fn]["r_near"][:, 0]           # the cache matches these features
            rd, _, _ = fuzzy._nearest(R, L, 1)
            ok = np.isfinite(near)
            assert np.allclose(rd[ok, 0], near[ok], atol=1e-9), (name, fn)
            need = np.unique(d["raw"][fn]["r_left"])
            need = need[need >= 0]
            ld, _, _ = fuzzy._nearest(L[need], L, LEFT_NEAREST, self_index=need)
            full = np.full((len(lkeys), ld.shape[1]), np.inf, dtype=np.float32)
            full[need] = ld
            res[fn] = full
        pickle.dump(res, open(out / f"{name}.pkl", "wb"))
        print(name, flush=True)


def prepare_for(work: Path, variant: str):
    def prepare(d):
        l_near = pickle.load(open(work / "replay_ll" / f"{d['name']}.pkl", "rb"))
        d["candidates"] = candidates_class(l_near, variant)
    return prepare


def diag(work: Path, split: str) -> pd.DataFrame:
    """Each function's estimate at the 30/50/70/90 % quantiles of its join distances, no
    choice: ours and autofj's count (reach sqrt(2) t for the Euclidean functions, the
    image of 2t on 1 - cos; 2t for the set distances), minus the achieved precision."""
    rows = []
    for d in rp.saved(work, split):
        ll = pickle.load(open(work / "replay_ll" / f"{d['name']}.pkl", "rb"))
        for fn, r in d["raw"].items():
            c = fuzzy._Candidates(fn, **r)
            ok = np.isfinite(c.r_dist)
            if ok.sum() < 10:
                continue
            for qq in (0.3, 0.5, 0.7, 0.9):
                t = float(np.quantile(c.r_dist[ok], qq))
                j, p, _, _ = c.at(t)
                a = autofj_probability(ll[fn], c.r_left[j], autofj_reach(fn, t, int(j.sum())))
                ach = d["tp"][fn][j].sum() / d["n_rows"][j].sum()
                rows.append({"dataset": d["name"], "fn": fn, "q": qq, "achieved": ach,
                             "ours": p.mean(), "autofj": a.mean()})
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["dump", "replay", "diag"])
    ap.add_argument("--work", required=True)
    ap.add_argument("--autofj-venv", default=rp.AUTOFJ_VENV)
    ap.add_argument("--split", choices=["dev", "validation", "all"], default="dev")
    ap.add_argument("--variant", choices=list(VARIANTS), default="min")
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    work = Path(a.work)
    if a.what == "dump":
        dump(work, Path(a.autofj_venv), a.split)
        return
    if a.what == "diag":
        df = diag(work, a.split)
        per = df.groupby("dataset")[["achieved", "ours", "autofj"]].mean()
        for k in ("ours", "autofj"):
            e = per[k] - per["achieved"]
            print(f"{k}: mean (est - achieved) {e.mean():+.3f}, mean |est - achieved| "
                  f"{(df[k] - df['achieved']).abs().groupby(df['dataset']).mean().mean():.3f}")
        from scipy.stats import spearmanr
        print("per dataset, rank correlation of (autofj - ours) with (ours - achieved): "
              f"{spearmanr(per['autofj'] - per['ours'], per['ours'] - per['achieved'])[0]:+.2f}")
        if a.out:
            df.to_csv(a.out, index=False)
        return
    targets = rp.numbers(a.targets)
    df = rp.replay(work, a.split, targets, prepare=prepare_for(work, a.variant))
    if a.out:
        df.to_csv(a.out, index=False)
    print(rp.summary(df, targets))


if __name__ == "__main__":
    main()
