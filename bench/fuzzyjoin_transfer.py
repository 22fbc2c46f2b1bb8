"""Diagnostic (not used by the join): would a calibrator fitted on the DEVELOPMENT
datasets' labelled joins improve the fuzzy join's choice? Each join's probability (the
ratio/decoy estimate of join/match_precision.py) is replaced by a transfer calibrator:
a logistic regression on a few features of the join, followed by an isotonic (pool
adjacent violators) map of its linear score, fitted leave-one-dataset-out on the
development split's saved blocking output (bench/fuzzyjoin_replay.py dump), and the
choice is replayed on the held-out dataset with ``fuzzy._choose``. Error terms of the
lower bound: the outcome variance p (1 - p) only.

    python bench/fuzzyjoin_transfer.py --work /tmp/fj-bench --features base,agree --z 1.645
    python bench/fuzzyjoin_transfer.py --work /tmp/fj-bench --features all --proxy

``--proxy``: without the choice, the per-join calibration error at fixed thresholds (the
30/50/70/90 % quantiles of each function's join distances), calibrator against the
estimate itself. Results: bench/results/fuzzyjoin_calibration.md.
"""
from __future__ import annotations

import argparse
import copy
from pathlib import Path

import numpy as np

import fuzzyjoin_replay as R  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy, match_precision as mp

FEATURES = ["base", "ratio", "quant", "agree", "taken", "exact", "pi0", "logn", "reld", "sib"]


def features(cands: dict) -> dict:
    """Per join function: (mask of right values with a join, feature matrix). base: logit
    of the estimate; ratio: d1 / d2; quant: the join distance's quantile among the
    function's joins; agree: share of the join functions whose nearest left value is the
    same; taken: a closer right value joins the same left value; exact: d1 = 0; pi0: the
    function's pi0; logn: log of the right values; reld: d1 over the median d2; sib: the
    distance between the two nearest left values over d1 (at most 5)."""
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], 1)
    out = {}
    for f in fns:
        c = cands[f]
        n_r = len(c.r_dist)
        ok = np.isfinite(c.r_dist)
        s1, _ = mp.nearest_ratios(c.r_near)
        d1 = c.r_near[:, 0]
        q = np.zeros(n_r)
        if ok.any():
            q[ok] = np.searchsorted(np.sort(c.r_dist[ok]), c.r_dist[ok], side="right") / ok.sum()
        order = np.lexsort((c.r_dist, c.r_left))
        taken = np.zeros(n_r, bool)
        rl = c.r_left[order]
        taken[order[1:]] = (rl[1:] == rl[:-1]) & (rl[1:] >= 0)
        d2 = c.r_near[ok, 1]
        med2 = float(np.median(d2[np.isfinite(d2)])) if np.isfinite(d2).any() else 1.0
        pc = np.clip(c.p, 1e-3, 1 - 1e-3)
        X = np.column_stack([
            np.log(pc / (1 - pc)), np.nan_to_num(s1, nan=1.0), q,
            (L == c.r_left[:, None]).mean(1), taken.astype(float), (d1 <= 1e-9).astype(float),
            np.full(n_r, c.pi0), np.full(n_r, np.log(n_r)),
            np.nan_to_num(d1 / max(med2, 1e-9), nan=5.0, posinf=5.0),
            np.nan_to_num(np.minimum(c.r_sibling / np.maximum(d1, 1e-9), 5.0), nan=5.0,
                          posinf=5.0)])
        out[f] = (ok, X)
    return out


def fit_logistic(X, y, w, l2=1e-3, iters=50):
    """Weighted logistic regression (Newton's method; y may be fractional)."""
    Xb = np.column_stack([np.ones(len(X)), X])
    b = np.zeros(Xb.shape[1])
    reg = l2 * np.r_[0.0, np.ones(len(b) - 1)]
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(Xb @ b)))
        g = Xb.T @ (w * (p - y)) + reg * b
        H = (Xb * (w * p * (1 - p))[:, None]).T @ Xb + np.diag(reg)
        step = np.linalg.solve(H, g)
        b -= step
        if np.abs(step).max() < 1e-8:
            break
    return b


def fit_isotonic(b, X, y, w):
    """Knots (score, probability) of the non-decreasing fit of y on the linear score."""
    z = b[0] + X @ b[1:]
    o = np.argsort(z, kind="stable")
    fit = mp.increasing_fit(y[o], w[o])
    brk = np.r_[0, np.nonzero(np.diff(fit))[0] + 1, len(fit)]
    kz = np.array([np.average(z[o][a:e], weights=w[o][a:e]) for a, e in zip(brk[:-1], brk[1:])])
    return kz, fit[brk[:-1]]


