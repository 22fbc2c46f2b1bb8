"""The committed fresh7 Auto-Join cases (bench/data/autojoin-fresh7) meet their admission
criteria, checked with the case maker's hand-written reference functions only (no learner
runs here): every case is in FRESH7_CASES and split_of names it "fresh7", the target key is
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
import re
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "autojoin-fresh7"


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
    if "FRESH7_CASES" not in ns:
        raise AssertionError("FRESH7_CASES is missing from bench/autojoin_eval.py")
    return ns


REFERENCE = _maker().FRESH7_REFERENCE


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def test_cases_split_and_references_agree():
    folders = {p.name for p in DATA.iterdir() if p.is_dir()}
    splits = _eval_splits()
    assert folders == set(REFERENCE) == set(splits["FRESH7_CASES"])
    assert 10 <= len(folders) <= 12
    assert {splits["split_of"](case) for case in folders} == {"fresh7"}
    earlier = set().union(*(v for k, v in splits.items()
                            if k.endswith("_CASES") and k != "FRESH7_CASES"))
    assert not folders & earlier


def test_cases_read_only_new_folders():
    """Criterion (a), on the case maker's source: the fresh7 section reads only folders of
    its pool, none of which any other part of the case maker reads, and no reference/
    file."""
    text = (ROOT / "bench" / "autojoin_make_cases.py").read_text()
    rule = "# " + "-" * 66 + " "
    start = text.index(rule + "fresh7 validation")
    end = text.index(rule, start + len(rule))
    fresh7, rest = text[start:end], text[:start] + text[end:]
    folders = lambda t: set(re.findall(r'"fivethirtyeight/([^/"{}]+)', t))
    read = folders(fresh7)
    assert read and read <= set(_maker()._FRESH7_POOL)
    assert not read & folders(rest)
    assert '"reference/' not in fresh7


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
    assert ref["love_actually_display_names"]({"actor": "bill_nighy"}) == "Bill Nighy"
    assert ref["masculinity_quake_income"]({"q0034": "$50,000-$74,999"}) == "$50,000 to $74,999"
    assert ref["masculinity_quake_income"]({"q0034": "$200,000+"}) == "$200,000 and up"
    assert ref["masculinity_quake_income"]({"q0034": "Prefer not to answer"}) == \
        "Prefer not to answer"
    assert ref["masculinity_quake_divisions"]({"q0035": "East North Central"}) == \
        "East North Central Division"
    assert ref["nonvoters_steak_sex_codes"]({"gender": "Female"}) == "F"
    assert ref["love_actually_lastfirst"]({"actors": "emma_thompson"}) == "Thompson, Emma"
    assert ref["nonvoters_income_dollars"]({"income_cat": "$40-75k"}) == "$40,000-$75,000"
    assert ref["nonvoters_income_dollars"]({"income_cat": "Less than $40k"}) == "Less than $40,000"
    assert ref["nonvoters_income_dollars"]({"income_cat": "$125k or more"}) == "$125,000 or more"
    assert ref["pulitzer_wikipedia_urls"]({"Newspaper": "Chicago Sun-Times"}) == \
        "https://en.wikipedia.org/wiki/Chicago_Sun-Times"
    assert ref["steak_census_divisions"]({"Location (Census Region)": "Pacific"}) == \
        "Pacific Division"
    assert ref["tarantino_letterboxd_urls"]({"movie": "Kill Bill: Vol. 1"}) == \
        "https://letterboxd.com/film/kill-bill-vol-1/"
    assert ref["unisex_decade_labels"]({"decade": "1930"}) == "1930s"


@pytest.mark.skipif(not os.environ.get("AUTOJOIN_LAKES"),
                    reason="regenerating needs the lake tables: set AUTOJOIN_LAKES")
def test_regenerated_cases_are_identical(tmp_path):
    _maker().make_fresh7(Path(os.environ["AUTOJOIN_LAKES"]), tmp_path)
    for case in REFERENCE:
        for name in ("source.csv", "target.csv", "ground_truth.csv"):
            assert filecmp.cmp(DATA / case / name, tmp_path / case / name, shallow=False)
