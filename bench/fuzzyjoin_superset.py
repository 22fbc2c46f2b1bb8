"""Calibration round 22 (bench/results/fuzzyjoin_calibration.md, twenty-fourth session): a
join whose right value is its left value plus words, rated by the functions' agreement.

The join rates a join whose ratio s1 = d1 / d2 exceeds ``fuzzy.AGREE_RATIO`` by the mean
probability of the functions joining its right value to the same left value
(``fuzzy.agreed_probability``); below that ratio, by its own function's. A right value whose
tokens strictly contain its left value's ("Kansas City" -> "Kansas") costs a contain function
nothing for the added words and a word function a fixed amount, so there the functions differ
by what each measure sees, and the choice keeps the most blind. The variants replay the choice
on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is;
* ``superset``: the agreement applied also to every join whose right value's tokens
  (``fuzzy.NegativeRules``' tokens) strictly contain those of its nearest left value under
  the function, whatever its ratio; everything else is the join's own;
* ``contain``: the same for the contain functions' joins only (max-inclusion, which divides
  by the smaller set, is blind to an added word; the other functions see it).

    python bench/fuzzyjoin_superset.py --work W --variant superset --out dev_sup.csv

The superset masks are computed once per dataset (from its tables) and cached in
``W/superset/``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load

VARIANTS = ("base", "superset", "contain")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7"]
STATE = {"variant": "base", "work": None, "folders": None, "masks": None}


def strict_supersets(r_tokens: list, l_tokens: list, r_left: np.ndarray) -> np.ndarray:
    """Mask over right values: right value i's token set strictly contains that of its
    nearest left value ``r_left[i]`` (False where it has none, -1)."""
    return np.fromiter((l >= 0 and r_tokens[i] > l_tokens[l]
                        for i, l in enumerate(np.asarray(r_left).tolist())),
                       dtype=bool, count=len(r_left))


def superset_agreed(cands: dict, superset: dict, ratio: float) -> dict:
    """``fuzzy.agreed_probability`` with the agreement applied also where ``superset[fn]``
    (a mask over right values) holds, whatever the ratio."""
    from lakejoin_jupyter.join.fuzzy import agreed_probability
    return agreed_probability(cands, ratio, also=superset)


def superset_masks(d: dict, folder: Path) -> dict:
    """Per join function of the saved dataset ``d``: its ``strict_supersets`` mask, the
    tokens read from the dataset's tables as ``fuzzy.NegativeRules`` reads them."""
    from lakejoin_jupyter.join import fuzzy
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    if len(rkeys) != len(d["n_rows"]):
        raise ValueError(f"{d['name']}: the tables do not give the dump's right values")
    rules = fuzzy.NegativeRules(lkeys, rkeys)
    return {fn: strict_supersets(rules.rt, rules.lt, raw["r_left"])
            for fn, raw in d["raw"].items()}


def contain_functions() -> frozenset:
    """The join functions whose measure is max-inclusion (``fuzzy.JOIN_FUNCTIONS``)."""
    from lakejoin_jupyter.join import fuzzy
    return frozenset(f for f, (_, _, m) in fuzzy.JOIN_FUNCTIONS.items() if m == "contain")


def only(masks: dict, fns) -> dict:
    """``masks`` with every function outside ``fns`` all False."""
    return {f: m if f in fns else np.zeros_like(m) for f, m in masks.items()}


def configure(variant: str) -> None:
    if variant != "base":
        from lakejoin_jupyter.join import fuzzy
        fuzzy.agreed_probability = lambda cands, ratio=fuzzy.AGREE_RATIO: superset_agreed(
            cands, STATE["masks"], ratio)


def prepare(d: dict) -> None:
    if STATE["variant"] != "base":
        masks = replay.cached_measure(d, STATE, "superset", superset_masks)
        STATE["masks"] = masks if STATE["variant"] == "superset" else \
            only(masks, contain_functions())


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, configure=configure, prepare=prepare,
                       state=STATE, suites=SUITES)


if __name__ == "__main__":
    main()
