"""Calibration round 11 (bench/results/fuzzyjoin_calibration.md, nineteenth session):
many right values joined to one left value (hubs), and reference decoys weighted by how
namesake-dense the left table is. Replays, on the DEVELOPMENT datasets' saved blocking
output (bench/fuzzyjoin_replay.py dump, with ``--suites autofj,rl,fresh1,fresh2``), the
join's choice with one of these estimators, without changing join/:

* ``base``: the join before this round (its ``_Candidates`` without the hub cap this
  round kept: ``hub2`` is the join since);
* ``hub2`` / ``hub15``: per join function and threshold, the probabilities of the right
  values joined to one left value are scaled down so that they sum to at most 2 / 1.5
  (the expected number of true partners of a left value is at most M);
* ``wmix``: round 10's reference decoys (``rmix``), their weight times the share rho of
  the function's joins whose left value has a namesake within the join's distance;
* ``hub2wmix``: both.

    python bench/fuzzyjoin_hubs.py --work W --variant hub2 --out dev_hub2.csv

The left-left distances (``wmix``) are computed once per dataset, cached in
``W/namesakes/`` (bench/fuzzyjoin_namesakes.py's cache).
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_namesakes import cached_left_distances, mixed_null
from lakejoin_jupyter.join.fuzzy import hub_scale  # the kept cap itself

VARIANTS = ("base", "hub2", "hub15", "wmix", "hub2wmix")
_STATE = {"variant": "base", "work": None, "folders": None}


def candidates_class(left_info: dict | None, variant: str):
    """A class built like fuzzy._Candidates(fn, **raw) with the variant's estimator."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    most = {"hub2": 2.0, "hub15": 1.5, "hub2wmix": 2.0}.get(variant)
    mix = variant in ("wmix", "hub2wmix")

    class Variant(fuzzy._Candidates):
        def __post_init__(self):
            s1, s2 = mp.nearest_ratios(self.r_near)
            tail = None
            if mix and self.fn not in fuzzy.RANK_CORRECTED:
                ok = np.isfinite(self.r_dist)
                rho = float(np.mean(self.r_namesake[ok] <= self.r_dist[ok] + mp.TIE)) \
                    if ok.any() else 0.0
                # wmix: round 10's rmix, the reference ratios' weight times rho
                null, self.pi0, tail = mixed_null(s1, s2, left_info[self.fn]["ref"], rho=rho)
                p = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
                if self.r_ties is not None:
                    p = np.minimum(p, 1.0 / np.maximum(self.r_ties, 1))
                if self.r_sibling is not None and fuzzy.SIBLINGS:
                    p = np.where(self.r_sibling <= self.r_near[:, 0] + mp.TIE,
                                 np.minimum(p, 0.5), p)
                if self.r_namesake is not None and fuzzy.NAMESAKES:
                    p = np.where(self.r_namesake <= self.r_near[:, 0] + mp.TIE,
                                 np.minimum(p, 0.5), p)
                self.p = p
                self.v = mp.join_variance(p, mp.null_scale(s1, s2, self.pi0))
                self.u = np.sqrt(mp.pi0_relative_variance(s1, s2, decoy_tail=tail)) * (1.0 - p)
            else:
                super().__post_init__()
            self._scale = mp.null_scale(s1, s2, self.pi0)
            self._rel = np.sqrt(mp.pi0_relative_variance(s1, s2, decoy_tail=tail))

        def at(self, t: float):
            joined = self.r_dist <= t
            if most is None:
                return joined, self.p[joined], self.v[joined], self.u[joined]
            p = self.p[joined] * hub_scale(self.r_left[joined], self.p[joined], most)
            return joined, p, mp.join_variance(p, self._scale), self._rel * (1.0 - p)

    return Variant


def prepare(d: dict):
    info = (cached_left_distances(d, _STATE) if _STATE["variant"] in ("wmix", "hub2wmix")
            else None)
    d["candidates"] = candidates_class(info, _STATE["variant"])


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=_STATE,
                       suites=["autofj", "rl", "fresh1", "fresh2"])


if __name__ == "__main__":
    main()
