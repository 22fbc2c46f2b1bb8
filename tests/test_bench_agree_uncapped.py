"""bench/fuzzyjoin_agree_uncapped.py (calibration round 28): a function's fit and cap
against the join's own ``_Candidates`` with and without the caps, and
``low_ratio_uncapped`` against a brute-force loop over right values and functions."""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_agree_uncapped as au  # noqa: E402
from lakejoin_jupyter.join import fuzzy, match_precision as mp  # noqa: E402

FNS = ["char3-idf", "char3", "word-idf", "word", "char3-word-idf"]


def _random_cands(rng, n=60):
    """Real ``_Candidates`` on random blocking output, three left values, with ties,
    siblings and namesakes that often hold."""
    cands = {}
    for f in FNS:
        near = np.sort(rng.choice([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.8, 1.0, np.inf],
                                  size=(n, 3)), axis=1)
        r_left = np.where(np.isfinite(near[:, 0]), rng.integers(0, 3, size=n), -1)
        r_dist = np.where(r_left >= 0, near[:, 0], np.inf)
        cands[f] = fuzzy._Candidates(
            f, r_left=r_left, r_dist=r_dist, r_near=near,
            r_ties=rng.choice([1, 1, 1, 2], size=n),
            r_sibling=near[:, 0] + rng.choice([0.0, 0.1, 0.5], size=n),
            r_namesake=near[:, 0] + rng.choice([0.0, 0.2, 0.6], size=n))
    return cands


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fit_and_cap_against_the_join(seed):
    """The fit is the join's probability without the sibling and namesake caps (its tie
    cap kept); min(fit, cap) is the join's probability."""
    cands = _random_cands(np.random.default_rng(seed))
    for f, c in cands.items():
        fit, cap = au.fit_and_cap(c)
        free = fuzzy._Candidates(f, r_left=c.r_left, r_dist=c.r_dist, r_near=c.r_near,
                                 r_ties=c.r_ties, r_sibling=None, r_namesake=None)
        assert fit == pytest.approx(free.p, abs=1e-12)
        assert np.minimum(fit, cap) == pytest.approx(c.p, abs=1e-12)
        assert set(np.unique(cap)) <= {0.5, 1.0} and (cap == 0.5).any()


@pytest.mark.parametrize("kind", [False, True])
@pytest.mark.parametrize("seed", [3, 4])
def test_low_ratio_uncapped_by_brute_force(kind, seed):
    rng = np.random.default_rng(seed)
    cands = _random_cands(rng)
    n = len(cands[FNS[0]].r_left)
    agreed = {f: rng.random(n) for f in FNS}
    fits = {f: au.fit_and_cap(c) for f, c in cands.items()}
    got = au.low_ratio_uncapped(cands, agreed, 0.7, kind=kind)
    changed = 0
    for f in FNS:
        c = cands[f]
        for r in range(n):
            s1 = mp.nearest_ratios(c.r_near[r:r + 1])[0][0]
            if c.r_left[r] < 0 or not np.isfinite(s1) or s1 > 0.7:
                want = agreed[f][r]
            else:
                fs = [fits[g][0][r] for g in FNS if cands[g].r_left[r] == c.r_left[r]
                      and (not kind or au.KIND[g] == au.KIND[f])]
                want = min(statistics.median(fs), fits[f][1][r])
                changed += want != agreed[f][r]
            assert got[f][r] == pytest.approx(want, abs=1e-12)
    assert changed > 0


def test_kinds():
    assert (au.KIND["word-jaccard-idf"], au.KIND["char23-idf"], au.KIND["char3-word-idf"]) == \
        ("word", "char", "both")
    assert "semantic" not in au.KIND
