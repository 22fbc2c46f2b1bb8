"""bench/fuzzyjoin_recall.py's variants: the word-subset distance against a brute-force
oracle over Python sets and a hand-checked value, and the tie veto of the replay hook."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_recall as rec  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402


@pytest.fixture
def subset(monkeypatch):
    """The function registered on copies, so the module is as before after the test."""
    monkeypatch.setattr(fuzzy, "JOIN_FUNCTIONS", dict(fuzzy.JOIN_FUNCTIONS))
    monkeypatch.setattr(fuzzy, "MAX_DISTANCE", dict(fuzzy.MAX_DISTANCE))
    monkeypatch.setattr(fuzzy, "_distances", fuzzy._distances)
    monkeypatch.setattr(fuzzy, "_pair_distances", fuzzy._pair_distances)
    rec.register_subset()
    return rec.SUBSET


def test_subset_distance_hand_checked(subset):
    left = ["Pullman Hotels and Resorts", "Marriott Hotels and Resorts", "Renaissance Hotels"]
    right = ["Pullman", "Hotels Marriott"]
    L, R = fuzzy._features([left, right], subset)
    d = fuzzy._distances(R, L, None, L.ones.T.tocsc(), 0, 2)
    w = {df: math.log(6 / (df + 1)) + 1.0 for df in (2, 4)}   # 5 values; pullman, and,
    whole = w[2] + w[4] + w[2] + w[2]                          # resorts, marriott df 2; hotels 4
    assert d[0, 0] == pytest.approx(1 - w[2] / whole)
    assert d[1, 1] == pytest.approx(1 - (w[4] + w[2]) / whole)
    assert d[0, 1] == d[0, 2] == d[1, 0] == d[1, 2] == 1.0     # "hotels" shared, neither holds
    pair = fuzzy._pair_distances(R[np.array([0, 1])], L[np.array([0, 1])])
    assert np.allclose(pair, [d[0, 0], d[1, 1]])


def test_subset_distance_equals_sets_brute_force():
    rng = np.random.default_rng(3)
    words = list("abcdef")
    sets = [set(rng.choice(words, size=rng.integers(1, 5), replace=False)) for _ in range(30)]
    wt = dict(zip(words, rng.uniform(0.5, 3.0, len(words))))
    W = lambda s: sum(wt[x] for x in s)                     # noqa: E731
    for a in sets:
        for b in sets:
            inter = np.array([W(a & b)])
            got = rec.subset_distance(inter, np.array([W(a)]), np.array([W(b)]))[0]
            want = 1 - W(a & b) / W(a | b) if (a <= b or b <= a) else 1.0
            assert got == pytest.approx(want)


def test_ties_hook_vetoes_only_containment_ties():
    raw = {"word-contain-idf": {"r_dist": np.array([0.0, 0.0, 0.3]), "r_ties": np.array([2, 1, 1])},
           "word-idf": {"r_dist": np.array([0.2, 0.4, 0.5]), "r_ties": np.array([2, 1, 1])}}
    d = {"raw": raw, "grids": {"word-contain-idf": np.array([0.0, 0.3]),
                               "word-idf": np.array([0.2, 0.4, 0.5])}}
    rec.prepare("ties")(d)
    assert np.array_equal(d["raw"]["word-contain-idf"]["r_dist"], [np.inf, 0.0, 0.3])
    assert np.array_equal(d["raw"]["word-idf"]["r_dist"], [0.2, 0.4, 0.5])   # not "contain"
    assert np.array_equal(d["grids"]["word-contain-idf"], [0.0, 0.3])
