"""The decoy ratio's rank, corrected for right values without a partner, replayed on the
DEVELOPMENT split (issue 26's calibration, round 7: bench/results/fuzzyjoin_calibration.md).

The decoy ratio s2 = d2 / d3 has the null's distribution only for a right value whose
nearest left value is its partner (l2 and l3 are then its first two non-partners). For a
right value in the null group (no partner, or its nearest is not its partner), in a
locally uniform Poisson cloud of left values in D dimensions, (d1 / d2)^D is uniform but
(d2 / d3)^D is Beta(2, 1) (CDF x^2), so s2^2 has exactly the null distribution of s1, for
any D. The variants replace each decoy by a mix of s2 and s2^2:

* v0: the join as it is, through this script's weighted estimator (checks that it
  reproduces ``match_precision.null_probability``);
* v9: each right value r contributes two decoys, s2 weighted p_r and s2^2 weighted 1 - p_r,
  p_r = 1 - its null probability (the two-group model's, before the tie and sibling caps);
  pi0's tail count and the isotonic decoy share use the weights; p_r from the previous
  iteration, starting at the join's, ``ITERATIONS`` times;
* v9a: every decoy s2^2 weighted pi0 and s2 weighted 1 - pi0 (one global mix), pi0
  re-estimated from the mixed decoys, ``ITERATIONS`` times;
* v9t / v9s: v9's weights in pi0's tail count only / in the isotonic share only;
* v9z1 / v9z0: v9 with the bound's z 1.0 / 0;
* v9c: v9 iterated to its fixed point (no null probability moves by > 1e-4; at most 20);
* v10: pi0 by the model's moment estimator, (T + 1) (1 - T / N) / (S - T + 1) with
  T = #{s1 > lambda}, S = #{s2 > lambda} N / M (E[T] = N pi0 tau0, E[S] = N tau0 (1 + pi0
  (1 - tau0))), at most 1; the isotonic share as v9's with that pi0 fixed; the bound's pi0
  term its delta-method relative variance.

    python bench/fuzzyjoin_decoy_rank.py --work W --variant v9 [--out dev_v9.csv]

W holds ``bench/fuzzyjoin_replay.py dump``'s cache (W/replay).
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as rp  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy, match_precision as mp

ITERATIONS = 3


def weighted_null(s1, x2, w2, tail=mp.NULL_TAIL, pi0=None, tail_w=None, shape_w=None):
    """``match_precision.null_probability`` with weighted decoys: values ``x2`` of weights
    ``w2`` (M = their total weight). ``tail_w`` / ``shape_w``: other weights for pi0's tail
    count / for the isotonic share (default ``w2``). Returns (null per join, NaN where s1
    is; pi0; the weighted decoy tail count)."""
    s1 = np.asarray(s1, dtype=np.float64)
    ok1 = np.isfinite(s1)
    out = np.full(len(s1), np.nan)
    tail_w = w2 if tail_w is None else tail_w
    shape_w = w2 if shape_w is None else shape_w
    if not ok1.any():
        return out, 1.0, 0.0
    x1 = s1[ok1]
    if len(x2) == 0:                                   # no decoys: every join is a null
        x2, w2, tail_w, shape_w = x1, np.ones(len(x1)), np.ones(len(x1)), np.ones(len(x1))
    n, m = len(x1), float(np.sum(w2))
    b = float(np.sum(tail_w[x2 > tail]))
    if pi0 is None:
        pi0 = min(1.0, (np.sum(x1 > tail) + 1) / (b * n / m + 1))
    x, inv = np.unique(np.concatenate([x1, x2]), return_inverse=True)
    dec = np.bincount(inv[n:], weights=shape_w, minlength=len(x))
    size = np.bincount(inv[:n], minlength=len(x)).astype(np.float64) + dec
    keep = size > 0                                    # a decoy value of weight 0 only
    q = np.zeros(len(x))
    q[keep] = mp.increasing_fit(dec[keep] / size[keep], size[keep])
    with np.errstate(divide="ignore", invalid="ignore"):
        null = np.where(q < 1.0, pi0 * (n / m) * q / (1.0 - q), 1.0)
    out[ok1] = np.minimum(null, 1.0)[inv[:n]]
    return out, float(pi0), b


def moment_pi0(s1, s2, tail=mp.NULL_TAIL) -> tuple[float, float]:
    """v10's pi0 and its relative variance (delta method, Poisson counts)."""
    x1, x2 = s1[np.isfinite(s1)], s2[np.isfinite(s2)]
    n, m = len(x1), len(x2)
    if not n or not m:
        return 1.0, 1.0
    t, raw = float(np.sum(x1 > tail)), float(np.sum(x2 > tail))
    s = raw * n / m
    if s <= t:
        return 1.0, 1.0
    c = s - t + 1.0
    pi0 = min(1.0, (t + 1.0) * (1.0 - t / n) / c)
    return pi0, (t + 1.0) * (1.0 / (t + 1.0) + 1.0 / c) ** 2 + raw * (n / m) ** 2 / c ** 2


