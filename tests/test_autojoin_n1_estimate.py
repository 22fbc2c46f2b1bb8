"""Auto-Join deviation 77 (a new user's report): a program folding many source rows onto
each key (N:1) loses to a 1:1 program on the same target column that reaches at least
half its keys and joins more keys weighted by estimated precision. The miniature: 20
ZIP codes 01001.. against 1,200 slugs "01062-xxxx_ma" of six states, where "010" + the
last two digits of any state's ZIP code joins all 20 keys by chance, and the slug's own
ZIP code 14 of them. Checked against the truth by construction (a slug's ZIP code is the
text before its "-") and a brute-force count of the right program's keys."""
from __future__ import annotations

import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin import pipeline

# slugs per 3-digit prefix, as in New England's ZIP codes (a sample of 1,200)
PREFIXES = {
    "010": 37, "011": 12, "012": 20, "013": 19, "014": 15, "015": 31, "016": 7, "017": 16,
    "018": 24, "019": 23, "020": 20, "021": 39, "022": 3, "023": 18, "024": 18, "025": 13,
    "026": 22, "027": 24, "028": 40, "029": 6, "030": 25, "031": 3, "032": 37, "033": 4,
    "034": 20, "035": 11, "036": 3, "037": 20, "038": 45, "039": 6, "040": 43, "041": 7,
    "042": 30, "043": 13, "044": 45, "045": 19, "046": 30, "047": 25, "048": 11, "049": 40,
    "050": 31, "051": 11, "052": 6, "053": 15, "054": 32, "056": 22, "057": 25, "058": 24,
    "059": 4, "060": 37, "061": 15, "062": 16, "063": 17, "064": 33, "065": 8, "066": 8,
    "067": 26, "068": 22, "069": 4}
STATES = [(1001, 2791, "ma"), (2801, 2940, "ri"), (3031, 3897, "nh"), (3901, 4992, "me"),
          (5001, 5907, "vt"), (6001, 6928, "ct")]


def _tables(seed: int):
    rng = random.Random(seed)
    zips = sorted(int(p) * 100 + x for p, n in PREFIXES.items()
                  for x in rng.sample(range(1, 100), n))
    state = lambda z: next((s for a, b, s in STATES if a <= z <= b), "ma")   # noqa: E731
    city = lambda: "".join(rng.choice("abcdefghilmnoprstuvw")                 # noqa: E731
                           for _ in range(rng.randint(5, 10)))
    slugs = pd.DataFrame({"slug": [f"{z:05d}-{city()}_{state(z)}" for z in zips]})
    have = set(zips)
    low = range(1001, 1100)
    keys = [z for z in low if z in have][:14] + [z for z in low if z not in have][:6]
    return pd.DataFrame({"zip_code": [f"{z:05d}" for z in sorted(keys)]}), slugs


@pytest.mark.parametrize("seed", [1, 2])
def test_one_to_one_program_beats_a_chance_fold(seed):
    q, slugs = _tables(seed)
    right = {s.split("-")[0] for s in slugs["slug"]}
    expected = sum(z in right for z in q["zip_code"])        # brute force: 14
    assert expected == 14
    aj = autojoin(q, slugs, "zip_code", "slug", fuzzy=False)
    assert aj.found
    joined = aj.join().dropna(subset=["slug"])
    # every joined row is right (main: "010" + letters 4-5 of part 1, 240+ rows, most wrong)
    assert (joined["slug"].str.split("-").str[0] == joined["zip_code"]).all(), aj.program
    assert joined["zip_code"].nunique() == expected and len(joined) == expected


def test_rule_compares_keys_weighted_by_the_estimate():
    q, slugs = _tables(1)
    src, tgt = pipeline.Table(slugs, "other"), pipeline.Table(q, "df")
    d = pipeline.learn_direction(src, tgt, ["slug"], ["zip_code"], pipeline.AutoJoinSettings())
    folding = next(c for c in d.candidates if c.coverage == 20)    # the chance fold
    assert folding.joined_rows > 10 * folding.coverage
    assert d.best.coverage == 14 and d.best.joined_rows == 14
    assert d.best.extra["estimated_precision"] * 14 > 20 * pipeline._estimate(
        folding, src, tgt.cells("zip_code"), d.groups)
