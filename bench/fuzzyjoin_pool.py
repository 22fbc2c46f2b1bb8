"""Calibration round 13 (bench/results/fuzzyjoin_calibration.md, twenty-first session):
the join functions' estimates of one right value disagree far more than their outcomes
do (within a dataset and a band of the ratio, a function's probability above the others'
predicts a third of that in outcomes), and the choice picks the functions that erred
upwards. Replays, on the DEVELOPMENT datasets' saved blocking output
(bench/fuzzyjoin_replay.py dump, with ``--suites autofj,rl,fresh1,fresh2,fresh3,fresh4``),
the join's choice with one of these estimators, without changing join/:

* ``base``: the join as it is (a check: must equal ``fuzzyjoin_replay.py replay``);
* ``pool``: one local false discovery rate per dataset: the two-group fit
  (``null_probability``: Storey's pi0 and the isotonic decoy share) made once over the
  ratios and decoys of every join function pooled, each function's joins read off it at
  their own ratio (the functions share one null and one mixture; their error terms stay
  their own);
* ``poolq``: the decoy share q pooled over the functions, pi0 each function's own;
* ``ns2``: the namesake cap at Auto-FuzzyJoin's radius: a join capped at 1/2 when its
  left value has another left value within 2 d1 of it (the paper counts the left values
  within 2t of l), not within d1.

    python bench/fuzzyjoin_pool.py --work W --variant pool --out dev_pool.csv
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "pool", "poolq", "ns2")
_STATE = {"variant": "base"}


def pooled_nulls(ratios: dict, pool_pi0: bool) -> dict:
    """Per function, the null probability of its joins from one two-group fit over all
    functions' ratios: ``ratios`` maps a function to (s1, s2). With ``pool_pi0`` the
    whole fit (pi0 included) is ``null_probability`` of the pooled ratios; else the
    isotonic decoy share q is pooled and each function's own pi0 * N / M scales it
    (null = pi0 (N / M) q / (1 - q), at most 1). Returns fn -> (null, pi0)."""
    from lakejoin_jupyter.join import match_precision as mp
    fns = list(ratios)
    x1 = np.concatenate([ratios[f][0] for f in fns])
    x2 = np.concatenate([ratios[f][1] for f in fns])
    out, start = {}, 0
    if pool_pi0:
        null_all, pi0_all = mp.null_probability(x1, x2)
        for f in fns:
            n = len(ratios[f][0])
            out[f] = (null_all[start:start + n], pi0_all)
            start += n
        return out
    ok1, ok2 = np.isfinite(x1), np.isfinite(x2)
    a, b = x1[ok1], x2[ok2]
    x, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
    size = np.bincount(inv, minlength=len(x)).astype(np.float64)
    decoys = np.bincount(inv[len(a):], minlength=len(x)).astype(np.float64)
    q = mp.increasing_fit(decoys / size, size)
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = np.where(q < 1.0, q / (1.0 - q), np.inf)
    look = dict(zip(x.tolist(), odds.tolist()))
    for f in fns:
        s1, s2 = ratios[f]
        _, pi0 = mp.null_probability(s1, s2)
        n, m = int(np.isfinite(s1).sum()), int(np.isfinite(s2).sum())
        null = np.full(len(s1), np.nan)
        fin = np.isfinite(s1)
        if m:
            o = np.array([look[v] for v in s1[fin].tolist()])
            null[fin] = np.minimum(pi0 * (n / m) * o, 1.0)
        else:
            null[fin] = 1.0                          # no decoys: every join is a null
        out[f] = (null, pi0)
    return out


def candidates_class(variant: str, pooled: dict | None = None):
    """A class built like fuzzy._Candidates(fn, **raw) with the variant's estimate."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp

    class Variant(fuzzy._Candidates):
        def __post_init__(self):
            super().__post_init__()
            if variant == "base":
                return
            s1, s2 = mp.nearest_ratios(self.r_near)
            if variant in ("pool", "poolq"):
                null, self.pi0 = pooled[self.fn]
                p = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
                if self.r_ties is not None:
                    p = np.minimum(p, 1.0 / np.maximum(self.r_ties, 1))
                d1 = self.r_near[:, 0] + mp.TIE
                if self.r_sibling is not None and fuzzy.SIBLINGS:
                    p = np.where(self.r_sibling <= d1, np.minimum(p, 0.5), p)
                if self.r_namesake is not None and fuzzy.NAMESAKES:
                    p = np.where(self.r_namesake <= d1, np.minimum(p, 0.5), p)
                self._scale = mp.null_scale(s1, s2, self.pi0)
            else:                                   # ns2: the namesake radius 2 d1
                p = self.p
                if self.r_namesake is not None and fuzzy.NAMESAKES:
                    p = np.where(self.r_namesake <= 2.0 * self.r_near[:, 0] + mp.TIE,
                                 np.minimum(p, 0.5), p)
            self.p = p
            self.v = mp.join_variance(p, self._scale)
            self.u = self._rel * (1.0 - p)

    return Variant


def prepare(d: dict):
    from lakejoin_jupyter.join import match_precision as mp
    v = _STATE["variant"]
    pooled = None
    if v in ("pool", "poolq"):
        ratios = {f: mp.nearest_ratios(r["r_near"]) for f, r in d["raw"].items()}
        pooled = pooled_nulls(ratios, pool_pi0=v == "pool")
    d["candidates"] = candidates_class(v, pooled)


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=_STATE)


if __name__ == "__main__":
    main()
