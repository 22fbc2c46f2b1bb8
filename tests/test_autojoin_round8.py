"""Issue 26 round 8: years written with two digits, a number labelled in one column and a
code in the other, common whole keys of an N:1 join, and programs the independent evidence
contradicts. Hand-built tables with hand-checked answers (the pair rules themselves are
checked against the oracle in test_autojoin_pairs.py)."""
from __future__ import annotations

import datetime
import random

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.pairs import ColumnValues, PairGroup, RowPair, find_pair_group
from lakejoin_jupyter.join.autojoin.pipeline import Table
from lakejoin_jupyter.join.autojoin.programset import _gains_rows, evidence_counts
from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program


def _all_rows_right(aj, left, right, left_key, right_key):
    truth = {(i, j) for i, a in enumerate(left_key) for j, b in enumerate(right_key) if a == b}
    assert set(aj.pairs(fuzzy=False)) == truth


def test_a_two_digit_year_pairs_with_the_four_digit_one():
    """"3/1/22" and "2022-03-01" share no 3-gram and their token bags differ ("22" vs
    "2022"); with 4-digit numbers cut to their last two digits they are one bag, and the
    bag pair replaces the row's 1-to-1 gram pair to another day ("3/13/" of 2019)."""
    s = ColumnValues.from_cells("d", ["3/1/22", "3/13/18"])
    t = ColumnValues.from_cells("t", ["2022-03-01", "3/13/2019", "3/13/2018"])
    got = {(p.source_row, p.target_row, p.score) for p in find_pair_group(s, t).pairs}
    assert got == {(0, 0, 1.0), (1, 2, 1.0)}


def test_unpadded_short_dates_join_iso_days():
    """N:1: candidates with their primary date ("8/2/22", unpadded, year in two digits) and
    a district number; the target holds one row per day of 2021-2022 (ISO). The program
    must read the date, not equate district numbers with days of the month."""
    rng = random.Random(3)
    days = [datetime.date(2021, 1, 1) + datetime.timedelta(d) for d in range(730)]
    primaries = rng.sample([d for d in days if d.year == 2022 and 3 <= d.month <= 9], 12)
    names = ["".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(4))
             for _ in range(150)]
    rows = [(nm.title(), str(rng.randint(1, 30)), rng.choice(primaries)) for nm in names]
    left = pd.DataFrame({"Candidate": [r[0] for r in rows], "District": [r[1] for r in rows],
                         "Primary Date": [f"{d.month}/{d.day}/{d.year % 100}"
                                          for _, _, d in rows]})
    right = pd.DataFrame({"date": [d.isoformat() for d in days],
                          "estimate": [str(rng.randint(30, 60)) for _ in days]})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.found and "Primary Date" in aj.program.describe()
    assert "District" not in aj.program.describe()
    _all_rows_right(aj, left, right, [d.isoformat() for _, _, d in rows], list(right["date"]))


def test_state_and_labelled_district_make_the_seat_code():
    """"AK" + "District 1" -> "AK-01": no column has a gram of the code's number, so the
    labelled number ("District 1") pairs with the codes of that number, and the state's
    matches narrow them to one (the program: state + "-" + the number padded to 2)."""
    counts = {"AK": 1, "AL": 7, "AZ": 9, "CA": 12, "CO": 8, "FL": 11, "GA": 14, "IA": 4,
              "NY": 13, "TX": 15, "WA": 10, "OH": 12}
    rows = [(st, f"District {d}") for st, n in counts.items() for d in range(1, n + 1)]
    left = pd.DataFrame({"state": [r[0] for r in rows], "seat": [r[1] for r in rows],
                         "polls": [str(i % 5) for i in range(len(rows))]})
    codes = [f"{st}-{int(seat.split()[1]):02d}" for st, seat in rows]
    right = pd.DataFrame({"district": codes[::-1], "rating": ["Lean R"] * len(codes)})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.program.describe() == \
        '`state` + "-" + word 2 of `seat` padded with zeros to 2'
    _all_rows_right(aj, left, right, codes, list(right["district"]))


def test_counties_join_their_state_although_every_state_name_recurs():
    """N:1: "Martin County, Kentucky" -> "Kentucky". Each state is in 70+ county names, so
    its 1/(n m) falls below min_score and the thesis's scoring keeps only chance 1-to-1
    fragments ("alif" of "Halifax" in "California"); a whole key as words of the value,
    that common, pairs with score 1 in a group of its own (the most common one when a
    county is named after another state: "Ohio County, Kentucky")."""
    states = ["Alabama", "Alaska", "Arizona", "California", "Colorado", "Connecticut",
              "Delaware", "Indiana", "Kentucky", "Louisiana", "Maryland", "Ohio",
              "Pennsylvania", "Tennessee", "Virginia", "West Virginia", "Washington",
              "Wyoming", "Texas", "New Hampshire"]
    words = ["Halifax", "Lorain", "Louisa", "Meade", "Simpson", "Crittenden", "Mason",
             "Forest", "Adams", "Martin", "Boone", "Clark", "Greene", "Lake", "Union",
             "Warren", "Wayne", "Logan", "Knox", "Perry", "Marion", "Monroe", "Scott",
             "Butler", "Clay", "Floyd", "Grant", "Harlan", "Jackson", "Lewis"]
    rng = random.Random(7)
    home = ["Kentucky", "Ohio", "Pennsylvania", "Virginia"]
    names, truth = [], []
    for st in home:
        for w in words + ["Washington", "Delaware", "Indiana", "Wyoming"]:
            for kind in ("County", "city", "Parish") if w in words[:24] else ("County",):
                names.append(f"{w} {kind}, {st}")
                truth.append(st)
    order = list(range(len(names)))
    rng.shuffle(order)
    left = pd.DataFrame({"NAME": [names[i] for i in order],
                         "turnout": [f"{rng.uniform(10, 60):.2f}%" for _ in order]})
    right = pd.DataFrame({"State": states, "bills": [str(rng.randint(0, 40)) for _ in states]})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.found and aj.source == "left"
    _all_rows_right(aj, left, right, [truth[i] for i in order], states)


def test_a_branch_must_not_rekey_more_rows_than_it_joins():
    """Program sets (N:1): a branch that adds keys by re-keying rows that were joined
    already (to other keys) is refused: it gains fewer rows than it changes."""
    keys = {"a", "b", "c", "d"}
    current = ["a", "a", "b", "b", None, "x"]
    assert _gains_rows(current, ["c", "d", "b", "b", None, None], keys) is False
    assert _gains_rows(current, [None, None, None, None, "c", "d"], keys) is True
    assert _gains_rows(current, ["c", None, None, None, "d", "d"], keys) is True
    assert _gains_rows(current, ["c", None, None, None, "d", None], keys) is False


def test_evidence_holds_for_every_row_with_the_value():
    """A value's pairs are made for its first row; every row holding the value has the same
    evidence, so a program contradicting it is counted against on all of them."""
    left = pd.DataFrame({"d": ["x1", "x1", "x1", "x2", "x2"], "n": ["7", "8", "9", "7", "8"]})
    src = Table(left, "left")
    src.use_all()
    tcells = ["k1", "k2", "k7", "k8", "k9"]
    groups = [PairGroup("d", "t", [RowPair(0, 0, "", 1.0), RowPair(3, 1, "", 1.0)])]
    wrong = Program((Constant("k"), Column("n")))
    # row 2 is the only row the program gives "k9": N:1 evidence (a value of three rows)
    # does not check a key joined 1:1 (deviation 39); the other four rows share their keys
    assert evidence_counts(wrong, src, tcells, groups, "t") == (0, 4)
