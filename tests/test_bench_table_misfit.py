"""bench/fuzzyjoin_table_misfit.py against hand computations: the functions' agreement
A, the per-table signals read from a tiny synthetic dump (bench/fuzzyjoin_replay.py's
format), the per-dataset error of a measured path, the discounted bound of each variant,
and its ``fit`` (run through its ``fit`` subcommand) against numpy's least squares."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_table_misfit as tm  # noqa: E402
from lakejoin_jupyter.join import match_precision as mp  # noqa: E402

# three join functions' nearest left value per right value (-1: no join)
LEFTS = {"a": [0, 1, -1, 2, 4], "b": [0, 2, -1, -1, 4], "c": [0, 1, 3, -1, 4]}
# right value 0: all three agree (1); 1: two of three (2/3); 2 and 3: one function (1);
# 4: all three (1)
AGREEMENT = (1 + 2 / 3 + 1 + 1 + 1) / 5


def test_agreement_by_hand():
    assert tm.agreement({f: np.array(v) for f, v in LEFTS.items()}) == pytest.approx(AGREEMENT)
    assert tm.agreement({"a": np.array([-1, -1])}) == 1.0          # nothing joined


def _dump() -> dict:
    """A saved dataset of 5 right values, their nearest distances 0 (right values 0 and
    4), 0.1, 0.2, 0.3: functions a and c join each left value once, b joins right values 0
    and 4 both to left value 0."""
    lefts = {"a": [0, 1, -1, 2, 4], "b": [0, 2, -1, -1, 0], "c": [0, 1, 3, -1, 4]}
    raw = {}
    for f, left in lefts.items():
        left = np.array(left)
        d1 = np.array([0.0, 0.1, 0.2, 0.3, 0.0])
        near = np.stack([d1, d1 + 0.5, d1 + 0.6], axis=1)
        d = np.where(left >= 0, d1, np.inf)
        raw[f] = {"r_left": left, "r_dist": d, "r_near": near, "r_ties": np.ones(5, int),
                  "r_sibling": near[:, 1], "r_namesake": None}
    return {"name": "tiny", "suite": "test", "split": "dev", "raw": raw,
            "grids": {f: [0.05, 0.2, 0.5] for f in raw}, "n_rows": np.ones(5, int),
            "tp": {f: (np.array(r["r_left"]) >= 0).astype(int) for f, r in raw.items()},
            "n_truth": 5}


def test_table_signals_by_hand():
    d = _dump()
    got = tm.table_signals(d)
    lefts = {f: np.array(r["r_left"]) for f, r in d["raw"].items()}
    assert got["dataset"] == "tiny"
    assert got["log10_right"] == pytest.approx(np.log10(5))
    # right values 1 and 4: two of three functions agree; 0: all; 2 and 3: one function
    assert got["agreement"] == pytest.approx(tm.agreement(lefts))
    assert got["agreement"] == pytest.approx((1 + 2 / 3 + 1 + 1 + 2 / 3) / 5)
    # joins to a left value another join of the function shares: b's 2 of 3, none of a, c
    assert got["hub_share"] == pytest.approx((0 + 2 / 3 + 0) / 3)
    # joined right values at distance 0: a 2 of 4, b 2 of 3, c 2 of 4
    assert got["exact_share"] == pytest.approx((2 / 4 + 2 / 3 + 2 / 4) / 3)


def test_per_dataset_error_by_hand(tmp_path):
    path = tmp_path / "m_path.csv"
    pd.DataFrame({"dataset": ["A", "A", "A", "B"], "est": [0.8, 0.9, 0.7, 0.95],
                  "ach": [0.9, 0.85, 0.1, 0.95], "se": [0.05, 0.1, 0.2, 0.0]}).to_csv(
        path, index=False)
    got = tm.per_dataset_error(str(path))            # est 0.7 is below 0.75: left out
    assert got.loc["A", "mean_z"] == pytest.approx((0.1 / 0.05 - 0.05 / 0.1) / 2)
    assert got.loc["A", "mean_error"] == pytest.approx((0.1 - 0.05) / 2)
    assert got.loc["A", "wrong_ratio"] == pytest.approx((0.1 + 0.15) / (0.2 + 0.1))
    assert np.isnan(got.loc["B", "mean_z"])           # se 0: no z
    assert got.loc["B", "mean_error"] == pytest.approx(0.0)
    assert got.loc["B", "wrong_ratio"] == pytest.approx(1.0)


def test_discounted_bound_of_each_variant():
    tm.STATE["agreement"] = 0.5
    z = mp.STANDARD_ERRORS
    assert tm.discounted(0.9, 0.02, "base") == pytest.approx(0.9 - z * 0.02)
    assert tm.discounted(0.9, 0.02, "shift") == pytest.approx(
        0.9 - z * 0.02 - max(0.0, tm.SHIFT_A - tm.SHIFT_B * 0.5))
    assert tm.discounted(0.9, 0.02, "fdr") == pytest.approx(
        1 - max(1.0, tm.FDR_A - tm.FDR_B * 0.5) * 0.1 - z * 0.02)
    tm.STATE["agreement"] = 1.0                       # full agreement: no discount
    assert tm.discounted(0.9, 0.02, "shift") == pytest.approx(0.9 - z * 0.02)
    assert tm.discounted(0.9, 0.02, "fdr") == pytest.approx(0.9 - z * 0.02)


def _fitted(capsys, signals: pd.DataFrame, tmp_path) -> dict:
    path = tmp_path / "s.csv"
    signals.to_csv(path, index=False)
    tm.main(["fit", "--signals", str(path)])
    words = capsys.readouterr().out.split()
    return {words[i]: float(words[i + 1]) for i in range(0, len(words), 2)}


def test_fit_by_hand_and_against_least_squares(capsys, tmp_path):
    a = np.array([0.4, 0.6, 0.8, 0.9, 1.0])
    exact = pd.DataFrame({"agreement": a, "mean_error": 0.6 * a - 0.5,
                          "wrong_ratio": 6.0 - 5.0 * a})
    assert _fitted(capsys, exact, tmp_path) == pytest.approx(
        {"SHIFT_A": 0.5, "SHIFT_B": 0.6, "FDR_A": 6.0, "FDR_B": 5.0})
    rng = np.random.default_rng(3)
    a = rng.uniform(0.3, 1.0, 12)
    noisy = pd.DataFrame({"agreement": a, "mean_error": rng.normal(0, 0.1, 12),
                          "wrong_ratio": rng.uniform(0.5, 4.0, 12)})
    X = np.stack([a, np.ones_like(a)], axis=1)
    (b1, a1), (b2, a2) = (np.linalg.lstsq(X, noisy[c].to_numpy(), rcond=None)[0]
                          for c in ("mean_error", "wrong_ratio"))
    assert _fitted(capsys, noisy, tmp_path) == pytest.approx(
        {"SHIFT_A": -a1, "SHIFT_B": b1, "FDR_A": a2, "FDR_B": -b2}, abs=5e-5)


def test_subcommands_check_their_options(capsys):
    with pytest.raises(SystemExit):
        tm.main(["signals", "--work", "w"])                 # --path and --out missing
    assert "--path" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        tm.main(["--variant", "shift"])                     # a replay needs --work
    assert "--work" in capsys.readouterr().err
