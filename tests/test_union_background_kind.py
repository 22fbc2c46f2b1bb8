"""Table union search on a lake of many numeric columns and few text ones (the sixteenth
new user's D4, search/union.py): a column of true/false never aligns with a column of other
values (``booleans_apart``). The second test was the defect left open: island names
(three) sharing no value with a query's US states beat the lake's numeric columns on vectors
and formats and carried their table above the one holding the states; a few values are no
sample (``few_values``), so island has no such evidence (docs/algorithms/union.md, "States
among measurements", "A code column and far-apart numbers")."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine

STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
          "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa",
          "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan",
          "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
          "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina",
          "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island",
          "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont",
          "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming"]


def measure_lake():
    """Six tables of 50 numeric columns (the background is nearly all numbers, as in a lake
    of measurements); ``states`` (name, a coastal flag true/false, population); ``penguins``
    (island: three names, sex: male/female, year 2007-2009, two measurements). The query:
    12 rows of 10 states, a true/false flag and two years."""
    rng = np.random.default_rng(15)
    tables = {f"measures/m{t}.csv": pd.DataFrame(
        {f"x{t}_{c}": np.round(rng.normal(rng.uniform(-50, 500), rng.uniform(1, 40), 60), 2)
         for c in range(50)}) for t in range(6)}
    tables["geo/states.csv"] = pd.DataFrame({
        "name": STATES, "coastal": rng.random(50) < 0.5,
        "population": rng.integers(500_000, 40_000_000, 50)})
    n = 344
    tables["bio/penguins.csv"] = pd.DataFrame({
        "island": rng.choice(["Torgersen", "Biscoe", "Dream"], n),
        "sex": rng.choice(["male", "female"], n), "year": rng.choice([2007, 2008, 2009], n),
        "bill_mm": np.round(rng.normal(44, 5, n), 1), "mass_g": rng.integers(2700, 6300, n)})
    picked = ["Vermont", "Nevada", "Kentucky", "Ohio", "Texas", "Iowa", "Maine", "Utah",
              "Georgia", "Alabama", "Vermont", "Texas"]
    query = pd.DataFrame({"state": picked,
                          "south": [s in ("Kentucky", "Texas", "Georgia", "Alabama") for s in picked],
                          "year": [2012, 2012, 2008, 2008, 2012, 2008, 2012, 2008, 2012, 2008,
                                   2008, 2008]})
    return tables, query


@pytest.fixture(scope="module")
def measure_index(spark, tmp_path_factory):
    tables, query = measure_lake()
    engine = lake_engine(spark, tmp_path_factory, "mlake", tables, components=UNION_ONLY)
    return engine, tables, query


def _is_boolean(values: pd.Series) -> bool:
    """The oracle: every non-null value reads as true or false."""
    v = values.dropna().astype(str).str.strip().str.lower()
    return len(v) > 0 and v.isin(["true", "false"]).all()


@pytest.mark.spark
def test_a_boolean_aligns_only_with_a_boolean(measure_index):
    """south (true/false) never aligns with sex (male/female), nor any other column that is
    not true/false (read back from the lake files: the oracle); it does align with the
    states' coastal flag."""
    engine, tables, query = measure_index
    res = engine.search_unionable(query, k=10)
    assert res
    for h in res:
        frame = tables[h.table + ".csv"]
        for qcol, lcol, _ in h.alignment:
            if _is_boolean(query[qcol]) or _is_boolean(frame[lcol]):
                assert _is_boolean(query[qcol]) and _is_boolean(frame[lcol]), (h.table, qcol, lcol)
    states = next(h for h in res if h.table == "geo/states")
    assert ("south", "coastal") in {(q, x) for q, x, _ in states.alignment}


@pytest.mark.spark
def test_no_shared_value_and_a_numeric_background_carry_no_table(measure_index):
    """island shares none of the query's states and its n-gram vector is far from them; it
    beat the lake's numeric columns only, which never align with text. The table holding
    all the query's states is first, and penguins' island is aligned with nothing."""
    engine, tables, query = measure_index
    res = engine.search_unionable(query, k=10)
    assert set(query["state"]) <= set(tables["geo/states.csv"]["name"])     # hand-checked
    assert res[0].table == "geo/states"
    for h in res:
        if h.table == "bio/penguins":
            assert "island" not in {x for _, x, _ in h.alignment}
            assert h.score < res[0].score
