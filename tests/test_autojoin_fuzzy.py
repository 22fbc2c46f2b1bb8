"""Constrained fuzzy join (thesis §4.6, Algorithm 6 with its search direction fixed) and the
corrected sample-size formula (§4.5), each against a brute-force oracle."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin.fuzzy import (DISTANCES, TOKENIZERS, candidate_pairs,
                                                  check_constraint, constrained_fuzzy_join,
                                                  distance, optimize_threshold, tokens)
from lakejoin_jupyter.join.autojoin.sampling import (bernoulli_rows, failure_bound,
                                                     sample_rates)

words = st.text("abcd ", min_size=1, max_size=8)
value_lists = st.lists(words, min_size=1, max_size=8, unique=True)


def brute_pairs(derived, keys, t, d, max_distance):
    out = {}
    for i, a in enumerate(derived):
        for j, b in enumerate(keys):
            dist = 0.0 if a == b else distance(tokens(a, t), tokens(b, t), d)
            if dist <= max_distance + 1e-12:
                out[(i, j)] = dist
    return out


@settings(max_examples=120, deadline=None)
@given(value_lists, value_lists, st.sampled_from(TOKENIZERS), st.sampled_from(DISTANCES),
       st.sampled_from([0.2, 0.5, 0.7]))
def test_prefix_filter_finds_exactly_the_close_pairs(derived, keys, t, d, max_distance):
    ci, ki, dist = candidate_pairs(derived, keys, t, d, max_distance)
    got = {(int(i), int(j)): float(x) for i, j, x in zip(ci, ki, dist)}
    want = brute_pairs(derived, keys, t, d, max_distance)
    assert got.keys() == want.keys()
    for key in got:
        assert got[key] == pytest.approx(want[key])


@settings(max_examples=120, deadline=None)
@given(value_lists, value_lists, st.sampled_from(TOKENIZERS), st.sampled_from(DISTANCES))
def test_threshold_is_the_largest_feasible_one(derived, keys, t, d):
    ci, ki, dist = candidate_pairs(derived, keys, t, d, 0.5)
    s, cov = optimize_threshold(ci, ki, dist)
    # oracle: scan every distance, keep the largest one meeting both constraints
    feasible = [x for x in sorted(set(dist.tolist()))
                if _feasible(ci, ki, dist, x)]
    if not len(dist):
        assert (s, cov) == (0.0, 0)
        return
    if not feasible:
        assert s == -1.0
        return
    assert s == max(feasible)
    assert cov == len({int(j) for j, x in zip(ki, dist) if x <= s})
    # monotone: once infeasible, every larger threshold is infeasible too
    levels = sorted(set(dist.tolist()))
    flags = [_feasible(ci, ki, dist, x) for x in levels]
    assert flags == sorted(flags, reverse=True)


def _feasible(ci, ki, dist, s):
    to_keys, to_vals = {}, {}
    for i, j, x in zip(ci.tolist(), ki.tolist(), dist.tolist()):
        if x <= s:
            to_keys.setdefault(i, set()).add(j)
            to_vals.setdefault(j, set()).add(i)
    ok = all(len(v) <= 1 for v in to_keys.values()) and all(len(v) <= 1 for v in to_vals.values())
    assert ok == check_constraint(ci, ki, dist, s)
    return ok


def test_the_thesis_example_recovers_mipayne_but_not_kmoore():
    derived = ["schowdhury@forsyth.k12.ga.us", "mpaluzzi@forsyth.k12.ga.us",
               "mpayne@forsyth.k12.ga.us", "ccraddock@forsyth.k12.ga.us", "kmoore@forsyth.k12.ga.us"]
    keys = ["schowdhury@forsyth.k12.ga.us", "mpaluzzi@forsyth.k12.ga.us",
            "mipayne@forsyth.k12.ga.us", "ccraddock@forsyth.k12.ga.us"]
    a = tokens("mpayne@forsyth.k12.ga.us", "3gram")
    b = tokens("mipayne@forsyth.k12.ga.us", "3gram")
    assert distance(a, b, "jaccard") == pytest.approx(0.125)      # Example 4.6.2
    fz = constrained_fuzzy_join(derived, keys)
    assert fz is not None
    assert fz.matches == {"mpayne@forsyth.k12.ga.us": "mipayne@forsyth.k12.ga.us"}
    assert fz.coverage == 4 and fz.exact_coverage == 3 and fz.gain == 1


def test_no_gain_means_no_fuzzy_join():
    assert constrained_fuzzy_join(["abc", "xyz"], ["abc", "xyz"]) is None
    assert constrained_fuzzy_join([], ["abc"]) is None


# ------------------------------------------------------------------ sampling (§4.5)

def test_equal_tables_match_the_thesis_example():
    ps, pt = sample_rates(1_000_000, 1_000_000, participation=0.1)
    assert ps == pytest.approx(0.01414, abs=1e-4) and pt == pytest.approx(0.01414, abs=1e-4)


def test_the_printed_formula_swaps_the_rates():
    # thesis §4.5: N_s=1e6, N_t=1e4, c=20, r=0.1: Eq. 4.8 as printed asks p_s = 1.41
    ps, pt = sample_rates(1_000_000, 10_000, participation=0.1)
    assert pt == 1.0 and ps == pytest.approx(0.02)
    printed_ps = math.sqrt(4 * 1_000_000 / (0.2 * 0.1 * 10_000 ** 2))
    assert printed_ps > 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**7), st.integers(1, 10**7), st.sampled_from([0.01, 0.05, 0.1, 0.5]))
def test_rates_are_feasible_and_optimal(ns, nt, r):
    ps, pt = sample_rates(ns, nt, participation=r)
    c = 4 / (1 - 0.8)
    assert 0 < ps <= 1 and 0 < pt <= 1
    if ps < 1 or pt < 1:       # feasible: the expected number of joinable pairs reaches c
        assert nt * pt * ps * r >= c * (1 - 1e-9)
        # optimal: no feasible p_s on a fine grid samples fewer rows in total
        grid = np.linspace(max(c / (r * nt), 1e-9), 1.0, 2000)
        pts = np.minimum(c / (r * nt * grid), 1.0)
        feasible = nt * pts * grid * r >= c * (1 - 1e-9)
        best = (ns * grid + nt * pts)[feasible].min()
        assert ns * ps + nt * pt <= best * (1 + 1e-3)


def test_bernoulli_sample_and_bound():
    rows = bernoulli_rows(100_000, 0.01, seed=3)
    assert 800 < len(rows) < 1200 and np.all(np.diff(rows) > 0)
    assert len(bernoulli_rows(10, 1.0, seed=3)) == 10
    assert failure_bound(20) == pytest.approx(math.exp(-6.4))
    assert failure_bound(10) == 1.0
    with pytest.raises(ValueError):
        sample_rates(10, 10, participation=0)