def variant_null(s1, s2, variant: str, trace: list | None = None):
    """(null per join, pi0, the decoys' weighted tail count) under ``variant``."""
    ok2 = np.isfinite(s2)
    x2 = s2[ok2]
    null, pi0 = mp.null_probability(s1, s2)
    ones = np.ones(len(x2))
    if variant == "v0":
        null, pi0, b = weighted_null(s1, x2, ones)
        return null, pi0, b
    fixed = None
    if variant == "v10":
        fixed, _ = moment_pi0(s1, s2)
        null, _ = mp.null_probability(s1, s2, pi0=fixed)
    xx = np.concatenate([x2, x2 ** 2])
    b = float(np.sum(x2 > mp.NULL_TAIL))
    for it in range(20 if variant == "v9c" else ITERATIONS):
        if variant == "v9a":
            w = np.concatenate([np.full(len(x2), 1.0 - pi0), np.full(len(x2), pi0)])
        else:
            p = 1.0 - np.nan_to_num(null[ok2], nan=1.0)     # s2 finite => s1 finite
            w = np.concatenate([p, 1.0 - p])
        plain = np.concatenate([ones, np.zeros(len(x2))])
        tail_w = plain if variant == "v9s" else w
        shape_w = plain if variant == "v9t" else w
        new, pi0, b = weighted_null(s1, xx, w, pi0=fixed, tail_w=tail_w, shape_w=shape_w)
        ok = np.isfinite(new)
        change = float(np.max(np.abs(new[ok] - null[ok]))) if ok.any() else 0.0
        null = new
        if variant == "v9c":
            if change <= 1e-4:
                if trace is not None:
                    trace.append(it + 1)
                break
        elif trace is not None:
            trace.append(change)
    else:
        if variant == "v9c" and trace is not None:
            trace.append(20)
    return null, pi0, b


class Candidates(fuzzy._Candidates):
    """``fuzzy._Candidates`` with the variant's null probability (caps and error terms as
    the join's, kept in ``_scale`` / ``_rel`` as its ``rate`` and ``at`` read them; pi0's
    tail count of decoys the weighted one)."""
    variant = "v0"
    trace: list = []

    def __post_init__(self):
        s1, s2 = mp.nearest_ratios(self.r_near)
        null, self.pi0, b = variant_null(s1, s2, self.variant, self.trace)
        p = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
        if self.r_ties is not None:
            p = np.minimum(p, 1.0 / np.maximum(self.r_ties, 1))
        if self.r_sibling is not None and fuzzy.SIBLINGS:
            p = np.where(self.r_sibling <= self.r_near[:, 0] + mp.TIE, np.minimum(p, 0.5), p)
        if self.r_namesake is not None and fuzzy.NAMESAKES:
            p = np.where(self.r_namesake <= self.r_near[:, 0] + mp.TIE, np.minimum(p, 0.5), p)
        self.p = p
        self._scale = mp.null_scale(s1, s2, self.pi0)
        a = np.sum(s1[np.isfinite(s1)] > mp.NULL_TAIL) + 1
        rel = (moment_pi0(s1, s2)[1] if self.variant == "v10" else 1.0 / a + 1.0 / (b + 1.0))
        self._rel = np.sqrt(rel)
        self.v = mp.join_variance(p, self._scale)
        self.u = self._rel * (1.0 - p)


# name -> (the estimator, the bound's z: None keeps the join's)
VARIANTS = {"v0": ("v0", None), "v9": ("v9", None), "v9a": ("v9a", None),
            "v9t": ("v9t", None), "v9s": ("v9s", None),
            "v9z1": ("v9", 1.0), "v9z0": ("v9", 0.0), "v9c": ("v9c", None),
            "v10": ("v10", None)}


def main(argv=None):
    def configure(variant):
        est, z = VARIANTS[variant]
        if z is not None:
            fuzzy.STANDARD_ERRORS = z
        Candidates.variant = est

    def prepare(d):
        d["candidates"] = Candidates
    df, targets = rp.variant_run(__doc__, VARIANTS, argv, configure, prepare)
    est = Candidates.variant
    print(rp.mean_lines(df, targets))
    if Candidates.trace and est == "v9c":
        tr = np.array(Candidates.trace)
        print(f"iterations to the fixed point: median {np.median(tr):g}, max {tr.max():g}, "
              f"{np.sum(tr >= 20)} of {len(tr)} (dataset, function) pairs not converged in 20")
    elif Candidates.trace and est != "v0":
        tr = np.array(Candidates.trace).reshape(-1, ITERATIONS)
        print("largest change of a null probability at iteration 1..%d: %s" % (
            ITERATIONS, " / ".join(f"{v:.2e}" for v in tr.max(axis=0))))


if __name__ == "__main__":
    main()
