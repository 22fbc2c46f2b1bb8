"""Defects a new user found (report newuser15): Find transformation on an equality hit
joins at least the hit's equality (D5); the default top-k by usefulness shows the key
columns that many measure columns outrank by overlap (D1); the fuzzy join of a panel table
keeps every lake row of a matched value unless asked for the first (D2)."""
from __future__ import annotations

import re

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


PANEL_STATES = ["CALIFORNIA", "PENNSYLVANIA", "MASSACHUSETTS", "TEXAS", "MISSOURI", "OHIO",
                "NEVADA", "OREGON", "VERMONT", "KANSAS", "IOWA", "MAINE"]
YEARS = list(range(1970, 1987))
PANEL = pd.DataFrame({"state": [s for s in PANEL_STATES for _ in YEARS],
                      "year": YEARS * len(PANEL_STATES),
                      "gsp": np.arange(len(PANEL_STATES) * len(YEARS)) * 10})
TYPOS = pd.DataFrame({"state": ["Californa", "Pensylvania", "Massachusets", "Texas", "Misouri",
                                "New Yrok"]})


def _normalized(v) -> str:
    return " ".join(str(v).split()).lower()


@pytest.fixture(scope="module")
def states_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "nu15",
                       {"states/abbreviations.csv": ABBREVIATIONS, "states/codes.csv": CODES,
                        "stats/measures.csv": MEASURES, "econ/produc.csv": PANEL},
                       components=["pexeso"])


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
    # why the identity was kept, with the counts (choice.takes_over, why_taken)
    assert re.search(r"equal values \(case and spacing ignored\), the hit's Join: it joins 18 "
                     r"query rows, the learned .* 17, of the 20 query rows", out.summary), \
        out.summary
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
    assert every[0].key_warning is None
    assert all(h.key_warning for h in every if h.table == "stats/measures")   # flagged
    assert [h.overlap for h in every if h.table == "stats/measures"] == [20] * 30
    for k in (3, 10):
        top = states_engine.search(QUERY_FIPS, "fips", k=k, rank="useful")
        assert [(h.table, h.column) for h in top] == \
            [(h.table, h.column) for h in every[:k]]


@pytest.mark.spark
def test_the_fuzzy_join_of_a_panel_table_keeps_every_lake_row_of_a_matched_value(
        states_engine):
    """D2: 17 lake rows per state; the fuzzy join kept the first of them even with
    duplicates="all" (the default). Oracle: each query row whose value the fuzzy join
    matched (its matches()) takes every lake row of that value, the others stay once; with
    duplicates="first" one row per query row; the code gives the same frame in a fresh
    namespace; the CLI / magic flags accept --duplicates for a similar-values hit."""
    import argparse
    from lakejoin_jupyter.actions import join_hit
    from lakejoin_jupyter.cli import check_similar_join
    res = states_engine.search(TYPOS, "state", method="pexeso", joinability=0.3)
    hit = next(h for h in res if h.table == "econ/produc" and h.column == "state")
    out = join_hit(states_engine, hit, TYPOS, frame_name="typos")
    assert out.ok, out.summary
    matched = dict(zip(out.result.matches()["right"], out.result.matches()["left"]))
    assert len(matched) >= 4
    per_value = PANEL["state"].value_counts()
    assert len(out.joined) == sum(per_value[matched[v]] if v in matched else 1
                                  for v in TYPOS["state"])
    for v, lake in matched.items():
        years = out.joined.loc[out.joined["state"] == v, "year"]
        assert sorted(int(y) for y in years) == YEARS, v
    assert "duplicates = first" in out.summary          # says the rows were multiplied
    first = join_hit(states_engine, hit, TYPOS, duplicates="first", frame_name="typos")
    assert len(first.joined) == len(TYPOS)
    assert first.joined["year"].notna().sum() == len(matched)
    for done in (out, first):
        ns = {"typos": TYPOS.copy()}
        exec(compile(done.code("typos", "typos_out"), "<cell>", "exec"), ns)  # noqa: S102
        pd.testing.assert_frame_equal(ns["typos_out"], done.joined)
    args = argparse.Namespace(duplicates="first", aggregate="none", order_by=None,
                              dates="auto", precision_target=None)
    check_similar_join(args, 1, hit)                    # accepted, not refused


def _counted_runs(engine, name, monkeypatch) -> list:
    """The runs of method ``name`` from now on: (k asked, sets excluded, [(column ids,
    overlap)] given)."""
    method = engine.search_methods[name]
    real, runs = method.run, []

    def counted(index, query, params):
        out, stats = real(index, query, params)
        runs.append((params.k, set(query.exclude), [(c.column_ids, c.overlap) for c in out]))
        return out, stats
    monkeypatch.setattr(method, "run", counted)
    return runs


@pytest.mark.spark
def test_more_candidates_continue_where_the_method_stopped(states_engine, monkeypatch):
    """rank="useful" asking for more candidates: JOSIE (an exact top-k) is asked for the
    next ones alone, the sets it gave excluded, and together they are the top-k of the
    larger k (here every candidate: fewer than it); LSH Ensemble (a threshold search, whose
    k only cuts its answer) is asked once. The ranking is the one of every candidate."""
    from lakejoin_jupyter.engine import POOL_MAX
    every = states_engine.search(QUERY_FIPS, "fips", k=None, method="josie")
    oracle = sorted((h.column_ids, h.overlap) for h in every)
    runs = _counted_runs(states_engine, "josie", monkeypatch)
    top = states_engine.search(QUERY_FIPS, "fips", k=3, method="josie", rank="useful")
    assert [k for k, _, _ in runs] == [13, 39], runs          # max(2k, k + 10), then 4x more
    first, more = runs[0][2], runs[1][2]
    assert {ids[0] for ids, _ in first} <= runs[1][1]         # continued: the first excluded
    assert sorted(first + more) == oracle                       # exact: the larger k's
    useful = states_engine.search(QUERY_FIPS, "fips", k=None, method="josie", rank="useful")
    assert [h.column_ids for h in top] == [h.column_ids for h in useful[:3]]
    assert top[0].column == "ANSI_digits"
    runs = _counted_runs(states_engine, "lshensemble", monkeypatch)
    top = states_engine.search(QUERY_FIPS, "fips", k=3, method="lshensemble", threshold=0.5,
                               rank="useful")
    assert [k for k, _, _ in runs] == [POOL_MAX], runs
    useful = states_engine.search(QUERY_FIPS, "fips", k=None, method="lshensemble",
                                  threshold=0.5, rank="useful")
    assert [h.column_ids for h in top] == [h.column_ids for h in useful[:3]]
