"""How likely a nearest-neighbour match is right, without labels: each match's ratio
d1 / d2 (distance to the nearest over distance to the second nearest candidate) against
decoy ratios d2 / d3, turned into a local false discovery rate (Efron's two-group model;
decoys as in target-decoy estimation, Elias & Gygi 2007; pi0 by Storey 2002; the rate
fitted non-decreasing in the ratio by pool adjacent violators, as qvality does, Kall et al.
2009). A set of joins is accepted at a precision target when its one-sided 95 % lower
bound reaches it (:func:`precision_bound`; the error counts the joins' outcomes, the
decoys behind each estimate and the error of pi0). :func:`rank_corrected_null` corrects
the decoys of right values without a partner for their rank (used for the dense
embedder). Used by the precision-targeted fuzzy join (fuzzy.py) and Auto-Join's
constrained fuzzy step (autojoin/fuzzy.py);
docs/algorithms/fuzzyjoin.md derives it and reports its calibration.
"""
from __future__ import annotations

import numpy as np

TIE = 1e-9                # distances this close are one distance (sparse sums round differently)
NULL_TAIL = 0.95          # ratios d1 / d2 above this are (nearly) all nulls: Storey's lambda
STANDARD_ERRORS = 1.645   # a target is reached when the one-sided 95 % lower bound reaches it


def nearest_ratios(near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From each right value's sorted distances d1 <= d2 <= d3 to its nearest left values:
    the join's ratio s1 = d1 / d2 and the decoy ratio s2 = d2 / d3 (NaN where d3 is
    missing). If the nearest left value is the right value's partner, the next two are the
    nearest two entities it is NOT, so s2 is what s1 looks like for a right value without
    a partner, at the same noise. An exact match (d1 = 0, d2 > 0) has ratio 0; equal
    distances ratio 1 (0 / 0 too: a tie at distance 0)."""
    near = np.asarray(near, dtype=np.float64)
    if near.shape[1] < 3:
        near = np.pad(near, ((0, 0), (0, 3 - near.shape[1])), constant_values=np.inf)
    d1, d2, d3 = near[:, 0], near[:, 1], near[:, 2]

    def ratio(a, b):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(b > a + TIE, a / b, 1.0)          # a tie (or 0 / 0) is ratio 1
        return np.where(np.isinf(b) & np.isfinite(a), 0.0, r)
    s1 = np.where(np.isfinite(d1), ratio(d1, d2), np.nan)
    s2 = np.where(np.isfinite(d2) & np.isfinite(d3), ratio(d2, d3), np.nan)
    return s1, s2


def increasing_fit(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted least-squares non-decreasing fit (pool adjacent violators)."""
    vals, wts, size = [], [], []
    for v, x in zip(y.tolist(), w.tolist()):
        vals.append(v); wts.append(x); size.append(1)                       # noqa: E702
        while len(vals) > 1 and vals[-2] > vals[-1]:
            x = wts[-2] + wts[-1]
            v = (vals[-2] * wts[-2] + vals[-1] * wts[-1]) / x if x > 0 else max(vals[-2:])
            n = size[-2] + size[-1]
            del vals[-2:], wts[-2:], size[-2:]
            vals.append(v); wts.append(x); size.append(n)                   # noqa: E702
    return np.repeat(vals, size)


def null_probability(s1: np.ndarray, s2: np.ndarray, tail: float = NULL_TAIL,
                     pi0: float | None = None) -> tuple[np.ndarray, float]:
    """Probability that each join is wrong, from its ratio (a local false discovery rate:
    Efron's two-group model with the null learned from decoys, as target-decoy
    estimation does it). The right values are a mix of a share pi0 whose nearest left
    value is not their partner (none exists, or noise hid it; their ratios s1 are
    distributed like the decoy ratios s2) and the rest. pi0 is Storey's estimate from the
    ratios above ``tail``, where true joins are rare: (#{s1 > tail} + 1) / (#{s2 > tail}
    * N / M + 1), N joins and M decoys. The share of decoys among the pooled ratios near
    a ratio, q, is fitted non-decreasing in the ratio (pool adjacent violators: a more
    ambiguous join is never more likely right), and within each pooled block the wrong
    joins are counted as pi0 * (N / M) * decoys, i.e. null = pi0 * (N / M) * q / (1 - q),
    capped at 1. ``pi0`` given is used instead of Storey's (a diagnostic: the true share).
    Returns (the null probability per right value, NaN where s1 is; pi0)."""
    s1 = np.asarray(s1, dtype=np.float64)
    s2 = np.asarray(s2, dtype=np.float64)
    ok1, ok2 = np.isfinite(s1), np.isfinite(s2)
    out = np.full(len(s1), np.nan)
    if not ok1.any():
        return out, 1.0
    x1 = s1[ok1]
    x2 = s2[ok2] if ok2.any() else x1                    # no decoys: every join is a null
    n, m = len(x1), len(x2)
    if pi0 is None:
        pi0 = min(1.0, (np.sum(x1 > tail) + 1) / (np.sum(x2 > tail) * n / m + 1))
    x, inv = np.unique(np.concatenate([x1, x2]), return_inverse=True)
    size = np.bincount(inv, minlength=len(x)).astype(np.float64)
    decoys = np.bincount(inv[n:], minlength=len(x)).astype(np.float64)
    q = increasing_fit(decoys / size, size)
    with np.errstate(divide="ignore", invalid="ignore"):
        null = np.where(q < 1.0, pi0 * (n / m) * q / (1.0 - q), 1.0)
    out[ok1] = np.minimum(null, 1.0)[inv[:n]]
    return out, float(pi0)


RANK_ITERATIONS = 3       # rank_corrected_null: rounds of re-weighting the decoys


