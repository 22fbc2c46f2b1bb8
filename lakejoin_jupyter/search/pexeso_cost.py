"""PEXESO's cost model for the number of grid levels m [P §III-E], and the plan model.

As in the paper, a query workload sampled from the lake (tau over 0-10 % of the largest
distance) is run through blocking at each candidate m, and the m of least modelled cost is
chosen. :func:`tau_profile` records the modelled PEXESO time per query vector by tau, which
search/pexeso.plan_estimates compares with a BLAS scan of the partition (``plan="auto"``).

Note:
    - Workload: seeded lake vectors with stratified taus (deterministic), not columns.
    - Distance computations are counted exactly (the search's own filters), not by Eq. 2.
    - The cost adds blocking work (cell and candidate pairs) with fitted per-unit costs.
    - Every integer m in range is evaluated instead of gradient descent and rounding.
    Details and figures: docs/algorithms/pexeso.md.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..index.pexeso_arrays import MAX_KEY_BITS, SAMPLE_MULT, partition_from_entries
from .pexeso import (C_BF, PAIR_BUDGET, Layout, block, chunks, expand, lemma1_bound32,
                     verify_filters)

TAU_MAX = 0.2               # 10% of the largest distance 2 [P §III-E, §V]
WORKLOAD = 256              # query vectors in the workload
TAU_STRATA = 8              # tau values (stratified uniform over (0, TAU_MAX])
MODEL_VECTORS = 400_000     # lake vectors the model grids hold (a seeded sample beyond)
MIN_LEVELS, MAX_LEVELS = 2, 8
# microseconds per unit: least-squares fit of 12 timed searches (m = 2..5 x tau 0.02, 0.05,
# 0.1; 8 query columns each) on the 228k-value lake, `bench/pexeso.py --levels-sweep 2,3,4,5`
# (refit after any change to blocking or verification; docs/algorithms/pexeso.md)
C_CELL, C_CAND, C_DIST = 0.111, 0.015, 0.680
# tau values at which tau_profile measures PEXESO's blocking work (the plan interpolates;
# past the last one PEXESO's cost is taken as at least the last one's)
PROFILE_TAUS = (0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2)
PROFILE_VECTORS = 64        # workload vectors of the profile (each run at every tau)


def workload(n_vectors: int, size: int = WORKLOAD, strata: int = TAU_STRATA,
             seed: int = 0, tau_max: float = TAU_MAX) -> tuple[np.ndarray, np.ndarray]:
    """(row indices of the query vectors, their tau): a seeded sample without replacement,
    tau stratified uniform over (0, tau_max] (``strata`` distinct values, so blocking runs
    once per value)."""
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(n_vectors, size=min(size, n_vectors), replace=False))
    k = np.arange(len(rows)) % strata
    tau = tau_max * (k + 0.5) / strata
    return rows, tau


def _model_rows(n: int, cap: int) -> np.ndarray:
    """Rows kept in the model's grids: all up to ``cap``, else a deterministic sample."""
    if n <= cap:
        return np.arange(n)
    h = (np.arange(n, dtype=np.uint64) * np.uint64(SAMPLE_MULT)) % np.uint64(1 << 32)
    return np.flatnonzero(h < np.uint64(int(cap / n * (1 << 32))))


COUNTS = ("cell_pairs", "candidate_pairs", "distance_computations")


def level_counts(mapped: np.ndarray, pivots: np.ndarray, levels: int, q_mapped: np.ndarray,
                 taus: np.ndarray, budget: int = PAIR_BUDGET) -> dict:
    """Blocking counts of the workload (``q_mapped``: (n_q, |P|) mapped query vectors, one
    tau each) on the grid of the lake's ``mapped`` vectors at ``levels``, summed over its
    taus (:func:`level_counts_by_tau`)."""
    per_tau = level_counts_by_tau(mapped, pivots, levels, q_mapped, taus, budget)
    return {"levels": int(levels), **{k: sum(c[k] for c in per_tau) for k in COUNTS}}


def level_counts_by_tau(mapped: np.ndarray, pivots: np.ndarray, levels: int,
                        q_mapped: np.ndarray, taus: np.ndarray,
                        budget: int = PAIR_BUDGET) -> list:
    """:func:`level_counts` per distinct tau of the workload: one dict per tau, ascending,
    with the number of workload vectors at that tau."""
    n = len(mapped)
    part = partition_from_entries(pivots, levels, np.arange(n), mapped,
                                  np.zeros(n, np.int64), np.arange(n))
    lay = Layout(part)
    _, live = lay.live()                         # every cell (the layout's cached set)
    per_tau = []
    for tau in np.unique(taus):
        stats: dict = {}
        cand = dist = 0
        sel = np.flatnonzero(taus == tau)
        qm = np.ascontiguousarray(q_mapped[sel].T)
        _, (cq, clo, chi) = block(lay, qm, float(tau), live, budget, stats)
        qm32, tau32 = qm.astype(np.float32), lemma1_bound32(lay, qm, float(tau))
        for a, b in chunks(chi - clo, budget):
            ql, r = expand(cq[a:b], clo[a:b], chi[a:b])
            cand += len(ql)
            (left, _), _ = verify_filters(lay, qm, qm32, ql, r, float(tau), tau32)
            dist += len(left)
        per_tau.append({"tau": float(tau), "vectors": int(len(sel)), "levels": int(levels),
                        "cell_pairs": int(stats.get("cell_pairs", 0)),
                        "candidate_pairs": int(cand), "distance_computations": dist})
    return per_tau


