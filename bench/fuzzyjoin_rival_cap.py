"""A right value's candidate pairs across all join functions as exclusive events,
replayed on the DEVELOPMENT split (round 6 of issue 26's calibration;
bench/results/fuzzyjoin_calibration.md, thirteenth session; none of the variants was kept).

Under the reference-table assumption a right value r has at most one partner, so the
probabilities of its distinct candidate pairs (r's nearest left value under each join
function) sum to at most 1. The join uses that only inside a union, among the chosen
configurations (``fuzzy.exclusive_probability``). Here it is applied before any choice:
each function's join r -> l is lowered by the mass of r's rival pairs r -> l' (l' != l,
the nearest left value of r under some other function, vetoed pairs excluded):

* V1: rating <= 1 - sum over rival l' of the highest probability any function gives r -> l';
* V2: the same with each rival's mass the mean over all F functions (0 from a function
  whose nearest is not l');
* V3 / V4: V1 with rivals only from the cosine and Jaccard functions (no containment) /
  only from the IDF-weighted ones among those;
* V5a / V5b: V4 with the bound's z 1.0 / 0; V6a / V6b: V3 with z 1.0 / 0;
* V7 / V7a: V4's rivals, the rating scaled p / max(1, p + rivals) instead of capped,
  z 1.645 / 1.0 (rivals cut at 1, as in the replay reported);
* V8: V4's cap on the containment functions' joins at distance 0 only.

    python bench/fuzzyjoin_rival_cap.py --work W --variant v4 [--out dev_v4.csv]

W holds ``bench/fuzzyjoin_replay.py dump``'s cache (W/replay).
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as rp  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy, match_precision as mp


def rival_mass(L: np.ndarray, P: np.ndarray, trusted: np.ndarray, mean: bool = False):
    """n x F: for each right value i and function j, the mass of i's rival pairs: the sum
    over i's distinct left values l' != L[i, j] (nearest left values of the ``trusted``
    functions) of the highest trusted probability of (i, l') (``mean``: the sum of the
    trusted probabilities of (i, l') over the number of functions). ``L`` is -1 and ``P``
    0 where a function has no (or a vetoed) join."""
    n, F = L.shape
    valid = trusted[None, :] & (L >= 0)
    Pt = np.where(valid, P, 0.0)
    same = L[:, :, None] == L[:, None, :]                          # n x F x F
    M = (np.where(same, Pt[:, None, :], 0.0).sum(axis=2) / F if mean else
         np.where(same, Pt[:, None, :], 0.0).max(axis=2))
    earlier = np.tril(np.ones((F, F), bool), -1)                   # k' < k
    first = valid & ~(same & valid[:, None, :] & earlier[None]).any(axis=2)
    total = np.where(first, M, 0.0).sum(axis=1)
    return total[:, None] - np.where(L >= 0, M, 0.0)


def _refresh(c, p):
    """Set a candidate's probabilities and their error terms (as ``_Candidates`` does)."""
    s1, s2 = mp.nearest_ratios(c.r_near)
    c.p = p
    c.v = mp.join_variance(p, mp.null_scale(s1, s2, c.pi0))
    c.u = np.sqrt(mp.pi0_relative_variance(s1, s2)) * (1.0 - p)


def apply(cands: dict, trusted=None, mean: bool = False, scale: bool = False,
          contain_zero: bool = False):
    """Lower every function's probabilities by its rival pairs' mass, in place
    (``contain_zero``: only the containment functions' joins at distance 0)."""
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], 1)
    ok = np.stack([np.isfinite(cands[f].r_dist) & (cands[f].r_left >= 0) for f in fns], 1)
    P = np.stack([cands[f].p for f in fns], 1) * ok
    t = np.array([trusted is None or trusted(f) for f in fns])
    riv = rival_mass(np.where(ok, L, -1), P, t, mean)
    for j, f in enumerate(fns):
        p = cands[f].p
        if scale:
            new = p / np.maximum(1.0, p + np.minimum(riv[:, j], 1.0))
        else:
            new = np.minimum(p, np.clip(1.0 - riv[:, j], 0.0, 1.0))
        if contain_zero:
            zero = (J[f][2] == "contain") & (cands[f].r_near[:, 0] <= mp.TIE)
            new = np.where(zero, new, p)
        _refresh(cands[f], new)


J = fuzzy.JOIN_FUNCTIONS
NO_CONTAIN = lambda f: J[f][2] != "contain"                            # noqa: E731
IDF_NO_CONTAIN = lambda f: J[f][2] != "contain" and J[f][1] == "idf"  # noqa: E731
# name -> (apply's keyword arguments, the bound's z)
VARIANTS = {
    "v1": (dict(), None), "v2": (dict(mean=True), None),
    "v3": (dict(trusted=NO_CONTAIN), None), "v4": (dict(trusted=IDF_NO_CONTAIN), None),
    "v5a": (dict(trusted=IDF_NO_CONTAIN), 1.0), "v5b": (dict(trusted=IDF_NO_CONTAIN), 0.0),
    "v6a": (dict(trusted=NO_CONTAIN), 1.0), "v6b": (dict(trusted=NO_CONTAIN), 0.0),
    "v7": (dict(trusted=IDF_NO_CONTAIN, scale=True), None),
    "v7a": (dict(trusted=IDF_NO_CONTAIN, scale=True), 1.0),
    "v8": (dict(trusted=IDF_NO_CONTAIN, contain_zero=True), None),
}


def main(argv=None):
    def configure(variant):
        kw, z = VARIANTS[variant]
        if z is not None:
            fuzzy.STANDARD_ERRORS = z
        plain = rp.build

        def build(d, oracle=""):
            cands, _ = plain(d, oracle)
            apply(cands, **kw)
            return rp.with_curves(d, cands)
        rp.build = build
    rp.variant_run(__doc__, VARIANTS, argv, configure)

if __name__ == "__main__":
    main()
