"""The committed fresh1 fuzzy-join cases (bench/data/fuzzyjoin-fresh1) have the promised form."""
from pathlib import Path

import pandas as pd
import pytest

FRESH = Path(__file__).resolve().parent.parent / "bench" / "data" / "fuzzyjoin-fresh1"
CASES = sorted(d for d in FRESH.iterdir() if d.is_dir()) if FRESH.is_dir() else []


def fold(s: str) -> str:
    return " ".join(str(s).casefold().split())


def test_four_to_six_cases():
    assert 4 <= len(CASES) <= 6
    assert sum(f.stat().st_size for d in CASES for f in d.iterdir()) <= 3_000_000


@pytest.mark.parametrize("case", CASES, ids=[d.name for d in CASES])
def test_case_form(case):
    left = pd.read_csv(case / "left.csv", keep_default_na=False)
    right = pd.read_csv(case / "right.csv", keep_default_na=False)
    gt = pd.read_csv(case / "gt.csv")
    assert list(left.columns) == ["id", "title"] and list(right.columns) == ["id", "title"]
    assert list(gt.columns) == ["id_l", "id_r"]
    assert 200 <= len(left) <= 5000 and 80 <= len(right) <= 2000
    assert left["id"].is_unique and right["id"].is_unique
    # gt ids exist on both sides; a right row has at most one partner
    assert gt["id_l"].isin(left["id"]).all() and gt["id_r"].isin(right["id"]).all()
    assert gt["id_r"].is_unique
    # left titles distinct, also after case folding and whitespace collapsing
    assert left["title"].map(fold).is_unique
    # no right row equal to its partner after folding (an equality join would find it)
    lt = dict(zip(left["id"], left["title"].map(fold)))
    rt = dict(zip(right["id"], right["title"].map(fold)))
    assert not [(a, b) for a, b in zip(gt["id_l"], gt["id_r"]) if lt[a] == rt[b]]
    # some right rows have no partner, and some left rows have none
    assert (~right["id"].isin(gt["id_r"])).sum() > 0
    assert (~left["id"].isin(gt["id_l"])).sum() > 0
    # the harness reads with pandas' defaults: no title may turn into a missing value
    for f in ("left.csv", "right.csv"):
        assert pd.read_csv(case / f)["title"].notna().all()
