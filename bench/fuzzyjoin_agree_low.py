"""Calibration round 27 (bench/results/fuzzyjoin_calibration.md): the functions' agreement
on a low-ratio join.

The join rates a join whose ratio s1 = d1 / d2 exceeds ``fuzzy.AGREE_RATIO`` by the mean of
the functions that join its right value to the same left value; below it each function
keeps its own rating, and the union keeps, per right value, the highest of the functions'
ratings. In the union chosen at a target the low-ratio joins are then rated above their
outcome on every part of development and on fresh9-11 (the highest of 14 noisy ratings).
The variants replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is (round 23's family distances, which the join computes);
* ``agree_low``: ``base``, and a join with a finite s1 of at most ``fuzzy.AGREE_RATIO``
  rated by the median of the probabilities of the functions whose nearest left value for
  its right value is the same left value (the joining function included; those that join
  it elsewhere or not at all left out), every one the function's own
  (``low_ratio_median``); above the ratio the join's mean, as it is;
* ``agree_clear``: ``agree_low`` with the median over those of the agreeing functions whose
  own ratio for the right value is also at most the ratio (those that see the pair as
  clearly; ``clear=True``).

    python bench/fuzzyjoin_agree_low.py --work W --variant agree_low --out dev_low.csv

The family distances are cached in ``W/family/`` (bench/fuzzyjoin_agree_replay.py).
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_agree_replay as agree  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy, match_precision as mp

VARIANTS = ("base", "agree_low", "agree_clear")
JOIN_AGREED = agree.JOIN_AGREED


def low_ratio_median(cands: dict, agreed: dict, ratio: float, clear: bool = False) -> dict:
    """Per function, ``agreed`` (its probabilities with the join's agreement) with each
    join of finite s1 <= ``ratio`` rated the median of the functions' own probabilities
    (``_Candidates.p``) over those whose nearest left value for the right value is the
    same left value (with ``clear``: and whose own s1 for it is at most ``ratio``)."""
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], axis=1)            # n_r x F
    P = np.stack([cands[f].p for f in fns], axis=1)
    S = np.stack([mp.nearest_ratios(cands[f].r_near)[0] for f in fns], axis=1)
    out = {}
    for f in fns:
        c = cands[f]
        s1, _ = mp.nearest_ratios(c.r_near)
        low = (c.r_left >= 0) & np.isfinite(s1) & (s1 <= ratio)
        p = agreed[f].copy()
        if low.any():
            h = np.flatnonzero(low)
            same = L[h] == c.r_left[h, None]
            if clear:
                same &= S[h] <= ratio          # NaN (no ratio) is not clear
            p[h] = np.nanmedian(np.where(same, P[h], np.nan), axis=1)
        out[f] = p
    return out


def agreed_low(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return low_ratio_median(cands, JOIN_AGREED(cands, ratio, also), ratio)


def agreed_clear(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return low_ratio_median(cands, JOIN_AGREED(cands, ratio, also), ratio, clear=True)


def main(argv=None):
    agree.run(__doc__, VARIANTS, {"agree_low": agreed_low, "agree_clear": agreed_clear}, argv)


if __name__ == "__main__":
    main()
