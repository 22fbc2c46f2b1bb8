"""bench/fuzzyjoin_agree_low.py (calibration round 27): ``low_ratio_median`` against a
brute-force loop over right values and functions, and by hand on three functions."""
from __future__ import annotations

import statistics
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_agree_low as al  # noqa: E402
from lakejoin_jupyter.join import match_precision as mp  # noqa: E402


def _cand(r_left, near, p):
    return SimpleNamespace(r_left=np.array(r_left), r_near=np.array(near, dtype=float),
                           p=np.array(p, dtype=float))


def test_low_ratio_median_by_hand():
    inf = [np.inf] * 3
    cands = {"a": _cand([0, 1, -1], [[0.1, 0.5, 0.6], [0.4, 0.5, 0.9], inf], [0.9, 0.3, 0.0]),
             "b": _cand([0, 2, -1], [[0.2, 0.3, 0.6], [0.1, 0.5, 0.9], inf], [0.5, 0.8, 0.0]),
             "c": _cand([0, 1, -1], [[0.3, 0.9, 1.0], [0.1, 0.5, 0.9], inf], [0.2, 0.7, 0.0])}
    agreed = {f: np.full(3, 0.42) for f in cands}     # what the join's agreement gave
    got = al.low_ratio_median(cands, agreed, 0.7)
    # right 0: every function joins left 0 at a low ratio: median(0.9, 0.5, 0.2); right 1:
    # a's ratio 0.8 is high (kept as agreed), b alone on left 2, c with a on left 1:
    # median(0.3, 0.7); right 2 joins nothing (kept)
    assert got["a"].tolist() == pytest.approx([0.5, 0.42, 0.42])
    assert got["b"].tolist() == pytest.approx([0.5, 0.8, 0.42])
    assert got["c"].tolist() == pytest.approx([0.5, 0.5, 0.42])
    clear = al.low_ratio_median(cands, agreed, 0.7, clear=True)
    # with clear, c's partner a on right 1 sees the pair at 0.8: c alone, 0.7
    assert clear["c"].tolist() == pytest.approx([0.5, 0.7, 0.42])
    assert clear["a"].tolist() == pytest.approx([0.5, 0.42, 0.42])


@pytest.mark.parametrize("clear", [False, True])
def test_low_ratio_median_by_brute_force(clear):
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, fns = 15, ["f0", "f1", "f2", "f3", "f4"]
        cands = {}
        for f in fns:
            near = np.sort(rng.choice([0.0, 0.1, 0.2, 0.3, 0.5, 0.8, np.inf], size=(n, 3)), axis=1)
            r_left = np.where(np.isfinite(near[:, 0]), rng.integers(0, 3, size=n), -1)
            cands[f] = _cand(r_left, near, rng.random(n))
        agreed = {f: rng.random(n) for f in fns}
        ratio = 0.7
        got = al.low_ratio_median(cands, agreed, ratio, clear=clear)
        for f in fns:
            c = cands[f]
            for r in range(n):
                s1 = mp.nearest_ratios(c.r_near[r:r + 1])[0][0]
                if c.r_left[r] < 0 or not np.isfinite(s1) or s1 > ratio:
                    want = agreed[f][r]
                else:
                    ps = []
                    for g in fns:
                        sg = mp.nearest_ratios(cands[g].r_near[r:r + 1])[0][0]
                        if cands[g].r_left[r] == c.r_left[r] and (not clear or sg <= ratio):
                            ps.append(cands[g].p[r])
                    want = statistics.median(ps)
                assert got[f][r] == pytest.approx(want, abs=1e-12)