def level_costs(mapped: np.ndarray, pivots: np.ndarray, candidates=None, seed: int = 0,
                workload_size: int = WORKLOAD, cap: int = MODEL_VECTORS,
                tau_max: float = TAU_MAX, taus=None,
                costs: tuple = (C_CELL, C_CAND, C_DIST)) -> pd.DataFrame:
    """The cost model's table over the candidate m (one row each), for one partition.
    ``taus``: the workload's tau values instead of the strata of (0, tau_max] (cycled over
    the query vectors); ``costs``: per-unit costs (cell pair, candidate pair, distance
    computation) in microseconds."""
    mapped = np.asarray(mapped, dtype=np.float64)
    P = len(pivots)
    top = min(MAX_LEVELS, MAX_KEY_BITS // max(P, 1))
    candidates = list(range(MIN_LEVELS, top + 1)) if candidates is None else list(candidates)
    if len(mapped) == 0 or not candidates:
        return pd.DataFrame(columns=["levels", "cell_pairs", "candidate_pairs",
                                     "distance_computations", "cost_us"])
    keep = _model_rows(len(mapped), cap)
    lake = mapped[keep]
    # a sampled grid's pair counts, scaled to the lake (cell pairs grow slower than the
    # lake, so they are left as counted: the model then leans towards larger m)
    scale = len(mapped) / len(lake)
    rows, wt = workload(len(lake), workload_size, seed=seed, tau_max=tau_max)
    if taus is not None:
        wt = np.resize(np.asarray(taus, dtype=np.float64), len(rows))
    c_cell, c_cand, c_dist = costs
    out = []
    for m in candidates:
        c = level_counts(lake, pivots, m, lake[rows], wt)
        for k in ("candidate_pairs", "distance_computations"):
            c[k] = int(round(c[k] * scale))
        c["cost_us"] = c_cell * c["cell_pairs"] + c_cand * c["candidate_pairs"] + \
            c_dist * c["distance_computations"]
        out.append(c)
    return pd.DataFrame(out)


def choose_levels(mapped_parts, pivots_parts, seed: int = 0, candidates=None,
                  tau_max: float = TAU_MAX) -> tuple[int, pd.DataFrame]:
    """The m of least total modelled cost over the partitions (one m for the index) and the
    summed cost table."""
    tables = [level_costs(mp, pv, candidates, seed, tau_max=tau_max)
              for mp, pv in zip(mapped_parts, pivots_parts) if len(mp)]
    if not tables:                           # no vectors: any m will do
        return MIN_LEVELS, pd.DataFrame()
    total = pd.concat(tables).groupby("levels", as_index=False).sum()
    best = int(total.loc[total["cost_us"].idxmin(), "levels"])
    return best, total


def tau_profile(mapped: np.ndarray, pivots: np.ndarray, levels: int, seed: int = 0,
                taus=PROFILE_TAUS, size: int = PROFILE_VECTORS, cap: int = MODEL_VECTORS,
                costs: tuple = (C_CELL, C_CAND, C_DIST)) -> dict:
    """The plan model of one partition (recorded in the manifest, ``plan_model``): modelled
    PEXESO microseconds per query vector at each tau of ``taus``, from the blocking counts
    of ``size`` sampled lake vectors at every tau on the grid at ``levels`` (the search's
    own blocking; candidate and distance counts scaled to the lake as in
    :func:`level_costs`)."""
    mapped = np.asarray(mapped, dtype=np.float64)
    if len(mapped) == 0:
        return {"taus": [float(t) for t in taus], "us_per_vector": [0.0] * len(taus),
                "lake_vectors": 0}
    keep = _model_rows(len(mapped), cap)
    lake = mapped[keep]
    scale = len(mapped) / len(lake)
    rows, _ = workload(len(lake), size, seed=seed)
    q = np.repeat(lake[rows], len(taus), axis=0)
    wt = np.tile(np.asarray(taus, dtype=np.float64), len(rows))
    c_cell, c_cand, c_dist = costs
    us = []
    for c in level_counts_by_tau(lake, pivots, levels, q, wt):
        us.append((c_cell * c["cell_pairs"] + scale * (c_cand * c["candidate_pairs"] +
                                                      c_dist * c["distance_computations"]))
                  / max(c["vectors"], 1))
    return {"taus": [float(t) for t in taus], "us_per_vector": [round(u, 3) for u in us],
            "lake_vectors": int(len(mapped)), "workload_vectors": int(len(rows)),
            "levels": int(levels), "costs_us": {"cell_pair": c_cell, "candidate_pair": c_cand,
                                                "distance": c_dist, "bruteforce_pair": C_BF}}
