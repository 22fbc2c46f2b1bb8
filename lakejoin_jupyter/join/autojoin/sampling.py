"""Row sampling for large tables (thesis §4.5), with the sample-size formula corrected.

Rows are sampled independently (Bernoulli) in each table: the join keys are unknown, so
coordinated sampling is impossible. The expected number of sampled joinable pairs,
mu = N_t p_t p_s r, must reach T/(1-delta) (Eq. 4.5-4.6); minimising the rows sampled,
N_s p_s + N_t p_t, subject to that (Eq. 4.7) gives equal sample counts:

    N_s p_s = N_t p_t = sqrt(c N_s / r),  c = T / (1 - delta)

A rate above 1 is clamped to 1 and the constraint re-solved for the other table
(footnote 8: small tables are used whole).

Note:
    The thesis' Eq. 4.8 swaps p_s and p_t (the two agree only when N_s = N_t).
    Derivation: docs/algorithms/autojoin.md.
"""
from __future__ import annotations

import math

import numpy as np


def sample_rates(n_source: int, n_target: int, participation: float = 0.1,
                 examples: int = 4, delta: float = 0.8) -> tuple[float, float]:
    """(p_s, p_t) minimising N_s p_s + N_t p_t s.t. N_t p_t p_s r >= T / (1 - delta)."""
    if n_source <= 0 or n_target <= 0:
        return 1.0, 1.0
    if not 0 < participation <= 1:
        raise ValueError(f"participation rate must be in (0, 1], got {participation!r}")
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    c = examples / (1.0 - delta)
    ps = math.sqrt(c / (participation * n_source))
    pt = math.sqrt(c * n_source / (participation * n_target ** 2))
    if ps > 1:
        ps = 1.0
        pt = c / (participation * n_target)
    elif pt > 1:
        pt = 1.0
        ps = c / (participation * n_target)
    return min(ps, 1.0), min(pt, 1.0)


def bernoulli_rows(n_rows: int, rate: float, seed: int) -> np.ndarray:
    """Positions of an independent Bernoulli(rate) sample of n_rows rows (all rows at 1)."""
    if rate >= 1.0:
        return np.arange(n_rows)
    rng = np.random.default_rng(seed)
    return np.flatnonzero(rng.random(n_rows) < rate)


def failure_bound(mu: float, examples: int = 4, delta: float = 0.8) -> float:
    """Chernoff bound on P(X <= T) when mu >= T/(1-delta) (Eq. 4.6), else 1."""
    if mu < examples / (1.0 - delta) * (1 - 1e-12):
        return 1.0
    return math.exp(-delta * delta * mu / 2.0)
