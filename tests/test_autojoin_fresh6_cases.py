"""The committed fresh6 Auto-Join cases (bench/data/autojoin-fresh6) meet their admission
criteria, checked with the case maker's hand-written reference functions only (no learner
runs here): every case is in FRESH6_CASES and split_of names it "fresh6", the target key is
a key, the join is 1:1 or N:1, every ground-truth row names a source and a target row, and
the reference function writes the target key of at least 90 % of the truth pairs.

Regenerating the cases needs the lake tables, which the tests do not have: the
determinism check runs only when AUTOJOIN_LAKES names the lake folder (skipped otherwise).
"""
from __future__ import annotations

import ast
import filecmp
import hashlib
import importlib.util
import os
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "autojoin-fresh6"


def _maker():
    spec = importlib.util.spec_from_file_location("autojoin_make_cases",
                                                  ROOT / "bench" / "autojoin_make_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _eval_splits() -> dict:
    """The split constants and split_of of bench/autojoin_eval.py, run from its parsed
    source (not imported: importing the evaluator would import the learner)."""
    tree = ast.parse((ROOT / "bench" / "autojoin_eval.py").read_text())
    body = [n for n in tree.body
            if (isinstance(n, ast.Assign) and len(n.targets) == 1
                and getattr(n.targets[0], "id", "").endswith(("_CASES", "DEV_EXTRA")))
            or (isinstance(n, ast.FunctionDef) and n.name == "split_of")]
    ns = {"hashlib": hashlib}
    exec(compile(ast.Module(body=body, type_ignores=[]), "autojoin_eval splits", "exec"), ns)
    if "FRESH6_CASES" not in ns:
        raise AssertionError("FRESH6_CASES is missing from bench/autojoin_eval.py")
    return ns


REFERENCE = _maker().FRESH6_REFERENCE


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def test_cases_split_and_references_agree():
    folders = {p.name for p in DATA.iterdir() if p.is_dir()}
    splits = _eval_splits()
    assert folders == set(REFERENCE) == set(splits["FRESH6_CASES"])
    assert 10 <= len(folders) <= 12
    assert {splits["split_of"](case) for case in folders} == {"fresh6"}
    earlier = set().union(*(v for k, v in splits.items()
                            if k.endswith("_CASES") and k != "FRESH6_CASES"))
    assert not folders & earlier


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    source = _read(DATA / case / "source.csv")
    target = _read(DATA / case / "target.csv")
    truth = _read(DATA / case / "ground_truth.csv")
    ns = source.shape[1]
    assert truth.shape[1] == ns + target.shape[1]
    assert target[key].is_unique, "the target key column is not a key"
    assert not source.duplicated().any() and not target.duplicated().any()
    assert max(len(source), len(target)) <= 2000

    src_rows = {tuple(r): i for i, r in enumerate(source.itertuples(index=False))}
    tgt_rows = {tuple(r): j for j, r in enumerate(target.itertuples(index=False))}
    pairs = [(src_rows[tuple(r[:ns])], tgt_rows[tuple(r[ns:])])
             for r in truth.itertuples(index=False)]     # KeyError: a row not in the table
    assert len(pairs) >= 10
    assert len({i for i, _ in pairs}) == len(pairs), "a source row joins twice (1:N)"

    rows = source.to_dict("records")
    keys = target[key].tolist()
    covered = sum(ref(rows[i]) == keys[j] for i, j in pairs)
    assert covered / len(pairs) >= 0.9


def test_reference_functions_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["early_senate_marriage_dates"]({"year": "2006"}) == "2006-01-01"
    assert ref["food_survey_age_brackets"]({"Age": "18-29"}) == "18 - 29"
    assert ref["lake_files_index_urls"]({"path": "tennis-time/serve_times.csv"}) == \
        "https://github.com/fivethirtyeight/data/tree/master/tennis-time"
    assert ref["sleeping_alone_311_days"]({"StartDate": "7/9/14 18:37"}) == "7/9/14"
    assert ref["food_survey_income_brackets"]({"Household Income": "$25,000 - $49,999"}) == \
        "$25,000 to $49,999"
    assert ref["candidate_events_lastfirst"]({"Person": "Martin O'Malley"}) == "O'Malley, Martin"
    assert ref["candidate_events_lastfirst"]({"Person": "Mike Huckabee "}) == "Huckabee, Mike"
    assert ref["pepe_block_labels"]({"Block": "428940"}) == "Block #428940"
    assert ref["legislature_ocd_ids"]({"state": "MN", "chamber": "lower", "district": "01A"}) == \
        "ocd-division/country:us/state:mn/sldl:1a"
    assert ref["legislature_ocd_ids"]({"state": "TX", "chamber": "upper", "district": "10"}) == \
        "ocd-division/country:us/state:tx/sldu:10"
    assert ref["tennis_server_initials"]({"server": "Daniel Gimeno Traver"}) == "D. Gimeno Traver"
    assert ref["nfl_suspension_outlets"]({"source": "http://www.nfl.com/news/story/x"}) == "nfl.com"
    assert ref["nfl_suspension_outlets"]({"source": "http://sports.espn.go.com/nfl/news"}) == \
        "sports.espn.go.com"
    assert ref["guns_poll_end_dates"]({"End": "3/4/18"}) == "2018-03-04"
    assert ref["commencement_president_names"]({"president_name": "George H.W. Bush"}) == \
        "Bush, George H.W."


@pytest.mark.skipif(not os.environ.get("AUTOJOIN_LAKES"),
                    reason="regenerating needs the lake tables: set AUTOJOIN_LAKES")
def test_regenerated_cases_are_identical(tmp_path):
    _maker().make_fresh6(Path(os.environ["AUTOJOIN_LAKES"]), tmp_path)
    for case in REFERENCE:
        for name in ("source.csv", "target.csv", "ground_truth.csv"):
            assert filecmp.cmp(DATA / case / name, tmp_path / case / name, shallow=False)
