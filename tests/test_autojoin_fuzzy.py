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
                                                  distance, match_probabilities, nearest_keys,
                                                  optimize_threshold, tokens)
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


@settings(max_examples=120, deadline=None)
@given(value_lists, value_lists, st.sampled_from(TOKENIZERS), st.sampled_from(DISTANCES))
def test_nearest_keys_equal_brute_force(derived, keys, t, d):
    near, first, ties = nearest_keys(derived, keys, t, d)
    for i, a in enumerate(derived):
        dist = [0.0 if a == b else distance(tokens(a, t), tokens(b, t), d) for b in keys]
        want = sorted(dist)[:3]
        assert near[i, :len(want)] == pytest.approx(want)
        assert np.isinf(near[i, len(want):]).all()
        lo = min(dist)
        assert first[i] == next(j for j, x in enumerate(dist) if x <= lo + 1e-9)
        assert ties[i] == sum(x <= lo + 1e-9 for x in dist)


def test_added_matches_carry_a_probability_and_an_estimated_precision():
    """The thesis example: the one match added (mpayne -> mipayne) is far closer to its key
    than to any other, so it is rated sure; the estimate is the mean over added matches;
    a derived value as near to two keys as to one (a tie) is rated at most 1/2."""
    derived = ["schowdhury@forsyth.k12.ga.us", "mpaluzzi@forsyth.k12.ga.us",
               "mpayne@forsyth.k12.ga.us", "ccraddock@forsyth.k12.ga.us", "kmoore@forsyth.k12.ga.us"]
    keys = ["schowdhury@forsyth.k12.ga.us", "mpaluzzi@forsyth.k12.ga.us",
            "mipayne@forsyth.k12.ga.us", "ccraddock@forsyth.k12.ga.us"]
    fz = constrained_fuzzy_join(derived, keys)
    assert set(fz.probability) == set(fz.matches)
    assert fz.estimated_precision == pytest.approx(np.mean(list(fz.probability.values())))
    assert fz.probability["mpayne@forsyth.k12.ga.us"] > 0.9
    assert "estimated precision" in fz.describe()


def test_probabilities_are_capped_by_ties_and_averaged_over_added_matches(monkeypatch):
    import lakejoin_jupyter.join.autojoin.fuzzy as fz_mod
    monkeypatch.setattr(fz_mod, "null_probability", lambda s1, s2: (np.zeros(len(s1)), 0.0))
    # "ab cd" is as near to "ab" as to "cd" (word Jaccard 0.5): at most 1/2; "ef" is sure
    p = match_probabilities(["ab cd", "ef"], ["ab", "cd", "ef"], "word", "jaccard")
    assert p.tolist() == [0.5, 1.0]
    monkeypatch.setattr(fz_mod, "match_probabilities",
                        lambda derived, keys, t, d, cache=None:
                        np.array([{"abcdx": 0.2, "vwxyz": 0.9}.get(v, 1.0) for v in derived]))
    # values of 5 letters (4 would be short codes, never matched by their q-grams)
    fz = constrained_fuzzy_join(["abcdx", "vwxyz", "q"], ["abcde", "vwxyq", "q"],
                                tokenizers=("2gram",), distances=("jaccard",))
    assert fz.matches == {"abcdx": "abcde", "vwxyz": "vwxyq"}
    assert fz.probability == {"abcdx": 0.2, "vwxyz": 0.9}
    assert fz.estimated_precision == pytest.approx(0.55)


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


def test_short_codes_a_character_apart_are_not_matched():
    """A placeholder "XXX" (no airport) is not NXX's typo: 2-gram Jaccard gives them 0.5
    ({xx} against {nx, xx}), and the step rated the match sure. Words a letter off still
    match ("Netherland" -> "Netherlands")."""
    keys = ["JFK", "LGA", "EWR", "NXX", "ATL", "LAX", "SFO", "ORD", "BOS", "MIA"]
    assert constrained_fuzzy_join(["JFK", "LGA", "EWR", "ATL", "XXX", "SFO"], keys) is None
    assert constrained_fuzzy_join(["DL5777", "UA0436"], ["DL5778", "UA0436"]) is None
    fz = constrained_fuzzy_join(["Netherland", "Italy", "Spain"],
                                ["Netherlands", "Italy", "Spain"])
    assert fz is not None and fz.matches == {"Netherland": "Netherlands"}
    from lakejoin_jupyter.join.autojoin.fuzzy import short_code
    assert [short_code(v) for v in ["XXX", "KJFK", "DL5777", "N846MQ", "France",
                                    "New York", "mpayne@forsyth.k12.ga.us", "ABCDEFG"]] == \
        [True, True, True, True, False, False, False, False]


def test_autojoin_of_airport_codes_adds_no_fuzzy_match_for_a_placeholder():
    import random
    import string

    import pandas as pd

    import lakejoin_jupyter as lj
    rng = random.Random(0)
    codes = sorted({"".join(rng.choice(string.ascii_uppercase) for _ in range(3))
                    for _ in range(400)} - {"XXX"})
    codes = [c for c in codes if "XX" not in c] + ["NXX"]
    airports = pd.DataFrame({"faa": codes, "alt": range(len(codes))})
    dest = rng.sample(codes[:-1], 30) + ["XXX"]
    fl = pd.DataFrame({"dest": dest, "arr_delay": range(len(dest))})
    aj = lj.autojoin(fl, "dest", airports, "faa")
    got = aj.join(fl)
    assert len(got) == fl.dest.isin(airports.faa).sum() == 30     # oracle: equality
    assert "XXX" not in set(got.dest)
