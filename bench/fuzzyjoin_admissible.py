"""Calibration round 20 (bench/results/fuzzyjoin_calibration.md, twenty-third session): the
ratio's second and third distances from the left values the negative rules allow.

The join rates a join by s1 = d1 / d2 and its decoys by s2 = d2 / d3, the distances of the
three nearest left values (``match_precision.nearest_ratios``). A left value that
``fuzzy.NegativeRules`` forbids for the right value (a version or season sibling) is no
alternative the join competes with, yet as the second nearest it makes a right join look
like a near tie. The variants replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is;
* ``admissible``: per function and right value, of the K = ADMISSIBLE_K nearest left
  values (``fuzzy._nearest``), d1 stays the nearest's distance; d2 and d3 are the
  distances of the first two among ranks 2..K the rules allow (infinite where fewer are
  found). They replace the saved ``r_near``; everything else is the join's own.

    python bench/fuzzyjoin_admissible.py --work W --variant admissible --out dev_adm.csv

The admissible distances are computed once per dataset (from its tables) and cached in
``W/admissible/``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load

VARIANTS = ("base", "admissible")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7"]
ADMISSIBLE_K = 10         # nearest left values searched for two the rules allow
STATE = {"variant": "base", "work": None, "folders": None}


def admissible_near(rd: np.ndarray, ri: np.ndarray, forbids) -> np.ndarray:
    """(n_right, 3) distances: column 0 ``rd[:, 0]``; columns 1-2 the distances of the first
    two left values ``ri[i, k]`` (k >= 1, index >= 0) with ``forbids(i, l)`` false; inf
    where fewer than two are found."""
    near = np.full((len(rd), 3), np.inf)
    near[:, 0] = rd[:, 0]
    for i in range(len(rd)):
        ok = [rd[i, k] for k in range(1, rd.shape[1])
              if ri[i, k] >= 0 and not forbids(i, int(ri[i, k]))][:2]
        near[i, 1:1 + len(ok)] = ok
    return near


def admissible_distances(d: dict, folder: Path) -> dict:
    """Per join function of the saved dataset ``d``: its ``admissible_near`` from the
    dataset's tables (checked against the saved nearest distances)."""
    from lakejoin_jupyter.join import fuzzy
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    rules, counts, texts = fuzzy.NegativeRules(lkeys, rkeys), {}, [list(lkeys), list(rkeys)]
    out = {}
    for fn, raw in d["raw"].items():
        L, R = fuzzy._features(texts, fn, counts)
        rd, ri, _ = fuzzy._nearest(R, L, ADMISSIBLE_K)
        k = min(3, rd.shape[1], raw["r_near"].shape[1])
        if not np.allclose(rd[:, :k], raw["r_near"][:, :k], equal_nan=True):
            raise ValueError(f"{d['name']} {fn}: the tables do not give the dump's distances")
        out[fn] = admissible_near(rd, ri, rules.forbids)
    return out


def cached_admissible(d: dict, state: dict) -> dict:
    return replay.cached_measure(d, state, "admissible", admissible_distances)


def prepare(d: dict) -> None:
    if STATE["variant"] == "admissible":
        for fn, near in cached_admissible(d, STATE).items():
            d["raw"][fn]["r_near"] = near


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=STATE, suites=SUITES)


if __name__ == "__main__":
    main()
