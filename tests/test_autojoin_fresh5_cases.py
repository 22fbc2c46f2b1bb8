"""The committed fresh5 Auto-Join cases (bench/data/autojoin-fresh5) meet their admission
criteria, checked with the case maker's hand-written reference functions only (no learner
runs here): every case is in FRESH5_CASES, the target key is a key, the join is 1:1 or N:1,
every ground-truth row names a source and a target row, and the reference function writes
the target key of at least 90 % of the truth pairs.

Regenerating the cases needs the lake tables, which the tests do not have: the
determinism check runs only when AUTOJOIN_LAKES names the lake folder (skipped otherwise).
"""
from __future__ import annotations

import ast
import filecmp
import importlib.util
import os
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "autojoin-fresh5"


def _maker():
    spec = importlib.util.spec_from_file_location("autojoin_make_cases",
                                                  ROOT / "bench" / "autojoin_make_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fresh5_split() -> set:
    """FRESH5_CASES as written in bench/autojoin_eval.py (read, not imported: importing the
    evaluator would import the learner)."""
    tree = ast.parse((ROOT / "bench" / "autojoin_eval.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "FRESH5_CASES" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("FRESH5_CASES is missing from bench/autojoin_eval.py")


REFERENCE = _maker().FRESH5_REFERENCE


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def test_cases_split_and_references_agree():
    folders = {p.name for p in DATA.iterdir() if p.is_dir()}
    assert folders == set(REFERENCE) == _fresh5_split()
    assert len(folders) >= 10


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    source = _read(DATA / case / "source.csv")
    target = _read(DATA / case / "target.csv")
    truth = _read(DATA / case / "ground_truth.csv")
    ns = source.shape[1]
    assert truth.shape[1] == ns + target.shape[1]
    assert target[key].is_unique, "the target key column is not a key"

    src_rows = {tuple(r): i for i, r in enumerate(source.itertuples(index=False))}
    tgt_rows = {tuple(r): j for j, r in enumerate(target.itertuples(index=False))}
    pairs = [(src_rows[tuple(r[:ns])], tgt_rows[tuple(r[ns:])])
             for r in truth.itertuples(index=False)]     # KeyError: a row not in the table
    assert pairs
    assert len({i for i, _ in pairs}) == len(pairs), "a source row joins twice (1:N)"

    rows = source.to_dict("records")
    keys = target[key].tolist()
    covered = sum(ref(rows[i]) == keys[j] for i, j in pairs)
    assert covered / len(pairs) >= 0.9


def test_reference_functions_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["turnout_county_states"]({"NAME": "Adams County, Ohio"}) == "Ohio"
    assert ref["mueller_topline_dates"]({"End": "8/7/18"}) == "8/7/2018"
    assert ref["primary_dates_approval"]({"Primary Date": "3/1/22"}) == "2022-03-01"
    assert ref["house_seat_codes"]({"state": "AK", "seat": "District 1"}) == "AK-01"
    assert ref["russia_defendants_lastfirst"]({"name": "Claude C. Wild, Jr."}) == \
        "Wild, Claude C., Jr."
    assert ref["russia_defendants_lastfirst"]({"name": "John W. Dean III"}) == "Dean, John W., III"
    assert ref["nba_tattoo_emails"]({"Player Name": "C.J. McCollum"}) == "cmccollum@nbpa.com"
    assert ref["nba_tattoo_emails"]({"Player Name": "Tim Hardaway Jr."}) == "thardaway@nbpa.com"
    assert ref["endorsement_labels"]({"year": "1980", "party": "Republican",
                                      "candidate": "George H.W. Bush"}) == \
        "George H.W. Bush (R, 1980)"
    assert ref["airline_review_urls"]({"airline": "Delta / Northwest*"}) == \
        "https://www.airlinequality.com/airline-reviews/delta-northwest"


@pytest.mark.skipif(not os.environ.get("AUTOJOIN_LAKES"),
                    reason="regenerating needs the lake tables: set AUTOJOIN_LAKES")
def test_regenerated_cases_are_identical(tmp_path):
    _maker().make_fresh5(Path(os.environ["AUTOJOIN_LAKES"]), tmp_path)
    for case in REFERENCE:
        for name in ("source.csv", "target.csv", "ground_truth.csv"):
            assert filecmp.cmp(DATA / case / name, tmp_path / case / name, shallow=False)
