"""bench/fuzzyjoin_decoy_rank.py's estimator class follows ``fuzzy._Candidates``: its v0
(the join as it is) gives the join's probabilities, error terms and bound on synthetic
blocking output, also after ``rate`` and with the joins to one left value capped
(``HUB_PARTNERS``), which read the error terms the class keeps (``_scale``, ``_rel``)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_decoy_rank as dr  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402


def _raw(seed: int = 0, n: int = 300) -> dict:
    rng = np.random.default_rng(seed)
    near = np.sort(rng.uniform(0.0, 1.0, (n, 3)), axis=1)
    near[: n // 2, 0] *= 0.2                       # half with a clear nearest left value
    left = rng.integers(0, 25, n)                  # few left values: hubs of many joins
    return {"r_left": left, "r_dist": near[:, 0].copy(), "r_near": near,
            "r_ties": np.ones(n, dtype=int), "r_sibling": near[:, 1] + 0.05,
            "r_namesake": np.where(rng.random(n) < 0.1, near[:, 0], 2.0)}


def test_v0_is_the_joins_estimator():
    dr.Candidates.variant = "v0"
    for seed in range(3):
        raw = _raw(seed)
        want, got = fuzzy._Candidates("word", **raw), dr.Candidates("word", **raw)
        for name in ("p", "v", "u"):
            np.testing.assert_allclose(getattr(got, name), getattr(want, name), rtol=1e-9,
                                       atol=1e-12, err_msg=name)
        assert np.isclose(got.pi0, want.pi0)
        for t in (0.05, 0.1, 0.2, 0.5):
            assert np.isclose(got.bound(t), want.bound(t)), t
        halved = want.p / 2
        want.rate(halved)
        got.rate(halved)
        np.testing.assert_allclose(got.u, want.u, rtol=1e-9, atol=1e-12)
        assert np.isclose(got.bound(0.2), want.bound(0.2))


def test_every_variant_builds_and_bounds():
    raw = _raw(4)
    for name, (est, _) in dr.VARIANTS.items():
        dr.Candidates.variant = est
        c = dr.Candidates("word", **raw)
        assert ((0 <= c.p) & (c.p <= 1)).all(), name
        assert np.isfinite(c.bound(0.3)), name
        c.rate(c.p * 0.9)
    dr.Candidates.variant = "v0"
