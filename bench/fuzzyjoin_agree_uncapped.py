"""Calibration round 28 (bench/results/fuzzyjoin_calibration.md): the functions' agreement
on a low-ratio join, read from their fits with the sibling and namesake caps lifted.

Round 27 rated a join whose ratio s1 = d1 / d2 is at most ``fuzzy.AGREE_RATIO`` by the
median of the agreeing functions' probabilities (AGREE-LOW): the union's highest of 14
noisy ratings is optimistic there on every set, but on the numbered season tables the
functions below the median were the ones carrying a sibling or namesake cap, a reading of
their own distance space, not a second opinion on the pair's fit. The variants replay the
choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is (round 23's family distances, which the join computes);
* ``uncapped``: ``base``, and a join with a finite s1 of at most ``fuzzy.AGREE_RATIO``
  rated min(the median of the *fits* of the functions whose nearest left value for its
  right value is the same left value, the joining function's own cap): a function's fit
  is its probability before the sibling and namesake caps (its tie cap kept), the cap is
  1/2 where the joining function's own sibling or namesake test holds (else 1); those
  that join the right value elsewhere or not at all are left out; above the ratio the
  join's mean, as it is;
* ``uncapped_kind``: ``uncapped`` with the median only over the agreeing functions of the
  joining function's kind (word features, character n-grams, or both: ``KIND``).

    python bench/fuzzyjoin_agree_uncapped.py --work W --variant uncapped --out dev_unc.csv

The family distances are cached in ``W/family/`` (bench/fuzzyjoin_agree_replay.py).
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_agree_replay as agree  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy, match_precision as mp

VARIANTS = ("base", "uncapped", "uncapped_kind")
JOIN_AGREED = agree.JOIN_AGREED
# a function's kind: what its features read (word tokens, character n-grams, or both)
KIND = {f: "word" if emb["n"] == () else ("both" if emb["words"] else "char")
        for f, (emb, _, _) in fuzzy.JOIN_FUNCTIONS.items() if isinstance(emb, dict)}


def fit_and_cap(c) -> tuple[np.ndarray, np.ndarray]:
    """(the function's fit: its probability with its tie cap but without the sibling and
    namesake caps; its cap: 1/2 where either of those tests holds, else 1)."""
    s1, s2 = mp.nearest_ratios(c.r_near)
    if c.fn in fuzzy.RANK_CORRECTED:
        null = mp.rank_corrected_null(s1, s2)[0]
    else:
        null = mp.null_probability(s1, s2)[0]
    fit = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
    if c.r_ties is not None:
        fit = np.minimum(fit, 1.0 / np.maximum(c.r_ties, 1))
    cap = np.ones(len(fit))
    near = c.r_near[:, 0] + mp.TIE
    if c.r_sibling is not None and fuzzy.SIBLINGS:
        cap = np.where(c.r_sibling <= near, 0.5, cap)
    if c.r_namesake is not None and fuzzy.NAMESAKES:
        cap = np.where(c.r_namesake <= near, 0.5, cap)
    return fit, cap


def low_ratio_uncapped(cands: dict, agreed: dict, ratio: float, kind: bool = False) -> dict:
    """Per function, ``agreed`` with each join of finite s1 <= ``ratio`` rated min(the
    median of the agreeing functions' fits, its own cap) (with ``kind``: the agreeing
    functions of its own kind only)."""
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], axis=1)            # n_r x F
    fits = {f: fit_and_cap(cands[f]) for f in fns}
    FIT = np.stack([fits[f][0] for f in fns], axis=1)
    kinds = np.array([KIND.get(f, f) for f in fns])
    out = {}
    for f in fns:
        c = cands[f]
        s1, _ = mp.nearest_ratios(c.r_near)
        low = (c.r_left >= 0) & np.isfinite(s1) & (s1 <= ratio)
        p = agreed[f].copy()
        if low.any():
            h = np.flatnonzero(low)
            same = L[h] == c.r_left[h, None]
            if kind:
                same &= (kinds == KIND.get(f, f))[None, :]
            med = np.nanmedian(np.where(same, FIT[h], np.nan), axis=1)
            p[h] = np.minimum(med, fits[f][1][h])
        out[f] = p
    return out


def agreed_uncapped(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return low_ratio_uncapped(cands, JOIN_AGREED(cands, ratio, also), ratio)


def agreed_uncapped_kind(cands: dict, ratio: float = fuzzy.AGREE_RATIO, also=None) -> dict:
    return low_ratio_uncapped(cands, JOIN_AGREED(cands, ratio, also), ratio, kind=True)


def main(argv=None):
    agree.run(__doc__, VARIANTS, {"uncapped": agreed_uncapped,
                                 "uncapped_kind": agreed_uncapped_kind}, argv)


if __name__ == "__main__":
    main()
