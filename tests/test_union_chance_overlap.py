"""A set overlap that chance gives more often than not is no set evidence: a query column of
four one-decimal numbers (0.5, 0.6, 0.7, 2.7), all among a wind-speed column's 79 values
(0.0-7.8), shares what the hypergeometric null gives with probability C(79,4) / C(83,4) =
0.82 (the domain the two columns' disjoint union, 83 values). Its statistic was
-log10 0.82 = 0.09, above the 0 of every background column sharing nothing, so its set
likelihood was 1.0 and the wind column ranked second for a frame of towns and populations.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine
from lakejoin_jupyter.index import union_profile as up


def test_an_overlap_chance_gives_more_often_than_not_is_no_evidence():
    """set_statistic against scipy's exact tail: 0 wherever P(X >= t) > 1/2, the bound of
    the tail elsewhere; the user's pair (4 of 4 in 79 of 83) is 0."""
    from scipy.stats import hypergeom
    assert hypergeom.sf(3, 83, 4, 79) == pytest.approx(79 * 78 * 77 * 76 / (83 * 82 * 81 * 80))
    assert up.set_statistic(4, 4, 79) == 0.0
    rng = np.random.default_rng(5)
    for _ in range(500):
        na, nb = rng.integers(1, 120, 2)
        pop = int(na + nb + rng.integers(0, 3) * rng.integers(0, 200))
        t = rng.integers(0, min(na, nb) + 1)
        p = hypergeom.sf(t - 1, pop, na, nb)
        got = up.set_statistic(t, na, nb, pop)
        if p > 0.5 + 1e-9:
            assert got == 0.0, (t, na, nb, pop, p)
        else:
            assert got <= -np.log10(p) + 1e-6
    # what stays: two flags sharing both values (1/6, given that they meet 1/5); one value
    # shared by two constants is no evidence (they meet: test_union_chance_containment.py)
    assert up.set_statistic(2, 2, 2) == pytest.approx(-np.log10(1 / 5))
    assert up.set_statistic(1, 1, 1) == 0.0


WIND = [round(0.1 * i, 1) for i in range(79)]            # 0.0 .. 7.8, 79 distinct values
AIRPORT_ELEV = [int(v) for v in np.random.default_rng(11).choice(5000, 40, replace=False)]


@pytest.fixture(scope="module")
def wind_lake(spark, tmp_path_factory):
    rng = np.random.default_rng(2)
    n = 400
    tables = {
        "weather.csv": pd.DataFrame({"date": pd.date_range("2012-01-01", periods=n).strftime("%Y-%m-%d"),
                                     "wind": WIND * 5 + list(rng.choice(WIND, n - 5 * len(WIND))),
                                     "weather": rng.choice(["rain", "sun", "fog", "snow"], n)}),
        "airports.csv": pd.DataFrame({"city": ["Seattle", "Boston", "Denver", "Chicago",
                                               "Atlanta", "Houston", "Phoenix", "Dallas"] * 5,
                                      "elev": AIRPORT_ELEV}),
        "people.csv": pd.DataFrame({"last_name": [f"Name{i}" for i in range(60)],
                                    "age": rng.integers(18, 90, 60)}),
    }
    engine = lake_engine(spark, tmp_path_factory, "windlake", tables, components=UNION_ONLY)
    return engine


@pytest.mark.spark
def test_small_decimals_among_a_wind_column_carry_no_set_evidence(wind_lake):
    q = pd.DataFrame({"town": ["Seattle", "Boston", "Denver", "Chicago", "Atlanta"],
                      "pop": [0.7, 0.6, 0.7, 2.7, 0.5]})
    hits = wind_lake.search_unionable(q, k=5)
    wind = [h for h in hits if h.table == "weather"]
    for h in wind:                 # listed or not: the pair has no set evidence
        got = h.evidence.get("pop")
        assert got is None or got["set"] == 0.0, got
    # sharing more than chance still counts: 20 of the 40 airports' elevations (0-5000).
    # (30 of the wind column's values are chance now: it holds every one-decimal number from
    # 0.0 to 7.8, so any such numbers; test_union_chance_containment.py)
    q20 = pd.DataFrame({"height": AIRPORT_ELEV[:20]})
    top = wind_lake.search_unionable(q20, k=3)
    assert top[0].table == "airports" and top[0].evidence["height"]["set"] > 0.5
    q30 = pd.DataFrame({"speed": WIND[:60:2]})
    got = next((h.evidence.get("speed") for h in wind_lake.search_unionable(q30, k=3)
                if h.table == "weather"), None)
    assert got is None or got["set"] == 0.0, got
