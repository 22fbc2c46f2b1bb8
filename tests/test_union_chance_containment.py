"""Set evidence of an overlap that chance gives (the seventeenth user's report, D2 and D8).

D2: one value shared by coincidence ("CHI": the Channel Islands' code, Chicago's team) among a
query's 15 country codes and a 30-value column of team abbreviations read as set evidence
0.975, so a table of NBA teams ranked above the table made to union. D8: a query's integer
percentages (16..43) all among a temperature column holding every integer from -5 to 62 but
two read as set evidence 1.0: any such integers are there by chance. What the statistic is now
(docs/algorithms/union.md, "Chance containment"): the hypergeometric tail given that the two
columns meet (a column is found because it shares a value, so one shared value is no
evidence); for numbers, the domain is the grid of numbers the two columns could hold where
the lake column reaches beyond the query's; and a statistic under p = 0.05 is no evidence
on any lake when both columns hold more than a few values.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine
from lakejoin_jupyter.index import union_profile as up


def brute_tail_given_meet(t, na, nb, m):
    """P(|Q ∩ X| >= t | |Q ∩ X| >= 1) for Q the first na of m values and X every nb-subset,
    counted one subset at a time."""
    q = set(range(na))
    meet = at_least = 0
    for x in itertools.combinations(range(m), nb):
        k = len(q.intersection(x))
        meet += k >= 1
        at_least += k >= t
    return at_least / meet if meet else 1.0


def test_set_statistic_is_the_tail_given_one_shared_value_brute_force():
    """Against every subset of small domains: 0 where the conditional tail is over 1/2
    (always for one shared value), else at most -log10 of it (the tail is bounded above),
    and exact where the tail is one value (t = min(na, nb))."""
    for m in range(2, 10):
        for na in range(1, m):
            for nb in range(1, m - na + 1 + (m > na)):
                if nb > m:
                    continue
                for t in range(1, min(na, nb) + 1):
                    if na + nb - t > m:
                        continue
                    p = brute_tail_given_meet(t, na, nb, m)
                    got = float(up.set_statistic(t, na, nb, m))
                    if p > 0.5 + 1e-9:
                        assert got == 0.0, (t, na, nb, m, p, got)
                    else:
                        assert got <= -np.log10(p) + 1e-9, (t, na, nb, m, p, got)
                    if t == min(na, nb) and p <= 0.5:
                        assert got == pytest.approx(-np.log10(p), abs=1e-9), (t, na, nb, m)
    # one shared value is no evidence, on any domain: the user's pair (1 of 15, 30 values)
    assert up.set_statistic(1, 15, 30, 1140) == 0.0
    assert np.all(up.set_statistic(1, np.arange(1, 40), 30, 10_000) == 0.0)
    # a domain smaller than the disjoint union: never below the values the columns hold
    assert up.set_statistic(10, 10, 64, 68) == 0.0          # C(64,10)/C(68,10) = 0.52


def test_set_statistic_against_scipy_on_larger_domains():
    from scipy.stats import hypergeom
    rng = np.random.default_rng(17)
    for _ in range(400):
        na, nb = rng.integers(1, 200, 2)
        pop = int(na + nb + rng.integers(0, 5000))
        t = int(rng.integers(1, min(na, nb) + 1))
        p = hypergeom.sf(t - 1, pop, na, nb) / hypergeom.sf(0, pop, na, nb)
        got = float(up.set_statistic(t, na, nb, pop))
        if p > 0.5 + 1e-9:
            assert got == 0.0
        else:
            assert got <= -np.log10(p) + 1e-6


def test_numeric_grid_and_its_size_by_hand_and_by_count():
    assert up.numeric_grid([16, 23, 34]) == (16.0, 34.0, 1.0)
    assert up.numeric_grid([0.5, 0.7, 2.7])[2] == pytest.approx(0.1)
    assert up.numeric_grid([1 / 3, 2.0])[2] == 0.0                   # no grid: continuous
    assert np.isnan(up.numeric_grid([])[0])
    # integers from -5 to 62 and a query's 16..34: 68 numbers
    assert up.grid_size(16, 34, 1.0, -5, 62, 1.0) == 68
    assert up.grid_size(16, 34, 1.0, -5, 62, 0.0) == np.inf
    rng = np.random.default_rng(3)
    for _ in range(200):
        d = int(rng.integers(0, 3))
        step = 10.0 ** -d
        a = np.round(rng.integers(-500, 500, 2) * step, d)
        b = np.round(rng.integers(-500, 500, 2) * step, d)
        lo, hi = min(a.min(), b.min()), max(a.max(), b.max())
        count = len({round(x, d) for x in np.arange(lo, hi + step / 2, step)})
        assert up.grid_size(a.min(), a.max(), step, b.min(), b.max(), step) == count


EUROPE = [("Albania", "ALB", "Southern Europe"), ("Austria", "AUT", "Western Europe"),
          ("Belgium", "BEL", "Western Europe"), ("Bulgaria", "BGR", "Eastern Europe"),
          ("Channel Islands", "CHI", "Northern Europe"), ("Croatia", "HRV", "Southern Europe"),
          ("Czechia", "CZE", "Eastern Europe"), ("Denmark", "DNK", "Northern Europe"),
          ("Estonia", "EST", "Northern Europe"), ("Finland", "FIN", "Northern Europe"),
          ("France", "FRA", "Western Europe"), ("Germany", "DEU", "Western Europe"),
          ("Greece", "GRC", "Southern Europe"), ("Hungary", "HUN", "Eastern Europe"),
          ("Ireland", "IRL", "Northern Europe")]
AFRICA = [("Algeria", "DZA"), ("Angola", "AGO"), ("Benin", "BEN"), ("Botswana", "BWA"),
          ("Burundi", "BDI"), ("Cameroon", "CMR"), ("Chad", "TCD"), ("Comoros", "COM"),
          ("Djibouti", "DJI"), ("Egypt", "EGY"), ("Eritrea", "ERI"), ("Eswatini", "SWZ"),
          ("Ethiopia", "ETH"), ("Gabon", "GAB"), ("Gambia", "GMB"), ("Ghana", "GHA"),
          ("Guinea", "GIN"), ("Kenya", "KEN"), ("Lesotho", "LSO"), ("Liberia", "LBR"),
          ("Libya", "LBY"), ("Madagascar", "MDG"), ("Malawi", "MWI"), ("Mali", "MLI"),
          ("Mauritania", "MRT"), ("Morocco", "MAR"), ("Namibia", "NAM"), ("Niger", "NER"),
          ("Nigeria", "NGA"), ("Rwanda", "RWA")]
AFRICA_REGIONS = ["Northern Africa", "Middle Africa", "Western Africa", "Southern Africa",
                  "Eastern Africa"]
TEAMS = [("Atlanta", "ATL", "Atlanta Hawks"), ("Boston", "BOS", "Boston Celtics"),
         ("Brooklyn", "BKN", "Brooklyn Nets"), ("Charlotte", "CHA", "Charlotte Hornets"),
         ("Chicago", "CHI", "Chicago Bulls"), ("Cleveland", "CLE", "Cleveland Cavaliers"),
         ("Dallas", "DAL", "Dallas Mavericks"), ("Denver", "DEN", "Denver Nuggets"),
         ("Detroit", "DET", "Detroit Pistons"), ("San Francisco", "GSW", "Golden State Warriors"),
         ("Houston", "HOU", "Houston Rockets"), ("Indianapolis", "IND", "Indiana Pacers"),
         ("Los Angeles", "LAC", "Los Angeles Clippers"), ("Los Angeles", "LAL", "Los Angeles Lakers"),
         ("Memphis", "MEM", "Memphis Grizzlies"), ("Miami", "MIA", "Miami Heat"),
         ("Milwaukee", "MIL", "Milwaukee Bucks"), ("Minneapolis", "MIN", "Minnesota Timberwolves"),
         ("New Orleans", "NOP", "New Orleans Pelicans"), ("New York", "NYK", "New York Knicks"),
         ("Oklahoma City", "OKC", "Oklahoma City Thunder"), ("Orlando", "ORL", "Orlando Magic"),
         ("Philadelphia", "PHI", "Philadelphia 76ers"), ("Phoenix", "PHX", "Phoenix Suns"),
         ("Portland", "POR", "Portland Trail Blazers"), ("Sacramento", "SAC", "Sacramento Kings"),
         ("San Antonio", "SAS", "San Antonio Spurs"), ("Toronto", "TOR", "Toronto Raptors"),
         ("Salt Lake City", "UTA", "Utah Jazz"), ("Washington", "WAS", "Washington Wizards")]
STATES = ["Alabama", "Florida", "Illinois", "Kentucky", "Minnesota", "Mississippi", "Missouri",
          "Nevada", "New Jersey", "Ohio", "Tennessee", "Utah", "Virginia", "Washington",
          "Wisconsin", "Texas", "Oregon", "Georgia", "Maine", "Iowa"]
CITIES = [t[0] for t in TEAMS] + [f"Town{i}" for i in range(50)]
TEMPS = [v for v in range(-5, 63) if v not in (44, 61)]      # 64 integers, -5..62


def filler(rng, i: int) -> pd.DataFrame:
    """A table of 10 unrelated columns (the lake's background: more than MIN_BACKGROUND
    columns in all, so no small-lake rule applies; with 12 of them about 30,000 distinct
    values, the vocabulary a small query column's domain nears, as in the user's lake)."""
    n = 500
    return pd.DataFrame({
        "id": np.arange(n) + 1000 * i, "amount": np.round(rng.normal(1e4, 3e3, n), 2),
        "code": [f"K{i}{j:03d}" for j in range(n)], "word": rng.choice(
            ["alpha", "beta", "gamma", "delta", "omega", "sigma"], n),
        "ratio": np.round(rng.uniform(0, 1, n), 4), "year": rng.integers(1900, 2030, n),
        "label": [f"item {j} of {i}" for j in range(n)], "big": rng.integers(10**6, 10**7, n),
        "grade": rng.choice(list("ABCDEFG"), n), "flag": rng.choice(["yes", "no"], n)})


@pytest.fixture(scope="module")
def chance_lake(spark, tmp_path_factory):
    rng = np.random.default_rng(17)
    days = 365
    tables = {
        "sports/teams.csv": pd.DataFrame(TEAMS, columns=["city", "abbreviation", "full_name"]),
        "geo/africa_extra.csv": pd.DataFrame(
            [(n, c, AFRICA_REGIONS[i % 5]) for i, (n, c) in enumerate(AFRICA)],
            columns=["Country", "code3", "region"]),
        "weather/station.csv": pd.DataFrame({
            "date": pd.date_range("2015-01-01", periods=days).strftime("%Y-%m-%d"),
            "record_min_temp": TEMPS * 5 + list(rng.choice(TEMPS, days - 5 * len(TEMPS))),
            "precipitation": np.round(rng.gamma(0.5, 0.3, days), 2)}),
        "police/killings.csv": pd.DataFrame({"city": CITIES, "age": rng.integers(16, 80, len(CITIES)),
                                             "name": [f"Person {i}" for i in range(len(CITIES))]}),
        # a table that does add rows of driver statistics: 13 of the query's states (p =
        # 0.001 on the two columns' 33 values) and 5 others, percentages
        "roads/drivers_more.csv": pd.DataFrame({
            "state": STATES[2:], "speeding_pct": [15, 19, 23, 28, 33, 36, 41, 43, 17, 21,
                                                  25, 30, 35, 38, 40, 22, 27, 31]}),
    }
    for i in range(12):
        tables[f"misc/filler_{i}.csv"] = filler(rng, i)
    engine = lake_engine(spark, tmp_path_factory, "chancelake", tables, components=UNION_ONLY)
    return engine


def pair_set(hits, table, column):
    """The set likelihood of the query column ``column`` in ``table``'s alignment (None:
    the table not listed or the column not aligned)."""
    for h in hits:
        if h.table == table:
            got = h.evidence.get(column)
            return None if got is None else got["set"]
    return None


@pytest.mark.spark
def test_one_coincidental_code_is_no_set_evidence(chance_lake):
    """D2: 15 European countries; one code, CHI, is also Chicago's. The teams' abbreviation
    column has no set evidence, and the table made to union (African countries, codes and
    regions under other names) ranks above the teams."""
    q = pd.DataFrame(EUROPE, columns=["name_short", "ISO3", "UNregion"])
    hits = chance_lake.search_unionable(q, k=10)
    assert chance_lake.index.n_sets > 100
    assert sum(g.n_tokens for g in chance_lake.index.generations) > 25_000
    got = pair_set(hits, "sports/teams", "ISO3")
    assert got is None or got == 0.0, got
    names = [h.table for h in hits]
    assert "geo/africa_extra" in names
    assert "sports/teams" not in names or names.index("geo/africa_extra") < names.index("sports/teams")


@pytest.mark.spark
@pytest.mark.parametrize("rows", [15, 40])
def test_integers_a_dense_column_holds_by_chance_are_no_set_evidence(chance_lake, rows):
    """D8: integer percentages among a temperature column holding every integer from -5 to
    62 but two: no set evidence, for the user's 15 rows (11 distinct values) and for 40 rows
    (26 distinct: significant on the two columns' disjoint union, not on the 68 integers
    the two could hold). A state shared with a city column (Washington) is no evidence
    either; the table that does share states and percentages keeps its set evidence."""
    rng = np.random.default_rng(rows)
    pct = [int(v) for v in rng.permutation(np.arange(16, 44))[:11]] if rows == 15 else \
        list(range(16, 42))
    q = pd.DataFrame({"us_state": (STATES[:15] * 3)[:rows],
                      "speeding": [pct[i % len(pct)] for i in range(rows)]})
    assert q["speeding"].nunique() == (11 if rows == 15 else 26)
    hits = chance_lake.search_unionable(q, k=10)
    got = pair_set(hits, "weather/station", "speeding")
    assert got is None or got == 0.0, got
    got = pair_set(hits, "police/killings", "us_state")
    assert got is None or got == 0.0, got
    assert "weather/station" not in [h.table for h in hits][:1]
    assert pair_set(hits, "roads/drivers_more", "us_state") > 0.5
