"""bench/fuzzyjoin_superset.py: ``strict_supersets`` against hand-checked token sets;
``superset_agreed`` equal to the join's own ``agreed_probability`` where no mask holds, and
the mean of the functions joining the same left value where one does (checked by hand); and
on newuser14's D6 (Kansas City against the US states) the variant's rating of the join."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_superset as sup  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402

STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
          "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
          "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
          "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana",
          "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
          "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania",
          "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
          "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
          "District of Columbia"]
QUERY = ["Californa", "Texs", "New Yrok", "Washingon", "Florida", "Virgina", "West Virginia",
         "North Dakotta", "Puerto Rico", "Kansas City"]
NGRAM = [f for f in fuzzy.JOIN_FUNCTIONS if f != "semantic"]


def test_strict_supersets_by_hand():
    rules = fuzzy.NegativeRules(["Kansas", "Virginia", "Dumb (song)"],
                                ["Kansas City", "kansas", "West Virginia", "Virgina",
                                 "Dumb (Nirvana song)", "Kansas"])
    mask = sup.strict_supersets(rules.rt, rules.lt, np.array([0, 0, 1, 1, 2, -1]))
    assert mask.tolist() == [True, False, True, False, True, False]


def _cands():
    fj = fuzzy.fuzzy_join(pd.DataFrame({"s": STATES}), pd.DataFrame({"q": QUERY}),
                          on=("s", "q"), functions=NGRAM)
    return fj, {f: fuzzy._Candidates(f, c.r_left, c.r_dist, c.r_near, c.r_ties, c.r_sibling,
                                     c.r_namesake) for f, c in fj._cands.items()}


def test_superset_agreed_is_the_joins_own_without_a_mask():
    _, cands = _cands()
    none = {f: np.zeros(len(QUERY), bool) for f in cands}
    own = fuzzy.agreed_probability(cands)
    got = sup.superset_agreed(cands, none, fuzzy.AGREE_RATIO)
    assert all(np.array_equal(own[f], got[f]) for f in cands)


def test_superset_agreed_rates_kansas_city_by_the_functions_mean():
    fj, cands = _cands()
    rk, lk = list(fj._rkeys), list(fj._lkeys)
    i, kansas = rk.index("Kansas City"), lk.index("Kansas")
    rules = fuzzy.NegativeRules(fj._lkeys, fj._rkeys)
    masks = {f: sup.strict_supersets(rules.rt, rules.lt, c.r_left) for f, c in cands.items()}
    # every n-gram function's nearest state for Kansas City is Kansas; the strict supersets:
    # that join, and West Virginia -> Virginia where the word-contain functions tie it at 0
    assert all(c.r_left[i] == kansas for c in cands.values())
    found = {(f, rk[j], lk[cands[f].r_left[j]]) for f, m in masks.items()
             for j in np.flatnonzero(m)}
    assert found == ({(f, "Kansas City", "Kansas") for f in cands}
                     | {(f, "West Virginia", "Virginia") for f in ("word-contain-idf",
                                                                   "word-contain")})
    by_hand = np.mean([c.p[i] for c in cands.values()])
    got = sup.superset_agreed(cands, masks, fuzzy.AGREE_RATIO)
    own = fuzzy.agreed_probability(cands)
    assert own["char3-contain-idf"][i] > 0.9            # D6: the blind function's 0.94
    assert all(abs(got[f][i] - by_hand) < 1e-12 for f in cands)
    assert by_hand < 0.6
    others = [j for j in range(len(rk)) if j != i]
    assert all(np.array_equal(got[f][others], own[f][others]) for f in cands)


def test_contain_variant_masks_the_contain_functions_only():
    assert sup.contain_functions() == {"word-contain-idf", "char3-contain-idf",
                                       "char3-word-contain-idf", "word-contain"}
    masks = {"char3-idf": np.array([True, False]), "word-contain": np.array([True, True])}
    got = sup.only(masks, sup.contain_functions())
    assert got["char3-idf"].tolist() == [False, False]
    assert got["word-contain"].tolist() == [True, True]
