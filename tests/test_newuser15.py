"""Defects a new user found (report newuser15): Find transformation on an equality hit
joins at least the hit's equality (D5); the default top-k by usefulness shows the key
columns that many measure columns outrank by overlap (D1)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine

STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
          "Delaware", "District of Columbia", "Florida", "Georgia", "Hawaii", "Idaho",
          "Illinois", "Indiana", "Iowa", "Kansas", "Louisiana", "Maine", "Maryland",
          "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
          "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina",
          "North Dakota", "Ohio", "Oklahoma", "Oregon", "Rhode Island", "South Carolina",
          "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Washington",
          "West Virginia", "Wisconsin", "Wyoming"]
ABBREVIATIONS = pd.DataFrame({"Name": STATES, "Status": ["State"] * len(STATES)})
# the user's query: case and padding vary, two values are not states
SALES = pd.DataFrame({"state": ["ALABAMA", " alaska ", "Arizona", "ARKANSAS", " california ",
                                "Colorado", "CONNECTICUT", " delaware ", "District of Columbia",
                                "FLORIDA", " georgia ", "Hawaii", "IDAHO", " illinois ",
                                "Indiana", "IOWA", " kansas ", "Louisiana", "PUERTO RICO",
                                " atlantis "],
                      "units": range(20)})


FIPS_IN_LAKE = [1, 2, 4, 5, 6, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 22, 23, 24]
QUERY_FIPS = pd.DataFrame({"fips": [1, 2, 4, 5, 6, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19,
                                    20, 22, 72, 99]})
# the identifier: FIPS codes as zero-padded text, 18 of the query's 20
CODES = pd.DataFrame({"ANSI_digits": [f"{i:02d}" for i in FIPS_IN_LAKE],
                      "label": [f"s{i}" for i in FIPS_IN_LAKE]})
# 30 measure columns of small integers, each holding all 20 query values many times
_rng = np.random.default_rng(0)
MEASURES = pd.DataFrame({f"m{j:02d}": _rng.permutation(np.tile(np.arange(100), 6))
                         for j in range(30)})


def _normalized(v) -> str:
    return " ".join(str(v).split()).lower()


@pytest.fixture(scope="module")
def states_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "nu15",
                       {"states/abbreviations.csv": ABBREVIATIONS, "states/codes.csv": CODES,
                        "stats/measures.csv": MEASURES})


@pytest.mark.spark
def test_find_transformation_on_an_equality_hit_joins_what_the_equality_joins(states_engine):
    """D5: learned on the hit's columns, Auto-Join's program (title of `state` without
    spaces, undoing " alaska ") lost "District of Columbia"; the join must reach every query
    row the hit's equality reaches (oracle: case and spacing ignored, 18 of 20), in
    hit.autojoin, in Find transformation and in its code run in a fresh namespace."""
    from lakejoin_jupyter.actions import get
    lake = {_normalized(v) for v in STATES}
    expected = [i for i, v in enumerate(SALES["state"]) if _normalized(v) in lake]
    assert len(expected) == 18
    hit = next(h for h in states_engine.search(SALES, "state", k=5)
               if h.table == "states/abbreviations" and h.column == "Name")
    aj = hit.autojoin(SALES)
    joined = aj.join(SALES)
    assert len(joined) == len(SALES)
    assert sorted(joined.index[joined["Name"].notna()]) == expected
    out = get("autojoin")(states_engine, hit, SALES, frame_name="sales")
    assert out.ok, out.summary
    assert out.joined["Name"].notna().sum() == 18
    assert "100%" not in out.summary
    ns = {"sales": SALES}
    exec(compile(out.code("sales", "sales_out"), "<cell>", "exec"), ns)  # noqa: S102
    pd.testing.assert_frame_equal(ns["sales_out"], out.joined)


@pytest.mark.spark
def test_the_default_top_k_by_usefulness_shows_keys_below_many_measures(states_engine):
    """D1: 30 measure columns hold all 20 query FIPS codes, the identifier column 18; the
    usefulness rank saw only the method's top max(2k, k + 10) by overlap, all measures, and
    missed the identifier that ranks first among all the candidates (k=None)."""
    every = states_engine.search(QUERY_FIPS, "fips", k=None, rank="useful")
    assert every[0].table == "states/codes" and every[0].column == "ANSI_digits"
    assert sum(h.key_warning is None for h in every) == 1          # the measures are flagged
    assert [h.overlap for h in every if h.table == "stats/measures"] == [20] * 30
    for k in (3, 10):
        top = states_engine.search(QUERY_FIPS, "fips", k=k, rank="useful")
        assert [(h.table, h.column) for h in top] == \
            [(h.table, h.column) for h in every[:k]]
