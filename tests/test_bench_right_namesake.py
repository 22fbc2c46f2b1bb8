"""bench/fuzzyjoin_right_namesake.py (calibration round 26): ``right_namesakes`` against a
brute-force scan over every pair of right values, ``word_distinct`` against a brute-force
edit check, and the capped candidates against the join's own rated at most 1/2 by hand."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_right_namesake as rn  # noqa: E402
from word_brute import one_deletion_close as _close  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402



def _distinct_brute(a: list, b: list) -> bool:
    return (any(all(not _close(w, u) for u in b) for w in a)
            or any(all(not _close(u, w) for w in a) for u in b))


def test_word_distinct_by_brute_force_and_by_hand():
    values = ["African Black Swift", "Black Swift", "Gray-Heron", "Grey Heron", "Jon Smith",
              "John Smith", "Kyber Network Crystal v2", "Kyber Network Crystal", "2019 Token",
              "Token", "Reputation Old", "Reputation"]
    words = [rn._words(v) for v in values]
    for a in words:
        for b in words:
            assert rn.word_distinct(a, b) == _distinct_brute(a, b)
    # by hand: a word added, "v2" added and "old" added are new words; a letter changed, a
    # hyphen, a letter dropped and digits alone are not
    got = [rn.word_distinct(words[i], words[i + 1]) for i in range(0, len(values), 2)]
    assert got == [True, False, False, True, False, True]


def test_right_namesakes_by_brute_force():
    rng = np.random.default_rng(7)
    pool = ["black swift", "african black swift", "black swfit", "grey heron",
            "great grey heron", "gray heron", "reed bunting", "pallas reed bunting"]
    for _ in range(30):
        n = 12
        r_left = rng.integers(-1, 4, size=n)
        r_dist = rng.choice([0.0, 0.1, 0.2, 0.3, np.inf], size=n)
        rwords = [rn._words(pool[k]) for k in rng.integers(0, len(pool), size=n)]
        ok = (r_left >= 0) & np.isfinite(r_dist)
        expect = np.zeros(n, dtype=bool)
        for i in range(n):
            if not ok[i]:
                continue
            same = [j for j in range(n) if ok[j] and r_left[j] == r_left[i]]
            j = min(same, key=lambda k: (r_dist[k], k))      # the nearest, ties the first
            expect[i] = (r_dist[j] < r_dist[i] - rn.TIE
                         and _distinct_brute(rwords[i], rwords[j]))
        assert rn.right_namesakes(r_left, r_dist, rwords).tolist() == expect.tolist()


def test_capped_candidates_cap_only_the_flagged_joins_at_a_half():
    # right 0 "african black swift" joins left 0 at 0; right 1 "black swift" joins it
    # further out (flagged); right 2 "black swfit" (a typo of 1) joins left 1 beside 1's
    # twin right 3 nearer (not flagged: no new word); right 4 alone on left 2
    names = ["african black swift", "black swift", "black swfit", "black swift", "reed bunting"]
    rwords = [rn._words(v) for v in names]
    r_left = np.array([0, 0, 1, 1, 2])
    near = np.array([[0.0, 0.9, 1.0], [0.05, 0.9, 1.0], [0.2, 0.9, 1.0], [0.1, 0.9, 1.0],
                     [0.1, 0.9, 1.0]])
    kw = dict(r_left=r_left, r_dist=near[:, 0].copy(), r_near=near)
    plain = fuzzy._Candidates("word", **kw)
    capped = rn.capped_candidates(rwords)("word", **kw)
    assert rn.right_namesakes(r_left, near[:, 0], rwords).tolist() == [False, True, False,
                                                                       False, False]
    want = plain.p.copy()
    want[1] = min(want[1], 0.5)
    assert plain.p[1] > 0.5 and np.allclose(capped.p, want)
    assert np.allclose(capped.v, fuzzy.join_variance(want, plain._scale))
