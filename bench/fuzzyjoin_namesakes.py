"""Calibration round 10 (bench/results/fuzzyjoin_calibration.md, eighteenth session):
right values with no partner whose nearest left value is a namesake. Replays, on the
DEVELOPMENT datasets' saved blocking output (bench/fuzzyjoin_replay.py dump, with the
fresh1 cases: ``--suites fresh1``), the join's choice with one of these estimators,
without changing join/:

* ``base``: the join's estimator written out here (a check: must equal the replay);
* ``lcap``: a join r -> l at distance d1 is capped at 1/2 when l's nearest other left
  value lies within d1 of l (the reference table holds a namesake of l as close as r);
* ``rmix``: the decoys d2 / d3 weighted 1 - pi0 pooled with reference ratios (left values
  queried against the other left values) of total weight pi0 M, pi0 re-estimated 3 times;
* ``both``: lcap and rmix.

    python bench/fuzzyjoin_namesakes.py --work W --variant lcap --out dev_lcap.csv

The left-left distances are computed once per dataset and cached in ``W/namesakes/``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load

VARIANTS = ("base", "lcap", "rmix", "both")
MIX_ITERATIONS = 3
_STATE = {"variant": "base", "work": None, "folders": None}


def reference_sample(n_left: int, n_right: int) -> np.ndarray:
    """K = min(|left|, |right|) left values, evenly spaced over the left table's distinct
    values (the eighth session's ``--sample right``)."""
    k = min(n_left, n_right)
    return np.unique(np.linspace(0, n_left - 1, k).round().astype(np.int64))


def left_distances(d: dict, folder: Path) -> dict:
    """Per join function: ``e1`` (each left value's distance to its nearest other left
    value; NaN where not computed: only joined left values and the sample are) and
    ``ref`` (the reference ratios e1 / e2 of the sample)."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    sample = reference_sample(len(lkeys), len(rkeys))
    out, counts = {}, {}
    for fn, raw in d["raw"].items():
        L, _ = fuzzy._features([list(lkeys), list(rkeys)], fn, counts)
        joined = np.unique(raw["r_left"][raw["r_left"] >= 0])
        q = np.union1d(sample, joined)
        near, _, _ = fuzzy._nearest(L[q], L, fuzzy.NEAREST, self_index=q)
        e1 = np.full(len(lkeys), np.nan)
        e1[q] = near[:, 0]
        ratios = mp.nearest_ratios(near)[0]
        out[fn] = {"e1": e1, "ref": ratios[np.isin(q, sample)]}
    return out


def mixed_null(s1, s2, ref, tail=None, iterations: int = MIX_ITERATIONS, rho: float = 1.0):
    """``rmix``: null_probability with the decoys s2 (weight 1 - rho pi0 each) pooled with
    the reference ratios (weight rho pi0 M / K each), pi0 re-estimated ``iterations`` times
    from the pool's weighted tail (``rho``: the reference ratios' share of the null, 1 here;
    bench/fuzzyjoin_hubs.py's ``wmix`` weighs it). Returns (null probability, pi0, weighted
    decoys above tail)."""
    from lakejoin_jupyter.join import match_precision as mp
    tail = mp.NULL_TAIL if tail is None else tail
    s1 = np.asarray(s1, dtype=np.float64)
    s2 = np.asarray(s2, dtype=np.float64)
    ok1, ok2 = np.isfinite(s1), np.isfinite(s2)
    null, pi0 = mp.null_probability(s1, s2, tail)
    xr = np.asarray(ref, dtype=np.float64)
    xr = xr[np.isfinite(xr)]
    b = float(np.sum(s2[ok2] > tail))
    if not ok1.any() or not ok2.any() or not len(xr) or rho <= 0:
        return null, pi0, b
    x1, x2 = s1[ok1], s2[ok2]
    n, m, k = len(x1), len(x2), len(xr)
    xs = np.concatenate([x2, xr])
    x, inv = np.unique(np.concatenate([x1, xs]), return_inverse=True)
    joins = np.bincount(inv[:n], minlength=len(x)).astype(np.float64)
    for _ in range(iterations):
        w = np.concatenate([np.full(m, 1.0 - rho * pi0), np.full(k, rho * pi0 * m / k)])
        b = float(np.sum(w[xs > tail]))
        pi0 = min(1.0, (np.sum(x1 > tail) + 1) / (b * n / m + 1))
        decoys = np.bincount(inv[n:], weights=w, minlength=len(x))
        size = joins + decoys
        keep = size > 0
        q = np.zeros(len(x))
        q[keep] = mp.increasing_fit(decoys[keep] / size[keep], size[keep])
        with np.errstate(divide="ignore", invalid="ignore"):
            fit = np.where(q < 1.0, pi0 * (n / m) * q / (1.0 - q), 1.0)
        null = np.full(len(s1), np.nan)
        null[ok1] = np.minimum(fit, 1.0)[inv[:n]]
    return null, float(pi0), b


def candidates_class(left_info: dict, variant: str):
    """A class built like fuzzy._Candidates(fn, **raw) with the variant's estimator."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp

    class Variant(fuzzy._Candidates):
        def __post_init__(self):
            s1, s2 = mp.nearest_ratios(self.r_near)
            tail = None
            if variant in ("rmix", "both"):
                null, self.pi0, tail = mixed_null(s1, s2, left_info[self.fn]["ref"])
            else:
                null, self.pi0 = mp.null_probability(s1, s2)
            p = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
            if self.r_ties is not None:
                p = np.minimum(p, 1.0 / np.maximum(self.r_ties, 1))
            if self.r_sibling is not None and fuzzy.SIBLINGS:
                p = np.where(self.r_sibling <= self.r_near[:, 0] + mp.TIE, np.minimum(p, 0.5), p)
            if variant in ("lcap", "both"):
                has = self.r_left >= 0
                e = np.full(len(p), np.inf)
                e[has] = left_info[self.fn]["e1"][self.r_left[has]]
                p = np.where(has & (e <= self.r_near[:, 0] + mp.TIE), np.minimum(p, 0.5), p)
            self.p = p
            self.v = mp.join_variance(p, mp.null_scale(s1, s2, self.pi0))
            self.u = np.sqrt(mp.pi0_relative_variance(s1, s2, decoy_tail=tail)) * (1.0 - p)

    return Variant


def cached_left_distances(d: dict, state: dict):
    """``left_distances`` of dataset ``d``, cached in WORK/namesakes (``state``: the
    script's work folder and dataset folders)."""
    return replay.cached_measure(d, state, "namesakes", left_distances)


def prepare(d: dict):
    d["candidates"] = candidates_class(cached_left_distances(d, _STATE), _STATE["variant"])


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=_STATE,
                       suites=["autofj", "rl", "fresh1"])


if __name__ == "__main__":
    main()
