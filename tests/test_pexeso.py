"""PEXESO: lemmas, grid geometry, block-and-verify against brute force, partitions, the
Spark build against the numpy reference, and the engine method."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.index import pexeso_arrays as pa
from lakejoin_jupyter.search import pexeso as px
from lakejoin_jupyter.actions import actions_for
from lakejoin_jupyter.errors import QueryError


def unit(x):
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def random_lake(seed, n_tok=None, n_sets=None, dim=None, spread=0.25):
    """Clustered unit vectors (so thresholds separate near from far) and random columns."""
    rng = np.random.default_rng(seed)
    dim = dim or int(rng.integers(2, 12))
    n_tok = n_tok or int(rng.integers(1, 300))
    n_sets = n_sets or int(rng.integers(1, 25))
    centres = unit(rng.standard_normal((6, dim)))
    vec = unit(centres[rng.integers(0, 6, n_tok)] + spread * rng.standard_normal((n_tok, dim)))
    if n_tok > 3:
        vec[1] = vec[0]                                   # an exact duplicate vector
    sets = [np.unique(rng.integers(0, n_tok, rng.integers(0, 30))) for _ in range(n_sets)]
    indptr = np.zeros(n_sets + 1, np.int64)
    indptr[1:] = np.cumsum([len(s) for s in sets])
    toks = np.concatenate(sets).astype(np.int32) if indptr[-1] else np.zeros(0, np.int32)
    nq = int(rng.integers(1, 40))
    q = unit(centres[rng.integers(0, 6, nq)] + spread * rng.standard_normal((nq, dim)))
    k = min(nq, n_tok, 5)
    q[:k] = vec[rng.choice(n_tok, k, replace=False)]    # some queries equal lake values
    return vec, indptr, toks, q, rng


def naive_counts(vec, indptr, toks, q, tau):
    """The definition, literally: for each column, the query vectors with a match."""
    out = []
    for c in range(len(indptr) - 1):
        xs = vec[toks[indptr[c]:indptr[c + 1]]].astype(np.float64)
        out.append(sum(bool(len(xs)) and bool(np.any(np.linalg.norm(xs - qq, axis=1) <= tau))
                       for qq in q.astype(np.float64)))
    return np.array(out)


# ----------------------------------------------------------------------------- lemmas

@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_pivot_lemmas_are_sound(seed, tau):
    """Lemma 1: a match lies in the square query region; Lemma 2: x'+q' <= tau matches."""
    rng = np.random.default_rng(seed)
    dim = int(rng.integers(2, 8))
    q, x, piv = unit(rng.standard_normal((50, dim))), unit(rng.standard_normal((50, dim))), \
        unit(rng.standard_normal((3, dim)))
    d = pa.distances(q, x)
    qm, xm = pa.map_to_pivots(q, piv), pa.map_to_pivots(x, piv)
    near = d <= tau
    assert np.all(np.abs(xm - qm)[near] <= tau + 1e-9)
    lemma2 = np.any(xm + qm <= tau, axis=1)
    assert np.all(d[lemma2] <= tau + 1e-9)


def test_morton_keys_nest_levels_and_boxes_hold_points():
    rng = np.random.default_rng(3)
    P, m = 3, 4
    mapped = rng.random((500, P)) * 2
    lo, hi = pa.domain(mapped)
    coords = pa.leaf_coords(mapped, lo, hi, m)
    keys = pa.morton_keys(coords, m)
    assert np.array_equal(pa.key_coords(keys, P, m), coords)
    for j in range(1, m + 1):
        anc = keys >> (P * (m - j))
        assert np.array_equal(pa.key_coords(anc, P, j), coords >> (m - j))
        w = (hi - lo) / (1 << j)
        c = pa.key_coords(anc, P, j)
        assert np.all(mapped >= lo + c * w - 1e-12) and np.all(mapped <= lo + (c + 1) * w + 1e-12)
    # children of a cell are contiguous in key order
    k1 = np.unique(keys >> (P * (m - 1)))
    parents = k1 >> P
    assert np.all(np.diff(parents) >= 0)


def test_pivot_selection_pca_picks_spread_outliers_and_random_is_seeded():
    rng = np.random.default_rng(0)
    x = unit(rng.standard_normal((400, 16)))
    p1 = pa.select_pivots(x, 5, "pca")
    assert p1.shape == (5, 16) and len({r.tobytes() for r in p1}) == 5
    assert all(any(np.array_equal(r, y) for y in x.astype(np.float64)) for r in p1)
    # PCA-selected pivots spread the mapped sample more than the sample's central point would
    spread_pca = pa.map_to_pivots(x, p1).std(axis=0).sum()
    centre = x.mean(axis=0, keepdims=True)
    spread_centre = pa.map_to_pivots(x, np.repeat(centre, 5, axis=0)).std(axis=0).sum()
    assert spread_pca > spread_centre
    assert np.array_equal(pa.select_pivots(x, 3, "random", seed=4),
                          pa.select_pivots(x, 3, "random", seed=4))
    with pytest.raises(ValueError):
        pa.select_pivots(x, 3, "bogus")


def test_bruteforce_oracle_matches_the_definition():
    for seed in range(5):
        vec, indptr, toks, q, _ = random_lake(seed)
        for tau in (0.1, 0.3, 0.7):
            want = naive_counts(vec, indptr, toks, q, tau)
            assert np.array_equal(px.bruteforce(vec, indptr, toks, q, tau), want)
            assert np.array_equal(px.bruteforce(vec, indptr, toks, q, tau, prefilter=True), want)


# ----------------------------------------------------------------------------- search

def check_against_bruteforce(part, vec, indptr, toks, q, tau, T, **kw):
    n_sets = len(indptr) - 1
    bf = px.bruteforce(vec, indptr, toks, q, tau)
    t_abs = px.t_count(T, len(q))
    want = np.nonzero(bf >= t_abs)[0]
    parts = part if isinstance(part, list) else [part]
    r = px.search(parts, vec, q, tau, T, n_sets, **kw)
    order = np.argsort(r.columns)
    cols, counts = r.columns[order], r.counts[order]
    assert np.array_equal(cols, want), (tau, T, kw)
    if kw.get("early_accept"):
        assert np.all(counts >= t_abs) and np.all(counts <= bf[want])
        return r
    assert np.array_equal(counts, bf[want])
    # matched pairs: one per matched query vector, each within tau, token from the column
    for c in want:
        qi, tk, dist = r.pairs[int(c)]
        assert len(qi) == bf[c] == len(set(qi.tolist()))
        assert np.all(dist <= tau)
        assert set(tk.tolist()) <= set(toks[indptr[c]:indptr[c + 1]].tolist())
        assert np.allclose(dist, pa.distances(q[qi], vec[tk]))
    return r


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-5, 5), max_size=12).map(sorted), min_size=1, max_size=8),
       st.lists(st.integers(-6, 6), min_size=1, max_size=20), st.booleans())
def test_segment_search_is_searchsorted_in_each_segment(segments, values, right):
    x = np.array([v for seg in segments for v in seg], dtype=np.float64)
    ends = np.cumsum([len(seg) for seg in segments])
    starts = ends - [len(seg) for seg in segments]
    pick = np.arange(len(values)) % len(segments)
    v = np.asarray(values, dtype=np.float64)
    got = px._segment_search(x, starts[pick], ends[pick], v, right)
    want = [s + np.searchsorted(x[s:e], vv, "right" if right else "left")
            for s, e, vv in zip(starts[pick], ends[pick], v)]
    assert got.tolist() == want


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), n_pivots=st.integers(1, 5), levels=st.integers(1, 4),
       tau=st.sampled_from([0.0, 0.03, 0.1, 0.3]))
def test_leaf_rows_are_the_rows_within_tau_on_the_leaf_pivot(seed, n_pivots, levels, tau):
    """Rows inside each leaf are sorted by its sort pivot, and a (query vector, leaf) pair
    yields exactly the leaf's rows within tau + EPS of the query on that pivot. Each
    cell's box is its rows' bounding box."""
    vec, indptr, toks, q, _ = random_lake(seed, n_tok=250)
    part = pa.build_partition(vec, indptr, toks, n_pivots=n_pivots, levels=levels, seed=seed)
    lay = px.Layout(part)
    m = lay.m
    lo, hi = lay.row_lo[m], lay.row_hi[m]
    for c in range(len(lo)):
        x = lay.mapped[lay.leaf_pivot[c], lo[c]:hi[c]]
        assert np.array_equal(x, lay.leaf_x[lo[c]:hi[c]]) and np.all(np.diff(x) >= 0)
    qm = np.ascontiguousarray(pa.map_to_pivots(q, part.pivots).T)
    qi = np.repeat(np.arange(len(q)), len(lo))
    ci = np.tile(np.arange(len(lo)), len(q))
    gq, glo, ghi = px.leaf_rows(lay, qm, qi, ci, tau)
    got = {(int(a), int(r)) for a, s, e in zip(gq, glo, ghi) for r in range(s, e)}
    want = {(int(a), r) for a, c in zip(qi, ci) for r in range(lo[c], hi[c])
            if abs(lay.mapped[lay.leaf_pivot[c], r] - qm[lay.leaf_pivot[c], a]) <= tau + px.EPS}
    assert got == want and np.all(glo < ghi)
    # every cell's box is the bounding box of its rows, inside its grid cell
    for j in range(1, m + 1):
        w = (part.hi - part.lo) / (1 << j)
        cell = pa.key_coords(lay.keys[j], lay.P, j).T
        for c in range(len(lay.keys[j])):
            rows = lay.mapped[:, lay.row_lo[j][c]:lay.row_hi[j][c]]
            assert np.array_equal(lay.box_lo[j][:, c], rows.min(axis=1))
            assert np.array_equal(lay.box_hi[j][:, c], rows.max(axis=1))
            assert np.all(part.lo + cell[:, c] * w <= lay.box_lo[j][:, c] + 1e-12)
            assert np.all(lay.box_hi[j][:, c] <= part.lo + (cell[:, c] + 1) * w + 1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), n_pivots=st.integers(1, 6), levels=st.integers(1, 7),
       method=st.sampled_from(["pca", "random"]), T=st.sampled_from([0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
       early_accept=st.booleans(), batch=st.sampled_from([1, 7, 64]),
       budget=st.sampled_from([1, 50, 10**6]))
def test_pexeso_equals_bruteforce(seed, n_pivots, levels, method, T, early_accept, batch, budget):
    """Every batch size and pair budget (1: every chunk is a single pair) gives the exact
    answer."""
    vec, indptr, toks, q, rng = random_lake(seed)
    part = pa.build_partition(vec, indptr, toks, n_pivots=n_pivots, levels=levels,
                              pivot_method=method, seed=seed)
    # tau: fixed values, and one equal to an actual query-lake distance (boundary, d == tau)
    boundary = float(pa.distances(q[:1], vec[int(rng.integers(0, len(vec)))][None, :])[0])
    for tau in (0.0, 0.05, 0.12, 0.3, 0.8, boundary):
        check_against_bruteforce(part, vec, indptr, toks, q, tau, T, early_accept=early_accept,
                                 batch_size=batch, pair_budget=budget)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), T=st.sampled_from([0.0, 0.2, 0.6, 1.0]),
       chunk=st.sampled_from([1, 7, 8192]), split=st.booleans())
def test_bruteforce_plan_equals_the_oracle(seed, T, chunk, split):
    """The brute-force plan (a BLAS scan of each partition) gives the oracle's columns and
    counts, and per (query vector, column) the nearest lake value as its pair."""
    saved, px.BF_CHUNK = px.BF_CHUNK, chunk
    try:
        _bruteforce_plan_case(seed, T, split)
    finally:
        px.BF_CHUNK = saved


def _bruteforce_plan_case(seed, T, split):
    vec, indptr, toks, q, rng = random_lake(seed)
    n_sets = len(indptr) - 1
    cols = np.arange(n_sets)
    sizes = np.diff(indptr)
    groups = [cols[(cols % 2 == b) & (sizes > 0)] for b in (0, 1)] if split else \
        [cols[sizes > 0]]
    parts = [pa.build_partition(vec, indptr, toks, columns=g, n_pivots=2, levels=3)
             for g in groups if len(g)]
    boundary = float(pa.distances(q[:1], vec[int(rng.integers(0, len(vec)))][None, :])[0])
    for tau in (0.0, 0.12, 0.3, 0.8, boundary):
        r = check_against_bruteforce(parts, vec, indptr, toks, q, tau, T, plan="bruteforce")
        assert set(r.stats["plan"]) <= {"bruteforce"}
        for c, (qi, tk, dist) in r.pairs.items():          # the nearest value of the column
            xs = vec[toks[indptr[c]:indptr[c + 1]]]
            for i, d in zip(qi, dist):
                assert d == pytest.approx(pa.distances(q[[i]], xs).min(), abs=1e-6)
    if n_sets > 1:                                          # exclusion
        r = px.search(parts, vec, q, 0.8, 0.0, n_sets, plan="bruteforce", exclude=[0])
        assert 0 not in r.columns.tolist()


def test_bruteforce_plan_when_only_excluded_columns_match():
    vec, indptr, toks, q, _ = random_lake(9, n_tok=100, n_sets=6, dim=5)
    part = pa.build_partition(vec, indptr, toks, n_pivots=2, levels=2)
    q = vec[toks[indptr[2]:indptr[3]]][:3]            # values of column 2 only, at tau 0
    own = [c for c in range(6) if np.isin(toks[indptr[c]:indptr[c + 1]],
                                          toks[indptr[2]:indptr[2] + 3]).any()]
    for plan in ("pexeso", "bruteforce"):
        r = px.search([part], vec, q, 0.0, 0.0, 6, plan=plan, exclude=own)
        assert len(r.columns) == 0 and r.pairs == {}
        r = px.search([part], vec, q, 0.0, 0.0, 6, plan=plan)
        assert set(r.columns.tolist()) == set(own)
    r = px.search([part], vec, q[:0], 0.3, 0.0, 6, plan="bruteforce")   # an empty query
    assert len(r.columns) == 0


def test_auto_plan_follows_the_model_and_answers_alike():
    """plan="auto" runs whichever plan the partition's model predicts cheaper (here forced
    each way through the brute force's per-pair price), reports it, and both are exact."""
    from lakejoin_jupyter.search import pexeso_cost as pc
    vec, indptr, toks, q, _ = random_lake(3, n_tok=250, n_sets=12, dim=6)
    part = pa.build_partition(vec, indptr, toks, n_pivots=3, levels=3)
    model = pc.tau_profile(part.mapped, part.pivots, part.levels)
    assert model["taus"] == list(pc.PROFILE_TAUS) and len(model["us_per_vector"]) == len(model["taus"])
    assert model["us_per_vector"][-1] >= model["us_per_vector"][0] > 0   # more work at large tau
    for price, want in ((1e-9, "bruteforce"), (1e9, "pexeso")):
        m = dict(model, costs_us=dict(model["costs_us"], bruteforce_pair=price))
        r = check_against_bruteforce(part, vec, indptr, toks, q, 0.3, 0.2, plan="auto",
                                     plan_model=[m])
        assert r.stats["plan"] == [want]
        est = r.stats["plan_estimates_us"][0]
        assert est["bruteforce"] == pytest.approx(price * len(q) * len(part.tokens))
    r = px.search([part], vec, q, 0.3, 0.2, len(indptr) - 1, plan="auto")    # no model
    assert r.stats["plan"] == ["pexeso"]
    with pytest.raises(ValueError, match="plan"):
        px.search([part], vec, q, 0.3, 0.2, len(indptr) - 1, plan="fast")


