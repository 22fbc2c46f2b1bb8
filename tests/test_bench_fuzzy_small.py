"""bench/fuzzyjoin_small.py's cases (from the demo lake's reference tables only): the truth
is consistent (every partner a left value, left and right values distinct), the typos
differ from their originals, and every case is on one side of the fixed split."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_small as fs  # noqa: E402


def test_small_cases_truth_is_consistent():
    cases = fs.all_cases(zoneinfo=None)
    assert len(cases) >= 15
    for c in cases:
        assert len(set(c.left)) == len(c.left) and len(set(c.right)) == len(c.right), c.name
        assert set(c.truth) <= set(c.right), c.name
        assert set(c.truth.values()) <= set(c.left), c.name
        assert len(set(c.truth.values())) == len(c.truth), c.name     # one right per left
        assert c.split in ("dev", "val")
    by = {c.name: c for c in cases}
    am = by["iso2-lower-americas"]
    assert am.truth["BR"] == "br" and "KR" not in am.truth and len(am.left) == len(am.truth)
    fips = by["fips-iso2"]
    assert fips.truth["AU"] == "AT"          # FIPS AU is Austria, whose ISO code is AT
    typos = by["official-typos"]
    assert all(r != l for r, l in typos.truth.items())
    assert {s for s in fs.SPLIT.values()} == {"dev", "val"}


def test_small_score_by_hand():
    d = {"lkeys": ["a", "b", "c"], "rkeys": ["A", "B", "X", "C"],
         "truth": {"A": "a", "B": "b", "C": "c"}}
    # A -> a right, B -> c wrong, X -> a wrong (no partner), C unjoined
    n, right, p, r, f1 = fs.score(d, np.array([0, 2, 0, -1]))
    assert (n, right) == (3, 1) and p == 1 / 3 and r == 1 / 3 and f1 == 1 / 3
