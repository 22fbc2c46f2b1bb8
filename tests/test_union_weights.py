"""Table union search weighs a query column of one value half (search/union.py,
``column_weights``) and, in a small lake, counts no set evidence for an overlap that chance
gives where the test could tell (``chance_overlap``), and there counts a pair by the
reach of its set test (``reach_weights``; docs/algorithms/union.md, "A constant beside a
key, flags together, a chance overlap", "Flags together in a small lake"): a constant
beside a key does not outrank a key beside an informative column, a chance overlap lists
no table, and flags together do not outrank the keys."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine


def _word(rng, lo=4, hi=9):
    return "".join(rng.choice(list("abcdefghiklmnoprstuvwyz"), int(rng.integers(lo, hi + 1))))


def weights_lake():
    """stations_us: 60 station keys, a country "US" everywhere and an operator; stations_elev:
    the same keys and their elevations; flags: codes and three two-valued columns (a
    true/false, a yes/no, a 0/1); tags: 50 tags, 23 words and 25 codes such as k-123, two of
    the words among the names of the query ``names``; noise tables of words and numbers.
    Queries: ``constant`` (20 keys, country "US", elevations of another survey), ``flags``
    (40 keys, three flags, elevations), ``names``
    (10 new names)."""
    rng = np.random.default_rng(9)
    keys = list(dict.fromkeys(_word(rng) for _ in range(120)))[:60]
    names = list(dict.fromkeys(_word(rng) for _ in range(400)))
    names = [w for w in names if w not in keys]
    n = 80
    tables = {
        "stations_us.csv": pd.DataFrame({"station": keys, "country": "US",
                                         "operator": [_word(rng) for _ in keys]}),
        "stations_elev.csv": pd.DataFrame({"station": keys,
                                           "elevation": rng.integers(100, 3000, len(keys))}),
        "flags.csv": pd.DataFrame({"code": [f"F{i:04d}" for i in range(n)],
                                   "active": rng.random(n) < 0.5,
                                   "verified": rng.choice(["yes", "no"], n),
                                   "is_open": rng.integers(0, 2, n)}),
        "tags.csv": pd.DataFrame({"tag": names[:2] + names[100:123]
                                  + [f"k-{i}" for i in rng.choice(900, 25, replace=False) + 100],
                                  "weight": rng.normal(5, 1, 50).round(2)}),
        "counts.csv": pd.DataFrame({"item": [_word(rng) for _ in range(300)],
                                    "count": rng.integers(1, 500, 300)}),
        "people.csv": pd.DataFrame({"person": names[200:280], "age": rng.integers(18, 90, 80)}),
        "sales.csv": pd.DataFrame({"region": rng.choice(["north", "south", "east", "west"], 100),
                                   "units": rng.integers(0, 500, 100),
                                   "price": rng.normal(20, 4, 100).round(2)}),
    }
    m = 40
    queries = {
        "constant": pd.DataFrame({"station": keys[:20], "country": "US",
                                  "elevation": rng.integers(100, 3000, 20)}),
        "flags": pd.DataFrame({"station": keys[:m], "active": rng.random(m) < 0.5,
                               "verified": rng.choice(["yes", "no"], m),
                               "is_open": rng.integers(0, 2, m),
                               "elevation": rng.integers(100, 3000, m)}),
        "names": pd.DataFrame({"name": names[:10]}),
    }
    return tables, queries


@pytest.fixture(scope="module")
def weights_index(spark, tmp_path_factory):
    tables, queries = weights_lake()
    engine = lake_engine(spark, tmp_path_factory, "weightlake", tables, components=UNION_ONLY)
    return engine, queries


def _ranked(res):
    return [h.table for h in res]


def _differ(values) -> float:
    """The chance that two rows (no row with itself) differ, counted over every pair."""
    v = list(values)
    return float(np.mean([a != b for i, a in enumerate(v) for j, b in enumerate(v) if i != j]))


@pytest.mark.spark
def test_a_constant_beside_a_key_counts_less_than_an_informative_column(weights_index):
    """Both station tables hold the query's 20 keys; stations_elev also aligns the
    elevations (no value shared: another survey), stations_us the country, "US" in every
    row of both. Before, the two columns of one value, equal on every measure, added a full
    pair (1.0) and stations_us ranked first; a column of one value tells no two rows apart,
    so it weighs half, and stations_elev ranks first. stations_us's score, by hand: its
    pairs weighted (1/2 for a column of one value, else 1) over the query's summed weights,
    times the chance two query rows differ on the aligned columns."""
    engine, queries = weights_index
    q = queries["constant"]
    res = engine.search_unionable(q, k=5)
    ranked = _ranked(res)
    assert ranked.index("stations_elev") < ranked.index("stations_us"), \
        [(h.table, h.score) for h in res]
    us_hit = res[ranked.index("stations_us")]
    assert us_hit.mapping == {"station": "station", "country": "country"}
    w = {c: 0.5 if q[c].nunique(dropna=False) == 1 else 1.0 for c in q.columns}
    assert w == {"station": 1.0, "country": 0.5, "elevation": 1.0}
    expected = sum(w[c] * s for c, s in us_hit.column_scores.items()) / sum(w.values())
    assert us_hit.score == pytest.approx(expected * _differ(zip(q["station"], q["country"])))


@pytest.mark.spark
def test_a_chance_overlap_in_a_small_lake_lists_no_table(weights_index):
    """The query: 10 new names. tags shares 2 of them among its 50 values (23 words, 25
    codes): even with the domain as large as the lake's whole vocabulary, chance gives 2 or
    more shared values more often than once in 20 (scipy's hypergeometric tail), while 10
    of 10 would be far below it there (the test could tell). Before, that overlap beat a small lake's background of zeros
    (set likelihood 1.0) and listed tags first (0.72, its only hit); now it counts as no
    overlap, and no table is listed."""
    from scipy.stats import hypergeom
    engine, queries = weights_index
    vocabulary = sum(g.n_tokens for g in engine.index.generations)
    assert hypergeom.sf(1, vocabulary, 10, 50) > 0.05 > hypergeom.sf(9, vocabulary, 10, 50)
    res = engine.search_unionable(queries["names"], k=5)
    assert "tags" not in _ranked(res), [(h.table, h.score, h.shared) for h in res]


@pytest.mark.spark
def test_flags_together_do_not_outrank_the_keys(weights_index):
    """The ``flags`` query: 40 station keys, three flags (true/false, yes/no, 0/1) and
    elevations. flags aligns the three flags alone (each pair sharing both values: a test
    that can at best show p = 1/6), stations_elev the keys; each flag pair counts 0.54 of
    its score, and stations_elev ranks first."""
    engine, queries = weights_index
    res = engine.search_unionable(queries["flags"], k=5)
    ranked = _ranked(res)
    assert ranked[0] == "stations_elev", [(h.table, h.score, h.mapping) for h in res]