def test_plan_estimates_interpolate_the_profile():
    from lakejoin_jupyter.search.pexeso import plan_estimates
    model = {"taus": [0.1, 0.2], "us_per_vector": [10.0, 30.0],
             "costs_us": {"bruteforce_pair": 0.5}}
    assert plan_estimates(model, 0.15, 4, 100) == {"pexeso": 80.0, "bruteforce": 200.0}
    assert plan_estimates(model, 0.05, 1, 1)["pexeso"] == 10.0        # below: the first
    assert plan_estimates(model, 0.9, 1, 1)["pexeso"] == 30.0         # past: the last


def test_early_pruning_and_acceptance_fire_and_stay_exact():
    vec, indptr, toks, q, _ = random_lake(11, n_tok=150, n_sets=60, dim=8, spread=0.15)
    part = pa.build_partition(vec, indptr, toks, n_pivots=4, levels=5)
    r = check_against_bruteforce(part, vec, indptr, toks, q, 0.3, 0.2, early_accept=True,
                                 batch_size=4)
    assert r.stats["columns_accepted_early"] > 0 and r.stats["columns_pruned_lemma7"] > 0
    r = check_against_bruteforce(part, vec, indptr, toks, q, 0.3, 0.6, batch_size=4)
    assert r.stats["columns_pruned_lemma7"] > 0
    # a coarser grid leaves room after Lemma 3 on the (tight) leaf boxes for Lemma 1
    part = pa.build_partition(vec, indptr, toks, n_pivots=4, levels=3)
    r = check_against_bruteforce(part, vec, indptr, toks, q, 0.3, 0.6, batch_size=4)
    assert r.stats["lemma1_filtered"] > 0 and r.stats["distance_computations"] > 0


