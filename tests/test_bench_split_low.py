"""bench/fuzzyjoin_split_low.py (calibration rounds 29-31): which joins are split low-ratio
joins, their corrected rating, a table's factor from its split joins, and a function's
near-sure floor from the reference table's own queries, on hand-computed cases."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_split_low as sl  # noqa: E402

INF = np.inf


def _cand(r_left, near):
    near = np.asarray(near, dtype=float)
    return SimpleNamespace(r_left=np.asarray(r_left), r_dist=near[:, 0], r_near=near)


def test_split_low_ratio_joins_by_hand():
    """Four right values, two functions.
    r0: a joins left 0 at s1 = 0.1 / 0.5 = 0.2, b joins left 1: split (low) for both
        (b's s1 = 0.2 / 0.4 = 0.5);
    r1: both join left 2, a at s1 = 0.1 / 0.2 = 0.5: unanimous, not split;
    r2: a joins left 0 at s1 = 0.9 / 1.0 (high), b joins left 1 at 0.3 / 0.6 = 0.5:
        split, but low for b only;
    r3: a joins left 0 at 0.2 / 0.4, b has no join (inf): not split."""
    a = _cand([0, 2, 0, 0], [[0.1, 0.5, 0.6], [0.1, 0.2, 0.9], [0.9, 1.0, 1.0],
                             [0.2, 0.4, 0.5]])
    b = _cand([1, 2, 1, -1], [[0.2, 0.4, 0.5], [0.3, 0.9, 1.0], [0.3, 0.6, 0.7],
                              [INF, INF, INF]])
    masks = sl.split_joins({"a": a, "b": b}, 0.7)
    assert masks["a"].tolist() == [True, False, False, False]
    assert masks["b"].tolist() == [True, False, True, False]
    agreed = {"a": np.array([0.9, 0.8, 0.6, 0.95]), "b": np.array([0.7, 0.8, 0.9, 0.0])}
    got = sl.split_corrected({"a": a, "b": b}, agreed, 0.7, 3.0)
    # 1 - 3 (1 - p): a's r0 0.9 -> 0.7; b's r0 0.7 -> 0.1, r2 0.9 -> 0.7, the rest as given
    assert got["a"] == pytest.approx([0.7, 0.8, 0.6, 0.95])
    assert got["b"] == pytest.approx([0.1, 0.8, 0.7, 0.0])
    # a factor that would take a rating below 0 stops at 0; the input is not changed
    got = sl.split_corrected({"a": a, "b": b}, agreed, 0.7, 5.0)
    assert got["b"][0] == 0.0 and agreed["b"][0] == 0.7
    # a factor of 1 is the join as it is
    same = sl.split_corrected({"a": a, "b": b}, agreed, 0.7, 1.0)
    assert all(np.array_equal(same[f], agreed[f]) for f in agreed)


def test_table_factor_by_hand():
    """Three right values, three functions (ratings after the agreement as given).
    r0: a joins left 0 (s1 = 0.2, p 0.9), c joins left 0 (s1 = 0.25, p 0.95), b joins
        left 1 (s1 = 0.5, p 0.8): two left values, one of them wrong at least; the
        ratings expect (1 - 0.95) + (1 - 0.8) = 0.25 (left 0 rated by its best, c's);
    r1: a and b join left 2 at low ratios: one left value, nothing to check;
    r2: a joins left 0 at s1 = 0.9 (high), b left 1 at 0.5: one low-ratio join only.
    Factor (1 + 1) / (0.25 + 1) = 1.6; every low-ratio join's 1 - p times 1.6, a's r2
    (high) as it is."""
    a = _cand([0, 2, 0], [[0.1, 0.5, 0.6], [0.1, 0.2, 0.9], [0.9, 1.0, 1.0]])
    b = _cand([1, 2, 1], [[0.2, 0.4, 0.5], [0.3, 0.9, 1.0], [0.3, 0.6, 0.7]])
    c = _cand([0, -1, -1], [[0.1, 0.4, 0.5], [INF, INF, INF], [INF, INF, INF]])
    cands = {"a": a, "b": b, "c": c}
    agreed = {"a": np.array([0.9, 0.95, 0.6]), "b": np.array([0.8, 0.9, 0.7]),
              "c": np.array([0.95, 0.0, 0.0])}
    assert sl.exclusive_counts(cands, agreed, 0.7) == pytest.approx((1.0, 0.25))
    assert sl.table_factor(cands, agreed, 0.7) == pytest.approx(1.6)
    got = sl.table_corrected(cands, agreed, 0.7)
    assert got["a"] == pytest.approx([0.84, 0.92, 0.6])
    assert got["b"] == pytest.approx([0.68, 0.84, 0.52])
    assert got["c"] == pytest.approx([0.92, 0.0, 0.0])
    assert agreed["a"][0] == 0.9                        # the input is not changed
    # ratings already pessimistic enough (expected >= wrong): factor 1, the join as it is
    low = {"a": np.array([0.4, 0.95, 0.6]), "b": np.array([0.3, 0.9, 0.7]),
           "c": np.array([0.5, 0.0, 0.0])}
    assert sl.table_factor(cands, low, 0.7) == 1.0
    same = sl.table_corrected(cands, low, 0.7)
    assert all(np.array_equal(same[f], low[f]) for f in low)


def _rated(r_left, near, p, pi0):
    c = _cand(r_left, near)
    c.p, c.pi0 = np.asarray(p, dtype=float), pi0
    return c


def test_near_sure_floor_by_hand():
    """Function a, five right values (ratios s1 = d1 / d2; ratings after the agreement as
    given; its own pi0 0.5):
    r0: s1 = 0 / 0.5 = 0, p 1.0: near-sure low-ratio;   r1: s1 = 0.1 / 0.5 = 0.2, p 0.995:
    near-sure low-ratio (the largest near-sure ratio: t = 0.2);   r2: s1 = 0.3 / 0.5 = 0.6,
    p 0.9: low-ratio, not near-sure;   r3: s1 = 0.9 (high), p 0.3;   r4: no join.
    N = 4 right values with a ratio, N_sure = 2. Ten reference queries (left values against
    the others), two forbidden (NaN): four at or below 0.2 (0, 0.1, 0.15, 0.2): r = 0.4.
    floor = 0.5 * 4 * 0.4 / 2 = 0.4: a's low-ratio joins p -> 0.6 p, r3 (high) and r4 as
    they are. Function b: no join rated 0.99 or more, floor 0: as it is. Function c: the
    same joins as a with pi0 1 and every query a near-sure null: 1 * 4 * 1.0 / 2 = 2,
    capped at 1: its low-ratio joins rated 0."""
    near = [[0.0, 0.5, 0.6], [0.1, 0.5, 0.6], [0.3, 0.5, 0.6], [0.9, 1.0, 1.0],
            [INF, INF, INF]]
    r_left = [0, 1, 2, 0, -1]
    raw = [0.5, 0.5, 0.5, 0.5, 0.0]          # before the agreement: nothing near-sure
    a, b, c = (_rated(r_left, near, raw, pi0) for pi0 in (0.5, 0.5, 1.0))
    ref = np.array([0.0, 0.1, 0.3, np.nan, 0.2, 0.9, 0.15, 0.5, np.nan, 1.0])
    cands = {"a": a, "b": b, "c": c}
    agreed = {"a": np.array([1.0, 0.995, 0.9, 0.3, 0.0]),
              "b": np.array([0.98, 0.95, 0.9, 0.3, 0.0]),
              "c": np.array([1.0, 0.995, 0.9, 0.3, 0.0])}
    low = sl.low_joins(cands, 0.7)
    assert low["a"].tolist() == [True, True, True, False, False]
    a.p = agreed["a"]
    assert sl.near_sure_floor(a, low["a"], ref) == pytest.approx(0.4)
    a.p = np.asarray(raw, dtype=float)
    assert sl.near_sure_floor(a, low["a"], ref) == 0.0      # read with the given ratings
    got = sl.floor_corrected(cands, agreed, 0.7, {"a": ref, "b": ref, "c": np.zeros(10)})
    assert got["a"] == pytest.approx([0.6, 0.597, 0.54, 0.3, 0.0])
    assert got["b"] == pytest.approx(agreed["b"])
    assert got["c"] == pytest.approx([0.0, 0.0, 0.0, 0.3, 0.0])
    assert a.p.tolist() == raw and agreed["a"][0] == 1.0     # inputs not changed
    # no reference ratios (a one-value left table): no floor
    got = sl.floor_corrected(cands, agreed, 0.7, {})
    assert all(np.array_equal(got[f], agreed[f]) for f in agreed)


def test_set_names_a_parameter_of_the_join(tmp_path, capsys):
    """``--set`` (the narrower bound's z) refuses a name join/ does not have, before any
    replay."""
    with pytest.raises(SystemExit):
        sl.main(["--work", str(tmp_path), "--variant", "split", "--set", "fuzzy.NO_SUCH=1"])
    assert "NO_SUCH" in capsys.readouterr().err
