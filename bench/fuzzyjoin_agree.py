"""Calibration round 14 (bench/results/fuzzyjoin_calibration.md, twenty-first session):
above a ratio s1 = d1 / d2 of 0.7 the join functions' ratings of one pair (r, l) spread
far more than its outcome does, and the choice of configurations and the union keep the
highest; the mean rating of the functions that join r to the same l was within 0.035 of
the outcome on autofj + rl development. Replays, on the DEVELOPMENT datasets' saved
blocking output (bench/fuzzyjoin_replay.py dump), the join's choice with a join's
probability replaced, where its own function's s1 exceeds ``AGREE_RATIO``, by one of:

* ``base``: the join before this round (each function's own probability; the join
  since then rates as ``agree``: fuzzy.AGREE_RATIO);
* ``agree``: the mean probability over the functions whose nearest left value for r is
  l (the joining function included; functions that join r elsewhere or not at all left
  out);
* ``agree_min``: the lower of its own probability and that mean;
* ``agree_all``: the sum of the probabilities of the functions that join r to l over
  the number of functions that join r to any left value (one that joins r to another
  left value counts 0 for this pair);
* ``agree08`` (round 15): ``agree`` only where the function's own s1 exceeds 0.8;
* ``agree_median`` (round 15): the median, not the mean, of the probabilities of the
  functions whose nearest left value for r is l.

Each function's probability is the one ``_Candidates`` gives (ties, sibling and namesake
caps included, before the hub cap); all are computed from the functions' own
probabilities (not from one another's replaced ones). The error terms follow the new
probability as in ``_Candidates.__post_init__``; curves, bound and union read it.

    python bench/fuzzyjoin_agree.py --work W --variant agree --out dev_agree.csv
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "agree", "agree_min", "agree_all", "agree08", "agree_median")
AGREE_RATIO = 0.7
_STATE = {"variant": "base"}


def agreed(cands: dict, variant: str) -> dict:
    """Per function, its probabilities with the variant applied (see the docstring)."""
    from lakejoin_jupyter.join import match_precision as mp
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], axis=1)            # n_r x F
    P = np.stack([cands[f].p for f in fns], axis=1)
    joins_any = (L >= 0).sum(axis=1)
    out = {}
    for j, f in enumerate(fns):
        c = cands[f]
        s1, _ = mp.nearest_ratios(c.r_near)
        ratio = 0.8 if variant == "agree08" else AGREE_RATIO
        hi = (c.r_left >= 0) & np.isfinite(s1) & (s1 > ratio)
        same = (L == c.r_left[:, None]) & (c.r_left[:, None] >= 0)
        total = (P * same).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = total / same.sum(axis=1)
            share = total / joins_any
        p = c.p.copy()
        if variant in ("agree", "agree08"):
            p[hi] = mean[hi]
        elif variant == "agree_median":
            for i in np.flatnonzero(hi):
                p[i] = np.median(P[i, same[i]])
        elif variant == "agree_min":
            p[hi] = np.minimum(c.p[hi], mean[hi])
        elif variant == "agree_all":
            p[hi] = share[hi]
        out[f] = p
    return out


def build(d: dict, oracle: str = ""):
    """``fuzzyjoin_replay.build`` with the variant applied across the functions."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    cands = {f: fuzzy._Candidates(f, **r) for f, r in d["raw"].items()}
    v = _STATE["variant"]
    if v != "base":
        new = agreed(cands, v)
        for f, c in cands.items():
            c.p = new[f]
            c.v = mp.join_variance(c.p, c._scale)
            c.u = c._rel * (1.0 - c.p)
    return replay.with_curves(d, cands)


def main(argv=None):
    replay.build = build
    replay.variant_run(__doc__, VARIANTS, argv, state=_STATE)


if __name__ == "__main__":
    main()