def rank_corrected_null(s1: np.ndarray, s2: np.ndarray, tail: float = NULL_TAIL,
                        iterations: int = RANK_ITERATIONS) -> tuple[np.ndarray, float, float]:
    """:func:`null_probability` with the decoys corrected for their rank. A right value
    whose nearest left value is its partner has a decoy s2 = d2 / d3 distributed as a null
    ratio; one without (the null group) has a decoy one rank further out, which in a
    locally uniform cloud of left values is distributed as s2^2 would be (the D-th power
    of d1 / d2 is uniform, of d2 / d3 Beta(2, 1), in any dimension D). So each right value
    contributes two decoys, s2 weighted p (its probability of being right) and s2^2
    weighted 1 - p, p from the previous round (the first from :func:`null_probability`);
    pi0's tail count and the isotonic decoy share use the weights. Returns (the null
    probability per right value, NaN where s1 is; pi0; the weighted count of decoys above
    ``tail``, for :func:`pi0_relative_variance`'s second term)."""
    s1 = np.asarray(s1, dtype=np.float64)
    s2 = np.asarray(s2, dtype=np.float64)
    ok1, ok2 = np.isfinite(s1), np.isfinite(s2)
    null, pi0 = null_probability(s1, s2, tail)
    if not ok1.any() or not ok2.any():
        return null, pi0, float(np.sum(s2[ok2] > tail))
    x1, x2 = s1[ok1], s2[ok2]
    xs = np.concatenate([x2, x2 ** 2])
    n, m = len(x1), len(x2)
    x, inv = np.unique(np.concatenate([x1, xs]), return_inverse=True)
    joins = np.bincount(inv[:n], minlength=len(x)).astype(np.float64)
    b = float(np.sum(x2 > tail))
    for _ in range(iterations):
        p = 1.0 - np.nan_to_num(null[ok2], nan=1.0)       # a finite s2 has a finite s1
        w = np.concatenate([p, 1.0 - p])
        b = float(np.sum(w[xs > tail]))
        pi0 = min(1.0, (np.sum(x1 > tail) + 1) / (b * n / m + 1))
        decoys = np.bincount(inv[n:], weights=w, minlength=len(x))
        size = joins + decoys
        keep = size > 0                                    # a decoy value of weight 0 only
        q = np.zeros(len(x))
        q[keep] = increasing_fit(decoys[keep] / size[keep], size[keep])
        with np.errstate(divide="ignore", invalid="ignore"):
            fit = np.where(q < 1.0, pi0 * (n / m) * q / (1.0 - q), 1.0)
        null = np.full(len(s1), np.nan)
        null[ok1] = np.minimum(fit, 1.0)[inv[:n]]
    return null, float(pi0), b


def null_scale(s1: np.ndarray, s2: np.ndarray, pi0: float) -> float:
    """pi0 * N / M: how many wrong joins one decoy stands for in :func:`null_probability`
    (N joins and M decoys with a finite ratio)."""
    n = int(np.isfinite(np.asarray(s1, dtype=np.float64)).sum())
    m = int(np.isfinite(np.asarray(s2, dtype=np.float64)).sum())
    return float(pi0 * n / m) if m else 1.0


def pi0_relative_variance(s1: np.ndarray, s2: np.ndarray, tail: float = NULL_TAIL,
                          decoy_tail: float | None = None) -> float:
    """The relative variance of :func:`null_probability`'s pi0, a ratio of two counts
    above ``tail`` (each with its +1): 1 / (#{s1 > tail} + 1) + 1 / (#{s2 > tail} + 1),
    Poisson counts by the delta method. Every estimated wrong join scales with pi0, so
    this error is shared by all of them: few ratios in the tail (a small table) make the
    whole estimate uncertain. ``decoy_tail``: the decoys' count above ``tail`` when it is
    not #{s2 > tail} (:func:`rank_corrected_null`'s weighted count)."""
    s1 = np.asarray(s1, dtype=np.float64)
    s2 = np.asarray(s2, dtype=np.float64)
    b = float(np.sum(s2[np.isfinite(s2)] > tail)) if decoy_tail is None else decoy_tail
    return float(1.0 / (np.sum(s1[np.isfinite(s1)] > tail) + 1) + 1.0 / (b + 1))


def join_variance(p: np.ndarray, scale: float) -> np.ndarray:
    """Each join's own share of the variance of (true joins - estimated true joins) over
    a set of joins: p (1 - p), the variance of its outcome given its probability p, plus
    scale * (1 - p), the Poisson variance of the decoy count behind its estimated 1 - p
    (that count is (1 - p) / scale decoys, each standing for ``scale`` wrong joins)."""
    p = np.asarray(p, dtype=np.float64)
    return p * (1.0 - p) + scale * (1.0 - p)


def precision_bound(p: np.ndarray, variance: np.ndarray, shared: np.ndarray,
                    errors: float = STANDARD_ERRORS) -> float:
    """The estimated precision of a set of joins (the mean of their probabilities p) minus
    ``errors`` standard errors. The error's variance is the sum of the joins' own
    variances (:func:`join_variance`) plus the square of the sum of their ``shared``
    errors, sqrt(:func:`pi0_relative_variance`) * (1 - p) each (pi0's error moves every
    estimated wrong join together), over n squared: with few joins, or few decoys behind
    them, the bound sits well below the estimate; with many it meets it. 1.0 for no joins."""
    p = np.asarray(p, dtype=np.float64)
    if len(p) == 0:
        return 1.0
    var = float(np.sum(variance)) + float(np.sum(shared)) ** 2
    return float(p.mean() - errors * np.sqrt(var) / len(p))
