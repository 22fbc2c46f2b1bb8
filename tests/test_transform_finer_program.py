"""Transformation-aware search: a program learned for an earlier candidate that merges the
sampled query values onto fewer keys (days onto January 1st of their year) does not stand
for a later column whose own program keeps more of them apart (days onto their month):
between programs joining as many sampled values, the finer one is the hit's
(docs/algorithms/transform_search.md, "A cached program is not kept when it is coarser")."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from conftest import write_lake

YEARS = range(2004, 2020)


def month_lake() -> dict:
    """A budget by year, its dates January 1st ("2004-01-01", three rows a year: verified
    first), and a monthly series ("2004-01-01", "2004-02-01", ...: one row a month)."""
    return {
        "budget.csv": pd.DataFrame({"year": [f"{y}-01-01" for y in YEARS for _ in range(3)],
                                    "dept": [d for _ in YEARS for d in ("a", "b", "c")],
                                    "spend": range(3 * len(YEARS))}),
        "jobs.csv": pd.DataFrame({"month": [f"{y}-{m:02d}-01" for y in YEARS
                                            for m in range(1, 13)],
                                  "nonfarm": range(12 * len(YEARS))}),
    }


def query_days(seed: int) -> list:
    """Days of 2004-2019, none the first of a month (no value equals a lake value)."""
    rng = random.Random(seed)
    start = dt.date(YEARS[0], 1, 1)
    days = {(start + dt.timedelta(days=rng.randrange(len(YEARS) * 365))).isoformat()
            for _ in range(40)}
    return sorted(d for d in days if not d.endswith("-01"))


@pytest.fixture(scope="module")
def month_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp("mlake") / "lake", month_lake())
    out = tmp_path_factory.mktemp("midx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["transform"])


@pytest.mark.spark
def test_days_join_a_monthly_column_on_their_month(month_engine):
    from lakejoin_jupyter.join.autojoin.dsl import Program, evaluate_columns
    days = query_days(3)
    res = month_engine.search(pd.DataFrame({"day": days}), "day", method="transform", k=10)
    found = {(h.table, h.column): h for h in res}
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    assert ("jobs", "month") in found, shown
    hit = found[("jobs", "month")]
    assert hit.details["direction"] == "query -> lake", shown
    program = Program.from_json(hit.details["program_json"])
    out = evaluate_columns(program.expr, {program.columns[0]: days}, len(days))
    assert out == [d[:8] + "01" for d in days], shown        # each day to its month
    # the hit's figures are the month program's: every day joins, one key per month
    assert hit.details["coverage"] == 1.0
    assert hit.details["query_ratio"] == pytest.approx(len(days) / len({d[:7] for d in days}))
    assert "year" not in (hit.details["key_warning"] or ""), hit.details["key_warning"]


@pytest.mark.spark
def test_a_few_days_a_year_apart_still_join_on_their_month(month_engine):
    """The learning sample may hold one day a year (it does not show the year program
    merging anything): the merging is judged on the whole query."""
    from lakejoin_jupyter.join.autojoin.dsl import Program, evaluate_columns
    days = ["2012-01-01", "2013-03-21", "2014-07-04", "2015-12-31", "2012-02-29"]
    res = month_engine.search(pd.DataFrame({"day": days}), "day", method="transform", k=10)
    found = {(h.table, h.column): h for h in res}
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    assert ("jobs", "month") in found, shown
    hit = found[("jobs", "month")]
    program = Program.from_json(hit.details["program_json"])
    out = evaluate_columns(program.expr, {program.columns[0]: days}, len(days))
    assert out == [d[:8] + "01" for d in days], shown
    assert hit.details["query_ratio"] == 1.0         # five days, five months
