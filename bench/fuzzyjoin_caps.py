"""Calibration round 12 (bench/results/fuzzyjoin_calibration.md, twentieth session): how
much a join can be worth where the ratio cannot see that its right value may have no
partner. Replays, on the DEVELOPMENT datasets' saved blocking output
(bench/fuzzyjoin_replay.py dump, with ``--suites autofj,rl,fresh1,fresh2,fresh3``), the
join's choice with one of these estimators, without changing join/:

* ``base``: the join as it is (a check: must equal ``fuzzyjoin_replay.py replay``);
* ``cap3``: the sibling and namesake caps at 1/3 instead of 1/2 (r is l's, the other
  entity's, or neither's: left lacks its partner);
* ``rcap4``: every join at most 1 - s1^4, s1 = d1 / d2 its ratio (the share of right
  values without a partner whose ratio is at most s1, in a locally uniform cloud of
  intrinsic dimension 4, is s1^4);
* ``both``: cap3 and rcap4.

    python bench/fuzzyjoin_caps.py --work W --variant cap3 --out dev_cap3.csv
"""
from __future__ import annotations


import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "cap3", "rcap4", "both")
_STATE = {"variant": "base"}


def candidates_class(variant: str):
    """A class built like fuzzy._Candidates(fn, **raw) with the variant's caps."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    third = variant in ("cap3", "both")
    ratio = variant in ("rcap4", "both")

    class Variant(fuzzy._Candidates):
        def __post_init__(self):
            super().__post_init__()
            if not (third or ratio):
                return
            p = self.p.copy()
            d1 = self.r_near[:, 0]
            if third:
                near = np.zeros(len(p), bool)
                if self.r_sibling is not None and fuzzy.SIBLINGS:
                    near |= self.r_sibling <= d1 + mp.TIE
                if self.r_namesake is not None and fuzzy.NAMESAKES:
                    near |= self.r_namesake <= d1 + mp.TIE
                p = np.where(near, np.minimum(p, 1.0 / 3.0), p)
            if ratio:
                s1, _ = mp.nearest_ratios(self.r_near)
                ok = np.isfinite(s1)
                p = np.where(ok, np.minimum(p, 1.0 - np.where(ok, s1, 0.0) ** 4), p)
            self.p = p
            self.v = mp.join_variance(p, self._scale)
            self.u = self._rel * (1.0 - p)

    return Variant


def prepare(d: dict):
    d["candidates"] = candidates_class(_STATE["variant"])


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=_STATE)


if __name__ == "__main__":
    main()
