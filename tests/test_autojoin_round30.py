"""Auto-Join round 30: the rows a token-bag reading contradicts are a count over every
joined row without evidence, not a sample beside the rows with evidence (the estimated
precision, deviation 56). Hand-built tables with hand-checked answers, and a development
case."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import Table
from lakejoin_jupyter.join.autojoin.programset import estimated_precision

BENCH = Path(__file__).resolve().parents[1] / "bench/data"


def _program(columns: tuple, outputs: list):
    return SimpleNamespace(columns=columns, evaluate=lambda cells, n: list(outputs))


# ---------------------------------------------------------------- the bags read apart


def _polls(n_plain: int):
    """Polls (start, end) onto model dates through the end date: rows 0-2 have a bag pair
    of the end date ("8/7/18" with "8/7/2018"), the next ``n_plain`` rows none (their end
    date reads as the key, right); the last row is given the key "9/30/2018" that neither
    date reads as (wrong, contradicted)."""
    start = [f"{m}/{d}/18" for m, d in [(8, 5), (8, 9), (8, 12)]]
    end = [f"{m}/{d}/18" for m, d in [(8, 7), (8, 12), (8, 14)]]
    for i in range(n_plain):
        start.append(f"{10 + i % 3}/{1 + i}/18")
        end.append(f"{10 + i % 3}/{3 + i}/18")
    start.append("9/28/18")
    end.append("9/29/18")
    keys = [e[:-2] + "2018" for e in end[:-1]] + ["9/30/2018"]
    src = Table(pd.DataFrame({"Start": start, "End": end}), "polls")
    groups = [PairGroup("End", "modeldate", [RowPair(i, i, "", 1.0) for i in range(3)])]
    return src, keys, groups


def _brute_precision(src, keys):
    """Hand-checked truth: a row is right where its key is its end date with the year whole."""
    end = src.cells("End")
    return sum(k == e[:-2] + "2018" for k, e in zip(keys, end)) / len(keys)


def test_contradicted_rows_count_over_every_joined_row():
    for n_plain in (3, 6, 16):
        src, keys, groups = _polls(n_plain)
        truth = _brute_precision(src, keys)
        assert truth == (len(keys) - 1) / len(keys)
        program = _program(("Start", "End"), keys)
        est = estimated_precision(program, src, keys, groups, "modeldate")
        # main: 3 agreeing rows and 1 contradicted, as if the 4 were the sample: 0.75 for
        # every n; the contradicted row is 1 of the len(keys) joined rows
        assert abs(est - truth) < 1e-9


def test_the_rate_of_the_checked_rows_holds_for_the_rest():
    # rows 0-2 checked, row 1's evidence names another key (a wrong row among the checked:
    # rate 2/3); 7 rows without evidence, one of them contradicted: 2/3 of the 6 others are
    # taken as right, so (2 + 6 * 2/3) / 10 = 2/3 * 9/10
    src, keys, _ = _polls(6)
    groups = [PairGroup("End", "modeldate", [RowPair(0, 0, "", 1.0), RowPair(1, 2, "", 1.0),
                                            RowPair(2, 2, "", 1.0)])]
    est = estimated_precision(_program(("Start", "End"), keys), src, keys, groups, "modeldate")
    assert abs(est - 2 / 3 * 9 / 10) < 1e-9         # main: 2 of 4 (0.5)


def test_without_a_contradiction_the_checked_rows_alone():
    src, keys, groups = _polls(6)
    keys = keys[:-1] + [src.cells("End")[-1][:-2] + "2018"]
    est = estimated_precision(_program(("Start", "End"), keys), src, keys, groups, "modeldate")
    assert est == 1.0


def test_poll_end_dates_estimate_near_the_measured_precision():
    # fresh5's mueller_topline_dates (development): the program takes each 2018 poll's end
    # date and gives 5 polls of 2017 a 2018 date (contradicted by the bags). Measured by the
    # ground truth: 34 of 39 joined rows right (0.872); main estimated 0.571 (8 of 9 rows with
    # evidence agree, the 5 contradicted counted as if they were 5 of 14 rows, not of 33)
    d = BENCH / "autojoin-fresh5/mueller_topline_dates"
    read = lambda name: pd.read_csv(d / f"{name}.csv", dtype=str, keep_default_na=False)
    polls, model, truth = read("source"), read("target"), read("ground_truth")
    aj = autojoin(polls, model, fuzzy=False)
    j = aj.join()
    got = {(r.Start, r.End, r.Pollster, r.modeldate) for r in j.itertuples() if r.modeldate}
    right = {(r.Start, r.End, r.Pollster, r.modeldate) for r in truth.itertuples()}
    measured = len(got & right) / len(got)
    assert abs(aj.estimated_precision - measured) < 0.15