def test_a_lake_without_values_builds_and_finds_nothing():
    """Hypothesis found it (random_lake seed 13588: one empty column): the reference build
    uses zero pivots, as the Spark build does, and every plan answers with no column."""
    vec, indptr, toks, q, _ = random_lake(13588)
    assert len(toks) == 0
    part = pa.build_partition(vec, indptr, toks, n_pivots=3, levels=2)
    assert part.pivots.shape == (3, vec.shape[1]) and not part.pivots.any()
    for plan in ("pexeso", "bruteforce"):
        r = check_against_bruteforce(part, vec, indptr, toks, q, 0.3, 0.0, plan=plan)
        assert len(r.columns) == 0


def test_matching_lemmas_fire_when_queries_sit_on_pivots():
    vec, indptr, toks, q, _ = random_lake(5, n_tok=500, n_sets=20, dim=6)
    part = pa.build_partition(vec, indptr, toks, n_pivots=3, levels=3)
    q = np.vstack([q, part.pivots.astype(np.float32)])   # queries at the pivots
    r = check_against_bruteforce(part, vec, indptr, toks, q, 0.6, 0.2)
    assert r.stats["lemma5_matched"] > 0 and r.stats["lemma2_matched"] > 0


def test_partitions_and_exclusion():
    vec, indptr, toks, q, _ = random_lake(7, n_tok=600, n_sets=30, dim=6)
    n_sets = len(indptr) - 1
    labels = np.arange(n_sets) % 3
    parts = [pa.build_partition(vec, indptr, toks, columns=np.nonzero(labels == p)[0],
                                n_pivots=3, levels=4) for p in range(3)]
    check_against_bruteforce(parts, vec, indptr, toks, q, 0.3, 0.2)
    bf = px.bruteforce(vec, indptr, toks, q, 0.3)
    best = int(np.argmax(bf))
    r = px.search(parts, vec, q, 0.3, 0.0, n_sets, exclude=[best])
    assert best not in r.columns.tolist() and len(r.columns) == int((bf > 0).sum()) - 1


def test_cluster_columns_separates_distributions():
    rng = np.random.default_rng(0)
    a = rng.dirichlet(np.r_[np.full(8, 20.0), np.full(8, 0.5)], 20)
    b = rng.dirichlet(np.r_[np.full(8, 0.5), np.full(8, 20.0)], 20)
    labels = pa.cluster_columns(np.vstack([a, b]), 2, seed=1)
    assert len(set(labels[:20])) == 1 and len(set(labels[20:])) == 1 and labels[0] != labels[20]
    h = np.vstack([a[:3], b[:2]])
    kl = lambda x, y: float(np.sum(x * np.log(x / y)))
    want = np.array([[(kl(x, y) + kl(y, x)) / 2 for y in h] for x in h])
    assert np.allclose(pa.symmetric_kl(h, h), want)


# ----------------------------------------------------------------------------- cost model

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), n_pivots=st.integers(1, 5),
       tau=st.sampled_from([0.0, 0.05, 0.15, 0.4]))
