"""bench/fuzzyjoin_admissible.py's ``admissible_near`` against hand-checked distances: d1
kept, d2 and d3 from the first two left values (ranks 2..K) the rules allow, inf where
fewer are found; and with the join's own NegativeRules on a version family."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_admissible as adm  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402


def test_admissible_near_by_hand():
    rd = np.array([[0.1, 0.2, 0.3, 0.4, 0.5],
                   [0.0, 0.6, 0.7, np.inf, np.inf],
                   [0.2, 0.3, 0.4, 0.9, 1.0]])
    ri = np.array([[7, 1, 2, 3, 4],
                   [7, 5, 6, -1, -1],
                   [7, 1, 2, 3, 4]])
    banned = {(0, 1), (0, 3), (1, 5), (1, 6), (2, 2)}
    near = adm.admissible_near(rd, ri, lambda i, l: (i, l) in banned)
    assert np.array_equal(near, np.array([[0.1, 0.3, 0.5],
                                          [0.0, np.inf, np.inf],
                                          [0.2, 0.3, 0.9]]))


def test_admissible_near_skips_a_forbidden_version_sibling():
    left = ["Eiffel Forum License v1.0", "Eiffel Forum License v2.0", "Apache License 2.0",
            "MIT License"]
    rules = fuzzy.NegativeRules(left, ["Eiffel Forum License 2.0"])
    assert rules.forbids(0, 0) and not rules.forbids(0, 1) and not rules.forbids(0, 2)
    rd, ri = np.array([[0.2, 0.4, 0.8, 0.9]]), np.array([[1, 0, 2, 3]])
    assert np.array_equal(adm.admissible_near(rd, ri, rules.forbids),
                          np.array([[0.2, 0.8, 0.9]]))