class Calibrator:
    def __init__(self, data, idx, cols, isotonic=True):
        Xs, ys, ws = [], [], []
        for i in idx:                                   # every dataset weighs the same
            feats, y = data[i]
            tot = sum(ok.sum() for ok, _ in feats.values())
            for f, (ok, X) in feats.items():
                Xs.append(X[ok][:, cols]); ys.append(y[f][ok])
                ws.append(np.full(ok.sum(), 1.0 / tot))
        X, y, w = np.vstack(Xs), np.concatenate(ys), np.concatenate(ws)
        self.cols = cols
        self.b = fit_logistic(X, y, w)
        self.iso = fit_isotonic(self.b, X, y, w) if isotonic else None

    def __call__(self, X):
        z = self.b[0] + X[:, self.cols] @ self.b[1:]
        return np.interp(z, *self.iso) if self.iso is not None else 1 / (1 + np.exp(-z))


def calibrated(d, built, feats, cal):
    """The candidates with each join's probability from ``cal`` (ties capped as before)."""
    cands = {}
    for f, c in built[0].items():
        ok, X = feats[f]
        c2 = copy.copy(c)
        p = np.where(ok, cal(X), 0.0)
        if c.r_ties is not None:
            p = np.minimum(p, 1.0 / np.maximum(c.r_ties, 1))
        c2.p, c2.v, c2.u = p, p * (1 - p), np.zeros_like(p)
        cands[f] = c2
    return R.with_curves(d, cands)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True)
    ap.add_argument("--features", default="base", help=f"comma-separated of {FEATURES} or all")
    ap.add_argument("--z", type=float, default=fuzzy.STANDARD_ERRORS)
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    ap.add_argument("--logistic-only", action="store_true", help="no isotonic map")
    ap.add_argument("--proxy", action="store_true")
    a = ap.parse_args(argv)
    names = FEATURES if a.features == "all" else a.features.split(",")
    cols = [FEATURES.index(n) for n in names]
    ds = list(R.saved(Path(a.work), "dev"))             # never the validation split
    built = [R.build(d) for d in ds]
    data = [(features(b[0]), {f: d["tp"][f] / np.maximum(d["n_rows"], 1) for f in d["raw"]})
            for d, b in zip(ds, built)]
    targets = R.numbers(a.targets)
    fuzzy.STANDARD_ERRORS = a.z
    gaps, f1, errs, errs0 = {t: [] for t in targets}, {t: [] for t in targets}, [], []
    for i, d in enumerate(ds):
        cal = Calibrator(data, [k for k in range(len(ds)) if k != i], cols,
                         not a.logistic_only)
        feats, y = data[i]
        if a.proxy:
            for f, (ok, X) in feats.items():
                if ok.sum() < 5:
                    continue
                p, p0 = cal(X), built[i][0][f].p
                dist = built[i][0][f].r_dist
                for q in (0.3, 0.5, 0.7, 0.9):
                    j = ok & (dist <= np.quantile(dist[ok], q))
                    errs.append(p[j].mean() - y[f][j].mean())
                    errs0.append(p0[j].mean() - y[f][j].mean())
            continue
        cb = calibrated(d, built[i], feats, cal)
        for t in targets:
            union, fn_of, _ = R.choose(d, t, cb)
            s = R.score(d, union, fn_of)
            gaps[t].append(s["P"] - t); f1[t].append(s["F1"])
        print(d["name"], " ".join(f"{gaps[t][-1]:+.3f}" for t in targets), flush=True)
    print(f"features {names}, z {a.z}, isotonic {not a.logistic_only}")
    if a.proxy:
        e, e0 = np.array(errs), np.array(errs0)
        print(f"per-join calibration error at fixed thresholds, mean |.| / mean: calibrator "
              f"{np.abs(e).mean():.4f} / {e.mean():+.4f}; estimate {np.abs(e0).mean():.4f} / "
              f"{e0.mean():+.4f}")
        return
    for t in targets:
        g = np.array(gaps[t])
        print(f"target {t:g}: gap mean {g.mean():+.3f} abs {np.abs(g).mean():.3f} "
              f"F1 {np.mean(f1[t]):.3f}")


if __name__ == "__main__":
    main()