def test_cost_model_counts_are_the_searchs_and_the_pairwise_oracles(seed, n_pivots, tau):
    """[P §III-E] model: its blocking counts equal what search_partition does on the same
    grid and queries; the pairs left to a distance computation equal a pairwise oracle of
    Lemmas 1 and 2 and do not depend on m; every pair that passes Lemma 1 is a candidate
    or matched by Lemma 5 (the leaves' range search drops no such pair)."""
    from lakejoin_jupyter.search import pexeso_cost as pc
    vec, indptr, toks, q, _ = random_lake(seed, n_tok=200, n_sets=10)
    base = pa.build_partition(vec, indptr, toks, n_pivots=n_pivots, levels=1, seed=seed)
    qm = pa.map_to_pivots(q, base.pivots)
    xm = base.mapped
    gap = np.abs(qm[:, None, :] - xm[None, :, :]).max(axis=2)                  # Lemma 1
    near = (qm[:, None, :] + xm[None, :, :]).min(axis=2)                       # Lemma 2
    oracle = int(((gap <= tau + px.EPS) & ~(near <= tau - px.EPS)).sum())
    lemma1 = int((gap <= tau + px.EPS).sum())
    for m in range(1, min(6, 62 // n_pivots) + 1):
        got = pc.level_counts(xm, base.pivots, m, qm, np.full(len(q), tau))
        part = pa.build_partition(vec, indptr, toks, levels=m, pivots=base.pivots)
        stats: dict = {}
        px.search_partition(part, vec, q, tau, 1, len(indptr) - 1, early_prune=False,
                            want_pairs=False, stats=stats)
        for k in ("cell_pairs", "candidate_pairs", "distance_computations"):
            assert got[k] == stats[k], (m, k)
        assert got["distance_computations"] == oracle
        assert stats["candidate_pairs"] + stats["lemma5_matched"] >= lemma1


def test_choose_levels_takes_the_least_modelled_cost():
    from lakejoin_jupyter.search import pexeso_cost as pc
    vec, indptr, toks, _, _ = random_lake(5, n_tok=300, n_sets=20, dim=8)
    part = pa.build_partition(vec, indptr, toks, n_pivots=4, levels=1)
    m, table = pc.choose_levels([part.mapped], [part.pivots], candidates=[1, 2, 3, 4, 5])
    assert list(table["levels"]) == [1, 2, 3, 4, 5]
    assert m == int(table.loc[table["cost_us"].idxmin(), "levels"])
    want = (pc.C_CELL * table["cell_pairs"] + pc.C_CAND * table["candidate_pairs"]
            + pc.C_DIST * table["distance_computations"])
    assert np.allclose(table["cost_us"], want)
    # blocking work grows with m and candidates shrink: pricing only one side moves m to
    # the end of the range
    only_cand = pc.level_costs(part.mapped, part.pivots, [1, 2, 3, 4, 5], costs=(0, 1, 0))
    only_cell = pc.level_costs(part.mapped, part.pivots, [1, 2, 3, 4, 5], costs=(1, 0, 0))
    assert only_cand["cost_us"].is_monotonic_decreasing
    assert int(only_cell.loc[only_cell["cost_us"].idxmin(), "levels"]) == 1


# ----------------------------------------------------------------------------- Spark build

FUZZY_LAKE = {
    "countries.csv": pd.DataFrame({"country": ["Côte d’Ivoire", "Germany", "France", "Viet Nam",
                                               "United States", "Brazil", "Japan"],
                                   "code": ["CI", "DE", "FR", "VN", "US", "BR", "JP"]}),
    "gdp/gdp.csv": pd.DataFrame({"nation": ["Cote d'Ivoire", "germany", "FRANCE", "Vietnam",
                                            "United States of America", "Chile"],
                                 "gdp": ["1", "2", "3", "4", "5", "6"]}),
    "cities.csv": pd.DataFrame({"city": ["Paris", "Berlin", "Abidjan", "Hanoi", "Tokyo", "Lima"],
                                "pop": ["10", "20", "30", "40", "50", "60"]}),
}


@pytest.fixture(scope="module")
def fuzzy_index(spark, tmp_path_factory):
    from conftest import write_lake

    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import BuildSettings
    root = tmp_path_factory.mktemp("fuzzylake")
    lake = write_lake(root / "lake", FUZZY_LAKE)
    out = {}
    for k in (1, 2):                 # one partition: m by the cost model; two: m = 4
        path = root / f"ix{k}"
        build(lake, path, spark=spark, progress=False, settings=BuildSettings(
            components=("pexeso",), component_options={"pexeso": {
                "pivots": 3, "levels": "auto" if k == 1 else 4, "partitions": k,
                "embedder": "ngram:dim=64"}}))
        out[k] = path
    return out


@pytest.mark.spark
def test_spark_build_equals_reference_and_search_is_exact(fuzzy_index):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.embed import get_embedder
    eng = open_index(fuzzy_index[1])
    ix = eng.index.generations[0]                       # the base generation
    sec = ix.components["pexeso"]
    assert sec["embedder"]["name"] == "ngram" and sec["embedder"]["dim"] == 64
    vec = ix.load_npy("pexeso/vectors.npy")
    tokens = ix.token_text(np.arange(ix.n_tokens))
    assert np.array_equal(vec, get_embedder(sec["embedder"]).embed(tokens))
    a = ix.arrays
    from lakejoin_jupyter.search.pexeso_cost import choose_levels
    ref = pa.build_partition(vec, a.sets_indptr, a.sets_tokens, n_pivots=3, levels=1)
    m, _ = choose_levels([ref.mapped], [ref.pivots])         # levels="auto": the cost model's m
    assert sec["levels"] == sec["levels_model"]["chosen"] == m
    assert len(sec["plan_model"]) == len(sec["partitions"]) == 1
    assert sec["plan_model"][0]["lake_vectors"] == sec["partitions"][0]["vectors"]
    ref = pa.build_partition(vec, a.sets_indptr, a.sets_tokens, n_pivots=3, levels=m)
    from lakejoin_jupyter.search.pexeso import PexesoModel
    assert PexesoModel(ix).partition(0).equals(ref)
    q = pd.DataFrame({"c": ["Cote d'Ivoire", "Germany", "France", "Viet-Nam", "Atlantis"]})
    for tau, T in ((0.0, 0.2), (0.3, 0.4), (0.6, 0.6), (0.9, 0.2)):
        res = eng.search(q, "c", method="pexeso", tau=tau, joinability=T, k=None)
        qv = get_embedder(sec["embedder"]).embed(res.query.tokens)
        bf = px.bruteforce(vec, a.sets_indptr, a.sets_tokens, qv, tau)
        want = {c: n for c, n in enumerate(bf) if n >= px.t_count(T, len(qv))}
        assert {h.column_ids[0]: h.overlap for h in res} == want
    res = eng.search(q, "c", method="pexeso", tau=0.6, joinability=0.6, k=None)
    top = {(h.table, h.column) for h in res}
    assert ("countries", "country") in top and ("gdp/gdp", "nation") in top
    hit = [h for h in res if h.column == "nation"][0]
    pairs = {a_: b for a_, b, _ in hit.details["pairs"]}
    assert pairs["Cote d'Ivoire"] == "cote d'ivoire" and pairs["Germany"] == "germany"
    assert hit.containment == pytest.approx(hit.overlap / 5)
    # the rows of the similar values, not of equal ones: "Germany" thrice, "Atlantis" twice
    q2 = pd.DataFrame({"c": ["Cote d'Ivoire", "Germany", "Germany", "Germany", "Viet-Nam",
                             "Atlantis", "Atlantis"]})
    res = eng.search(q2, "c", method="pexeso", tau=0.6, joinability=0.4, k=None, rank="useful")
    for h in res:
        near = {a_ for a_, _, _ in h.details["pairs"]}
        assert h.row_coverage == pytest.approx(q2["c"].isin(near).mean())
        assert h.join_rows is None and h.key_ratio is None
        assert "join" not in [a.name for a in actions_for(h)]
        with pytest.raises(QueryError, match="engine.fuzzy_join"):
            h.join(q2)
    assert any(0 < h.row_coverage < 1 for h in res)
    # no join figures for similar values, and every front end says why (CLI, magic, widget)
    from lakejoin_jupyter.engine import SIMILARITY_NOTE
    assert SIMILARITY_NOTE in res.notes
    table = res.text_table()
    assert set(table["fan-out"]) == set(table["join rows"]) == {"n/a"}
    assert res._repr_html_().count(">n/a</td>") == 2 * len(res)
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    w = DiscoveryWidget(eng, session=Session(), namespace={"q2": q2}, frame="q2",
                        columns=["c"], auto_insert=False)
    w.method_picker.value = "pexeso"
    w.search().wait()
    assert "fan-out and join rows are n/a for the similarity (PEXESO) hits" in w.status_text


@pytest.mark.spark
def test_spark_build_with_partitions_is_exact(fuzzy_index):
    from lakejoin_jupyter import open_index
    one, two = open_index(fuzzy_index[1]), open_index(fuzzy_index[2])
    sec = two.index.generations[0].components["pexeso"]
    assert len(sec["partitions"]) == 2 and sec["partitioning"]["k"] == 2
    assert sum(p["columns"] for p in sec["partitions"]) == \
        sum(p["columns"] for p in one.index.generations[0].components["pexeso"]["partitions"])
    q = ["Paris", "Berlin", "Hanoi", "France", "Germany", "Brasil"]
    for tau in (0.2, 0.7):
        r1 = one.search(q, method="pexeso", tau=tau, joinability=0.3, k=None)
        want = {(h.column_ids, h.overlap) for h in r1}
        for plan in ("auto", "pexeso", "bruteforce"):      # every plan, both layouts
            r2 = two.search(q, method="pexeso", tau=tau, joinability=0.3, k=None, plan=plan)
            assert {(h.column_ids, h.overlap) for h in r2} == want
            assert len(r2.stats["plan"]) == 2
            assert plan == "auto" or set(r2.stats["plan"]) == {plan}


TYPOS = {"Johannesburg": "Johanesburg", "Philadelphia": "Philadelpia",
         "San Francisco": "San Fransisco", "Rio de Janeiro": "Rio de Janiero",
         "Kuala Lumpur": "Kuala Lumpar", "Mexico City": "Mexico Ctiy", "Copenhagen": "Copenhagn",
         "Washington": "Washingtn", "Ho Chi Minh City": "Ho Chi Mihn City",
         "Saint Petersburg": "Saint Petersberg", "Buenos Aires": "Buenos Aries"}


def test_an_index_built_under_the_earlier_rule_searches_with_the_current_default():
    """The default tau is the rule on the recorded profile, not the number recorded by an
    earlier build (an n-gram index that recorded its 0.01 quantile gets the typo floor)."""
    from types import SimpleNamespace
    prof = pa.distance_profile(np.linspace(0.3, 1.3, 101), columns=2)
    sec = {"embedder": {"name": "ngram", "dim": 256}, "distance_profile": prof,
           "default_tau": 0.25}
    model = px.PexesoModel(SimpleNamespace(components={"pexeso": sec}))
    assert model.default_tau == pa.default_tau(prof, "ngram") >= 0.8
    old = px.PexesoModel(SimpleNamespace(components={"pexeso": {"embedder": {"name": "vectors"}}}))
    assert old.default_tau == px.DEFAULT_TAU                  # built before profiles


@pytest.mark.spark
def test_a_lake_with_fewer_distinct_values_than_pivots_builds_and_is_exact(spark, tmp_path_factory):
    """A lake of two distinct values (fewer than the pivots the build asks for) builds with
    the n-gram embedder, its pivots repeated so every mapped vector keeps |P| coordinates
    (the build failed with Spark's array index error), and a search equals the brute force."""
    from conftest import write_lake

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.embed import get_embedder
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("tinylake")
    lake = write_lake(root / "lake", {"t.csv": pd.DataFrame({"x": ["1"], "y": ["2"]})})
    path = root / "ix"
    build(lake, path, spark=spark, progress=False, settings=BuildSettings(
        components=("pexeso",), component_options={"pexeso": {"embedder": "ngram"}}))
    ix = open_index(path).index.generations[0]
    sec = ix.components["pexeso"]
    eng = open_index(path)
    q = pd.DataFrame({"c": ["1", "2", "3"]})
    res = eng.search(q, "c", method="pexeso", k=None, joinability=0.3)
    emb = get_embedder(sec["embedder"])
    a = ix.arrays
    bf = px.bruteforce(ix.load_npy("pexeso/vectors.npy"), a.sets_indptr, a.sets_tokens,
                       emb.embed(res.query.tokens), res.stats["tau"])
    assert {h.column_ids[0]: h.overlap for h in res} == \
        {c: n for c, n in enumerate(bf) if n >= px.t_count(0.3, 3)}
    assert sorted((h.table, h.column) for h in res) == [("t", "x"), ("t", "y")]


@pytest.mark.spark
def test_ngram_defaults_find_one_character_typos(spark, tmp_path_factory):
    """With the n-gram embedder and no options, a query of one-character typos finds its
    column, each typo matched to its own value, though the lake also holds distinct values
    closer to each other than a typo is to its value (numbered depots), which pull the
    profile's quantile below every typo; the answer stays the brute force's."""
    from conftest import write_lake

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.embed import get_embedder
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("typolake")
    cities = list(TYPOS) + ["Barcelona", "Manchester", "Stockholm", "Edinburgh", "Marseille"]
    lake = write_lake(root / "lake", {
        "cities.csv": pd.DataFrame({"city": cities, "n": [str(i) for i in range(len(cities))]}),
        "depots.csv": pd.DataFrame({"depot": [f"Depot {i}" for i in range(101, 161)]})})
    path = root / "ix"
    build(lake, path, spark=spark, progress=False, settings=BuildSettings(
        components=("pexeso",), component_options={"pexeso": {"embedder": "ngram"}}))
    eng = open_index(path)
    ix = eng.index.generations[0]
    sec = ix.components["pexeso"]
    emb = get_embedder(sec["embedder"])
    d = np.linalg.norm(emb.embed(list(TYPOS)) - emb.embed(list(TYPOS.values())), axis=1)
    q = pd.DataFrame({"c": list(TYPOS.values())})
    assert not len(eng.search(q, "c", k=None, threshold=0.6))       # equality finds nothing
    res = eng.search(q, "c", method="pexeso", k=None)                # the defaults
    tau = res.stats["tau"]
    assert tau == sec["default_tau"] and np.all(d <= tau)
    assert [(h.table, h.column, h.overlap) for h in res] == [("cities", "city", len(TYPOS))]
    assert {a_: b for a_, b, _ in res[0].details["pairs"]} == \
        {t: v.lower() for v, t in TYPOS.items()}
    vec = ix.load_npy("pexeso/vectors.npy")
    a = ix.arrays
    bf = px.bruteforce(vec, a.sets_indptr, a.sets_tokens, emb.embed(res.query.tokens), tau)
    assert {h.column_ids[0]: h.overlap for h in res} == \
        {c: n for c, n in enumerate(bf) if n >= px.t_count(px.DEFAULT_T, len(TYPOS))}


@pytest.mark.spark
def test_pexeso_method_needs_the_component(demo_engine):
    from lakejoin_jupyter.errors import QueryError
    with pytest.raises(QueryError, match="pexeso"):
        demo_engine.search(["France"], method="pexeso")


def test_t_count_is_the_ceiling_of_t_times_q():
    """jn >= T  <=>  |Q_M| >= ceil(T |Q|) (Def. 2 has a fraction, Lemma 7 a count); at least one match."""
    assert px.t_count(0.6, 10) == 6 and px.t_count(0.61, 10) == 7
    assert px.t_count(1 / 3, 3) == 1 and px.t_count(0.5, 3) == 2
    assert px.t_count(0.0, 5) == 1 and px.t_count(1.0, 7) == 7


@pytest.mark.parametrize("levels", [2, 6])
def test_exact_on_the_circle_where_pivot_bounds_are_tight(levels):
    """2-d unit vectors: |d(x,p) - d(q,p)| is close to d(x,q), so every filter and matching
    lemma works at its limit; with T = 0 every column's exact count is compared. Queries
    cluster near the pivots, so cells hold many queries (Lemma 6 uses their max)."""
    rng = np.random.default_rng(levels)
    ang = np.sort(rng.uniform(0, 2 * np.pi, 600))
    vec = np.c_[np.cos(ang), np.sin(ang)].astype(np.float32)
    sets = [np.arange(i, min(i + 40, 600)) for i in range(0, 600, 15)]
    indptr = np.r_[0, np.cumsum([len(s) for s in sets])].astype(np.int64)
    toks = np.concatenate(sets).astype(np.int32)
    part = pa.build_partition(vec, indptr, toks, n_pivots=2, levels=levels)
    piv = np.arctan2(part.pivots[:, 1], part.pivots[:, 0])
    qa = np.concatenate([p + rng.normal(0, 0.15, 60) for p in piv] + [rng.uniform(0, 6.3, 60)])
    q = np.c_[np.cos(qa), np.sin(qa)].astype(np.float32)
    for tau in (0.01, 0.05, 0.1, 0.2, 0.4):
        check_against_bruteforce(part, vec, indptr, toks, q, tau, 0.0)


def test_lemma7_keeps_a_column_that_can_still_just_reach_t():
    """|Q| = 4, T = 2 of 4: a column matching only the last two query vectors processed is
    pruned only when |Q| - mismatch < T, never at equality (Lemma 7). One column
    per pair of query vectors, so whatever order the search takes the vectors in, some
    column matches exactly the last two."""
    from itertools import combinations
    q = np.eye(4, dtype=np.float32)
    vec = np.vstack([q, -q[0]]).astype(np.float32)
    pairs = list(combinations(range(4), 2))
    indptr = np.arange(0, 2 * len(pairs) + 1, 2, dtype=np.int64)
    toks = np.array([t for p in pairs for t in p] + [], dtype=np.int32)
    part = pa.build_partition(vec, indptr, toks, n_pivots=2, levels=3)
    for batch in (1, 10**6):
        r = px.search([part], vec, q, 0.1, 0.5, len(pairs), batch_size=batch)
        assert sorted(r.columns.tolist()) == list(range(len(pairs)))
        assert r.counts.tolist() == [2] * len(pairs)


@pytest.mark.spark
def test_empty_result_says_what_tau_found_nothing(fuzzy_index, capsys, tmp_path):
    """An empty fuzzy / semantic search names its tau and joinability and how to loosen
    them (CLI, notebook HTML), not "shares no value"."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    eng = open_index(fuzzy_index[1])
    q = pd.DataFrame({"v": ["qqqqzzzz", "xxxjjjjv", "wwwkkkyy"]})
    res = eng.search(q, "v", method="pexeso", k=5, tau=0.01)
    assert len(res) == 0
    assert "within distance tau = 0.01 of 60% of the query's values" in res.empty_message
    assert "No query value has a lake value within this tau" in res.empty_message
    assert "-O tau=" not in res.empty_message
    import html
    assert html.escape(res.empty_message) in res._repr_html_()
    q.to_csv(tmp_path / "q.csv", index=False)
    assert cli(["search", str(fuzzy_index[1]), "-t", str(tmp_path / "q.csv"), "-c", "v",
                "-m", "pexeso"]) == 0
    out = capsys.readouterr().out
    assert "fuzzy / semantic search" in out and "shares a value" not in out
    hits = eng.search(q, "v", method="pexeso", k=5, tau=2.0, joinability=0.1)
    assert len(hits) and all(h.jaccard is None and 0 < h.containment <= 1 for h in hits)


@pytest.mark.spark
def test_no_hit_advice_is_the_joinability_the_closest_column_reaches(fuzzy_index):
    """An empty fuzzy search suggests the joinability its closest column reaches at the same
    tau (measured), not a larger tau, and names that column (table and column): following
    the advice finds that column, every pair right."""
    import re

    from lakejoin_jupyter import open_index
    eng = open_index(fuzzy_index[1])
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz", "xxxjjjjv", "wwwkkkyy",
                            "zzqqvvkk"]})
    res = eng.search(q, "v", method="pexeso", k=5)
    assert len(res) == 0
    msg = res.empty_message
    assert "the closest column (table gdp/gdp, column nation) matches 3 of the 7 (43%)" in msg
    assert "-O tau=" not in msg
    t = float(re.search(r"-O joinability=([0-9.]+) \(CLI", msg).group(1))
    assert t == 0.42 and f"joinability={t:g} (search())" in msg
    hits = eng.search(q, "v", method="pexeso", k=5, joinability=t)
    assert [(h.table, h.column) for h in hits] == [("gdp/gdp", "nation")]
    assert {(a, b) for a, b, _ in hits[0].details["pairs"]} == \
        {("GERMANY", "germany"), ("france", "france"), ("Chile", "chile")}


@pytest.mark.spark
def test_no_hit_advice_over_added_tables_names_the_closest_column_of_all(spark, tmp_path):
    """An index with added tables (two generations): the empty search's message gives the
    tau and joinability searched once, not summed over the generations, and names the
    closest column of all of them (here in the added one) with its own count."""
    from conftest import write_lake

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    first = write_lake(tmp_path / "a", {k: v for k, v in FUZZY_LAKE.items() if k != "gdp/gdp.csv"})
    added = write_lake(tmp_path / "b", {"gdp/gdp.csv": FUZZY_LAKE["gdp/gdp.csv"]})
    out = tmp_path / "ix"
    assert cli(["index", str(first), "--out", str(out), "-q", "--with", "pexeso", "--set",
                "pexeso.pivots=3", "--set", "pexeso.embedder=ngram:dim=64"]) == 0
    assert cli(["index", "--add", str(added), str(out), "-q"]) == 0
    eng = open_index(out)
    assert len(eng.index.generations) == 2
    tau = eng.index.generations[0].components["pexeso"]["default_tau"]
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz", "xxxjjjjv", "wwwkkkyy",
                            "zzqqvvkk"]})
    res = eng.search(q, "v", method="pexeso", k=5)
    assert len(res) == 0
    assert res.stats["tau"] == tau and res.stats["T"] == 0.6
    msg = res.empty_message
    assert f"within distance tau = {tau:.3g} of 60% of the query's values" in msg
    assert "the closest column (table gdp/gdp, column nation) matches 3 of the 7 (43%)" in msg
    assert "-O joinability=0.42 (CLI" in msg


@pytest.mark.spark
def test_cli_join_of_a_pexeso_hit_is_the_fuzzy_join(fuzzy_index, tmp_path, capsys):
    """`lakejoin join -m pexeso --hit N` joins as the widget's Fuzzy join and
    engine.fuzzy_join do (the hit's values match within tau, not equal), instead of
    pointing to Python; options that shape equi-joins only are refused in one line."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    eng = open_index(fuzzy_index[1])
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz", "xxxjjjjv"],
                      "n": ["1", "2", "3", "4", "5"]})
    q.to_csv(tmp_path / "q.csv", index=False)
    q = pd.read_csv(tmp_path / "q.csv", dtype=str)
    hit = eng.search(q, "v", method="pexeso", k=5, joinability=0.5)[0]
    assert (hit.table, hit.column) == ("gdp/gdp", "nation")
    index, out = str(fuzzy_index[1]), tmp_path / "j.csv"
    args = ["join", index, "-t", str(tmp_path / "q.csv"), "-c", "v", "-m", "pexeso",
            "-O", "joinability=0.5", "--hit", "1", "--out", str(out)]
    assert cli(args + ["--how", "inner"]) == 0
    err = capsys.readouterr().err
    assert "joined with the fuzzy join" in err and "Python" not in err
    want = eng.fuzzy_join("gdp/gdp", q, on=("nation", "v")).join(q, how="inner")
    got = pd.read_csv(out, dtype=str)
    pd.testing.assert_frame_equal(got, want.astype(str).reset_index(drop=True),
                                  check_dtype=False)
    assert set(zip(got["v"], got["nation"])) == \
        {("GERMANY", "germany"), ("france", "FRANCE"), ("Chile", "Chile")}
    assert cli(args + ["--aggregate", "first", "--overwrite"]) == 1
    err = capsys.readouterr().err
    assert "--aggregate first: hit 1 matches similar values" in err and len(err.splitlines()) == 1


@pytest.mark.spark
def test_magic_join_of_a_pexeso_hit_is_the_clis_fuzzy_join(fuzzy_index, tmp_path, monkeypatch):
    """`%lakejoin join N` of a PEXESO hit joins it as `lakejoin join -m pexeso` does (one
    path, actions.join_hit: the fuzzy join at --precision-target), giving the hand-checked
    pairs; the cell --insert writes, run in a new Python process, gives the same frame."""
    import subprocess
    import sys

    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.ui.session import SESSION
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz", "xxxjjjjv"],
                      "n": ["1", "2", "3", "4", "5"]})
    q.to_csv(tmp_path / "q.csv", index=False)
    q = pd.read_csv(tmp_path / "q.csv", dtype=str)
    index, out = str(fuzzy_index[1]), tmp_path / "j.csv"
    assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "v", "-m", "pexeso",
                "-O", "joinability=0.5", "--hit", "1", "--how", "inner", "--out",
                str(out)]) == 0
    by_cli = pd.read_csv(out, dtype=str)
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "lakejoin_jupyter")
    monkeypatch.setattr(SESSION, "engine", None)
    inserted = []
    monkeypatch.setattr(ip, "set_next_input", lambda text, replace=False: inserted.append(text))
    ip.user_ns["pq"] = q
    ip.run_line_magic("lakejoin", f"open '{index}'")
    hits = ip.run_line_magic("lakejoin", "search pq.v -m pexeso -O joinability=0.5 --save ph")
    assert [(h.table, h.column) for h in hits] == [("gdp/gdp", "nation")]
    ip.run_line_magic("lakejoin", "join 1 --from ph --how inner --into pj --insert --quiet")
    got = ip.user_ns["pj"]
    assert set(zip(got["v"], got["nation"])) == \
        {("GERMANY", "germany"), ("france", "FRANCE"), ("Chile", "Chile")}
    pd.testing.assert_frame_equal(got.astype(str).reset_index(drop=True), by_cli,
                                  check_dtype=False)
    script = (f"import pandas as pd\npq = pd.read_csv({str(tmp_path / 'q.csv')!r}, dtype=str)\n"
              f"{inserted[-1]}\npj.to_pickle({str(tmp_path / 'pj.pkl')!r})\n")
    subprocess.run([sys.executable, "-c", script], check=True)
    pd.testing.assert_frame_equal(pd.read_pickle(tmp_path / "pj.pkl"), got)
    # new user 10, D8: named as the widget's Fuzzy join names it, so a later equality join
    # of the same table (its own name) never replaces it
    ip.run_line_magic("lakejoin", "join 1 --from ph --quiet")
    assert "pq_gdp_fuzzy" in ip.user_ns and "pq_gdp" not in ip.user_ns


