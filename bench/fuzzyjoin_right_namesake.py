"""Calibration round 26 (bench/results/fuzzyjoin_calibration.md): a join capped at 1/2 where
the right table itself holds a different name nearer to its left value.

The namesake cap (``fuzzy.NAMESAKES``) reads the left table: a join r -> l is rated at most
1/2 when left holds another value as near to l as r is. In a list dense in families (sister
species, a token's old and new contracts) the right table shows the family too: right
holds `African Black Swift`, which joins left's `African Black Swift` at distance 0, and
`Black Swift`, whose partner left lacks, joins it as well, further out. The variants
replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is (round 23's family distances, which the join computes);
* ``rightname``: ``base``, and per join function a join r -> l rated at most 1/2 when the
  right value nearest to l among those that join l (``right_namesakes``) is strictly nearer
  than r and differs from r by a whole word; applied where the namesake cap is, before the
  functions' agreement.

``word_distinct``: some word of one value (the negative rules' tokens, lower case, words of
digits only dropped) is more than one letter from every word of the other (no deletion of at
most one letter from each side makes them equal): a typo, a case or a hyphen is no new word.

    python bench/fuzzyjoin_right_namesake.py --work W --variant rightname --out dev_rn.csv

The family distances are cached in ``W/family/``, the right values' words in ``W/rwords/``.
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
import fuzzyjoin_admissible as admissible
from fuzzyjoin_autofj import load
from lakejoin_jupyter.join import fuzzy

VARIANTS = ("base", "rightname")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7", "fresh9",
          "fresh10"]
STATE = {"variant": "base", "work": None, "folders": None}
TIE = fuzzy.TIE


def _words(value) -> list:
    return [w for w in fuzzy._TOKEN.findall(str(value).lower()) if not w.isdigit()]


def _near_forms(word: str) -> set:
    """The word and every form of it with one letter deleted."""
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def word_distinct(a_words, b_words) -> bool:
    """Does some word of one list lie more than one letter from every word of the other
    (no deletion of at most one letter from each side makes them equal)?"""
    fa = [_near_forms(w) for w in a_words]
    fb = [_near_forms(w) for w in b_words]
    return (any(not any(x & y for y in fb) for x in fa)
            or any(not any(y & x for x in fa) for y in fb))


def right_namesakes(r_left: np.ndarray, r_dist: np.ndarray, rwords: list) -> np.ndarray:
    """Mask over right values: the join r -> l = ``r_left[r]`` (allowed: finite distance)
    has, among the right values joining l, a nearest one strictly nearer than r (by more
    than ``TIE``) that differs from r by a whole word (``word_distinct`` of their
    ``rwords``)."""
    ok = (r_left >= 0) & np.isfinite(r_dist)
    out = np.zeros(len(r_left), dtype=bool)
    if not ok.any():
        return out
    idx = np.flatnonzero(ok)
    order = idx[np.lexsort((idx, r_dist[idx], r_left[idx]))]    # per l, nearest first
    first = {}
    for i in order.tolist():
        first.setdefault(int(r_left[i]), i)
    for i in idx.tolist():
        j = first[int(r_left[i])]
        if j != i and r_dist[j] < r_dist[i] - TIE and word_distinct(rwords[i], rwords[j]):
            out[i] = True
    return out


def measure_words(d: dict, folder) -> list:
    _, right, _ = load(folder)
    rkeys, _ = fuzzy._distinct(right["title"])
    if len(rkeys) != len(d["n_rows"]):
        raise ValueError(f"{d['name']}: the tables do not give the dump's right values")
    return [_words(v) for v in rkeys]


def capped_candidates(rwords: list):
    """A ``fuzzy._Candidates`` whose joins with a right namesake are rated at most 1/2."""
    class Capped(fuzzy._Candidates):
        def __post_init__(self):
            super().__post_init__()
            flag = right_namesakes(self.r_left, self.r_dist, rwords)
            if flag.any():
                self.rate(np.where(flag, np.minimum(self.p, 0.5), self.p))
    return Capped


def prepare(d: dict) -> None:
    for fn, near in admissible.cached_family(d, STATE).items():
        d["raw"][fn]["r_near"] = near
    if STATE["variant"] == "rightname":
        d["candidates"] = capped_candidates(replay.cached_measure(d, STATE, "rwords",
                                                                  measure_words))


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=STATE, suites=SUITES)


if __name__ == "__main__":
    main()