@pytest.mark.spark
def test_precision_target_outside_its_range_is_refused_saying_the_range(fuzzy_index, tmp_path,
                                                                       capsys, monkeypatch):
    """--precision-target outside 0.5-1 (lakejoin join, %lakejoin join),
    precision_target= (actions.join_hit, the path both call) and the widget's Fuzzy join
    action get one message naming the accepted range and the value given; nothing is
    joined or bound."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.actions import get as actions_get
    from lakejoin_jupyter.actions import join_hit
    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.errors import LakeJoinError
    from lakejoin_jupyter.magics import MagicError
    from lakejoin_jupyter.ui.session import SESSION
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz"]})
    q.to_csv(tmp_path / "q.csv", index=False)
    index, out = str(fuzzy_index[1]), tmp_path / "j.csv"
    for p in ("1.5", "0.4", "-1"):
        assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "v", "-m", "pexeso",
                    "-O", "joinability=0.5", "--hit", "1", "--out", str(out),
                    "--precision-target", p]) == 1
        err = capsys.readouterr().err
        assert f"--precision-target {p}: give a value between 0.5 and 1." in err
        assert len(err.strip().splitlines()) == 1 and not out.exists()
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "lakejoin_jupyter")
    monkeypatch.setattr(SESSION, "engine", None)
    ip.user_ns["pt_q"] = q
    ip.run_line_magic("lakejoin", f"open '{index}'")
    ip.run_line_magic("lakejoin", "search pt_q.v -m pexeso -O joinability=0.5 --save pt_h")
    for p in ("1.5", "0.4"):
        with pytest.raises(MagicError, match=rf"^--precision-target {p}: give a value between "
                                             rf"0\.5 and 1\.$"):
            ip.run_line_magic("lakejoin", f"join 1 --from pt_h --into pt_j --precision-target {p}")
    assert "pt_j" not in ip.user_ns
    eng = open_index(fuzzy_index[1])
    hit = eng.search(q, "v", method="pexeso", k=5, joinability=0.5)[0]
    for p in (1.5, 0.4):
        with pytest.raises(LakeJoinError, match=rf"^precision_target={p:g}: the fuzzy join "
                                                rf"of the hit gdp/gdp\.nation .* Give a value "
                                                rf"between 0\.5 and 1 \(default 0\.9\)\.$"):
            join_hit(eng, hit, q, precision_target=p)
        with pytest.raises(QueryError, match=rf"'precision_target' is a number from 0\.5 to 1 "
                                             rf"\(got {p:g}\)"):
            actions_get("fuzzy_join")(eng, hit, q, precision_target=p)   # the widget's action


@pytest.mark.spark
def test_cli_join_without_a_hit_gives_the_searchs_advice_and_refuses_an_idle_target(
        fuzzy_index, tmp_path, capsys):
    """New user 10, D14: `lakejoin join -m pexeso --hit 1` finding nothing says what
    `lakejoin search` says (the closest column, -O joinability=...); --precision-target
    given for an equal-values hit, which it does not shape, is refused in one line (as the
    equi-join's options are for a fuzzy hit), nothing written."""
    from lakejoin_jupyter.cli import main as cli
    q = pd.DataFrame({"v": ["GERMANY", "france", "Chile", "qqqqzzzz", "xxxjjjjv", "wwwkkkyy",
                            "zzqqvvkk"]})
    q.to_csv(tmp_path / "q.csv", index=False)
    index, out = str(fuzzy_index[1]), tmp_path / "j.csv"
    query = ["-t", str(tmp_path / "q.csv"), "-c", "v", "-m", "pexeso"]
    assert cli(["search", index] + query) == 0
    advice = [line for line in capsys.readouterr().out.splitlines()
              if "-O joinability=" in line]
    assert len(advice) == 1 and "-O joinability=0.42 (CLI" in advice[0]
    assert cli(["join", index] + query + ["--hit", "1", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert advice[0] in err and len(err.strip().splitlines()) == 1 and not out.exists()
    pd.DataFrame({"v": ["Germany", "France", "Brazil", "Japan"]}).to_csv(tmp_path / "e.csv",
                                                                       index=False)
    equal = ["join", index, "-t", str(tmp_path / "e.csv"), "-c", "v", "--hit", "1",
             "--out", str(out)]
    assert cli(equal + ["--precision-target", "0.9"]) == 1
    err = capsys.readouterr().err
    assert "--precision-target 0.9: hit 1 matches equal values" in err
    assert "applies only to similar-values hits (-m pexeso)" in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()
    assert cli(equal) == 0 and out.exists()


def test_a_pexeso_hit_card_lists_the_similar_pairs_first():
    """The card of a PEXESO hit shows the matched values that are not equal to their lake
    value (the ones to check, farthest first) before the equal ones, and counts both."""
    import re
    from types import SimpleNamespace
    from lakejoin_jupyter.engine import CARD_VALUES, Hit, Query
    equal = [f"pkg{i:02d}" for i in range(10)]
    similar = [("bfeautifulsoup4", "beautifulsoup4", 0.2), ("urllio3", "urllib3", 0.3),
               ("promt_toolkit", "prompt_toolkit", 0.1)]
    tokens = sorted(equal + [q for q, _, _ in similar] + ["nomatch"])
    display = {t: t.upper() if t.startswith("pkg") else t for t in tokens}
    pairs = [(display[t], t, 0.0) for t in equal[:5]] + [similar[0]] + \
            [(display[t], t, 0.0) for t in equal[5:]] + similar[1:]
    matched = [p[0].lower() for p in pairs]
    q = Query(columns=("name",), tokens=tokens, size=len(tokens), display=display, n_rows=14)
    hit = Hit(rank=1, table="t", table_id=0, columns=("c",), column_ids=(0,), score=0.9,
              overlap=len(pairs), containment=0.9, jaccard=None, method="pexeso", exact=True,
              query_columns=("name",),
              details={"matched_tokens": matched, "pairs": pairs, "tau": 0.4},
              _engine=SimpleNamespace(added_columns=lambda h: []), _query=q)
    values = re.search(r"class='lakejoin-values'>(.*?)</div>", hit.card()).group(1)
    text = re.sub(r"<[^>]+>", "", values)
    assert text.startswith("matched (13): 3 similar, not equal (check them): "
                           "urllio3 \u2192 urllib3, bfeautifulsoup4 \u2192 beautifulsoup4, "
                           "promt_toolkit \u2192 prompt_toolkit; 10 equal: PKG00, PKG01, ")
    assert text.count("PKG") == CARD_VALUES and "not matched (1): nomatch" in text


@pytest.mark.spark
def test_adding_tables_keeps_the_base_pivots_and_default_tau_and_stays_exact(
        spark, fuzzy_index, tmp_path):
    """`lakejoin index --add`: the added generation maps its values onto the base
    generation's pivots and keeps its distance profile (one default tau for the whole
    index) instead of computing both again from the added tables; the build says so, and
    every plan still answers as the brute force over both generations."""
    import shutil

    from conftest import write_lake

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.embed import get_embedder
    from lakejoin_jupyter.indexing.pipeline import build
    path = tmp_path / "ix"
    shutil.copytree(fuzzy_index[1], path)
    more = write_lake(tmp_path / "more", {"visits/more.csv": pd.DataFrame(
        {"land": ["Deutschland", "Viet Nam", "Chile", "Cote dIvoire", "Peru", "Japan"]})})
    report = build(more, path, spark=spark, progress=False, add=True)
    note = " ".join(report.notes)
    assert ("pexeso kept the base generation's distance profile (the default tau) and "
            "pivots") in note, note
    eng = open_index(path)
    base, added = eng.index.generations
    sb, sa = base.components["pexeso"], added.components["pexeso"]
    assert sorted(sa["kept_from_base"]) == ["distance_profile", "pivots"]
    assert np.array_equal(added.load_npy("pexeso/part0000/pivots.npy"),
                          base.load_npy("pexeso/part0000/pivots.npy"))
    assert px.PexesoModel(added).default_tau == px.PexesoModel(base).default_tau
    assert "pexeso: choosing pivots" not in report.phase_seconds
    assert "pexeso: distance profile (default tau)" not in report.phase_seconds
    emb = get_embedder(sb["embedder"])
    q = pd.DataFrame({"c": ["Cote d'Ivoire", "Germany", "Vietnam", "Chile", "Peru"]})
    for tau in (0.3, 0.7):
        want = None
        for plan in ("pexeso", "bruteforce"):
            res = eng.search(q, "c", method="pexeso", tau=tau, joinability=0.4, k=None,
                             plan=plan)
            got = {(h.table, h.column, h.overlap) for h in res}
            assert want is None or got == want
            want = got
        oracle = set()
        for gen in (base, added):
            a = gen.arrays
            bf = px.bruteforce(gen.load_npy("pexeso/vectors.npy"), a.sets_indptr, a.sets_tokens,
                               emb.embed(res.query.tokens), tau)
            oracle |= {(gen.column_offset + c, n) for c, n in enumerate(bf)
                       if n >= px.t_count(0.4, len(res.query.tokens))}
        assert {(h.column_ids[0], h.overlap) for h in res} == oracle
        assert tau < 0.5 or any(h.table == "visits/more" for h in res)
