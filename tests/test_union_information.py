"""Table union search scales a table's score by the information of its alignment
(search/union.py, ``row_information``: the chance that two query rows differ on the aligned
columns): a table aligned only on columns of one value is not listed, and never outranks a
table whose text key holds the query's exactly (docs/algorithms/union.md, "Low-information
columns")."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.search import union as us

from conftest import UNION_ONLY, lake_engine


def _word(rng, lo=4, hi=9):
    return "".join(rng.choice(list("abcdefghiklmnoprstuvwyz"), int(rng.integers(lo, hi + 1))))


def information_lake():
    """stations: 60 text keys with two numeric columns; events (JSON lines): codes, a version
    that is 1 everywhere, a JSON ``true`` everywhere, a source "api" everywhere, a level 1-3,
    a true/false flag and amounts; two unrelated tables. The query: 12 station keys, a version of 1 and a valid
    flag of True (what a user's frame of new rows looked like)."""
    rng = np.random.default_rng(3)
    keys = list(dict.fromkeys(_word(rng) for _ in range(100)))[:60]
    n = 80
    tables = {
        "stations.csv": pd.DataFrame({"station": keys,
                                      "elevation_m": rng.integers(100, 3000, len(keys)),
                                      "opened": rng.integers(1900, 2020, len(keys))}),
        "events.jsonl": pd.DataFrame({"code": [f"E{i:04d}" for i in range(n)], "version": 1,
                                      "valid": True, "source": "api", "level": rng.integers(1, 4, n),
                                      "active": rng.random(n) < 0.5,
                                      "amount": rng.normal(50, 10, n).round(2)}),
        "people.csv": pd.DataFrame({"person": [_word(rng) for _ in range(80)],
                                    "age": rng.integers(18, 90, 80)}),
        "sales.csv": pd.DataFrame({"region": rng.choice(["north", "south", "east", "west"], 100),
                                   "units": rng.integers(0, 500, 100),
                                   "price": rng.normal(20, 4, 100).round(2)}),
    }
    query = pd.DataFrame({"station": keys[:12], "version": 1, "valid": True})
    return tables, query


@pytest.fixture(scope="module")
def info_lake(spark, tmp_path_factory):
    tables, query = information_lake()
    engine = lake_engine(spark, tmp_path_factory, "infolake", tables, components=UNION_ONLY)
    return engine, tables, query


def _rank(res, table):
    names = [h.table for h in res]
    return names.index(table) if table in names else len(names)


@pytest.mark.spark
def test_two_single_valued_columns_do_not_outrank_a_text_key(info_lake):
    """The user's report: events, aligned only on version (the single value 1) and valid (a
    JSON true), ranked first (0.64) above stations, whose key holds the query's 12 keys
    (0.31). Each of those columns holds one value, which any two such columns share on
    every measure: no information, so stations is first, aligned on its key."""
    engine, _, query = info_lake
    res = engine.search_unionable(query, k=5)
    assert res[0].table == "stations"
    assert res[0].mapping == {"station": "station"}
    assert _rank(res, "stations") < _rank(res, "events")
    # columns of one value still align where a table is listed by its other columns
    full = pd.DataFrame({"code": [f"E{i:04d}" for i in range(30)], "version": 1, "valid": True})
    hit = next(h for h in engine.search_unionable(full, k=5) if h.table == "events")
    assert hit.mapping == {"code": "code", "version": "version", "valid": "valid"}


@pytest.mark.spark
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**31 - 1))
@example(0)
def test_a_text_key_outranks_columns_of_one_value(info_lake, seed):
    """Random queries: 20-60 of stations' keys and one to three columns of one value each
    (a 1, a true, the text "api"), under events' or random names, in random order: events,
    which holds such columns, is not listed (together they tell no two rows apart), and
    stations is, aligned on its key."""
    engine, tables, _ = info_lake
    rng = np.random.default_rng(seed)
    keys = tables["stations.csv"]["station"]
    n = int(rng.integers(20, 61))
    q = {"key": rng.permutation(keys.to_numpy())[:n]}
    kinds = {"version": np.ones(n, dtype=np.int64), "valid": np.ones(n, dtype=bool),
             "source": np.full(n, "api", dtype=object)}
    for name in rng.permutation(list(kinds))[: int(rng.integers(1, 4))]:
        q[name if rng.random() < 0.5 else f"c{len(q)}"] = kinds[name]
    frame = pd.DataFrame(q)
    frame = frame[list(rng.permutation(frame.columns))]
    res = engine.search_unionable(frame, k=10)
    assert "events" not in [h.table for h in res], [(h.table, h.score) for h in res]
    assert res[0].table == "stations" and res[0].mapping == {"key": "station"}


@pytest.mark.spark
def test_a_few_values_score_by_the_rows_they_tell_apart(info_lake):
    """A query of a level (1-3) and a flag aligns with events on both; its score is the
    pairs' sum over the query columns, each pair times the reach of its set test in this
    small lake (the largest -log10 p its columns allow, over -log10 0.05, at most 1: the
    population their disjoint union, as their values repeat; scipy's tail given that the
    columns meet), times the
    chance that two query rows differ on them (the rows counted by hand)."""
    from scipy.stats import hypergeom
    engine, _, _ = info_lake
    q = pd.DataFrame({"level": [1, 2, 3, 1, 2, 3, 1, 1], "active": [True, False] * 4})
    hit = next(h for h in engine.search_unionable(q, k=5) if h.table == "events")
    pairs = list(zip(q["level"], q["active"]))
    differ = np.mean([a != b for i, a in enumerate(pairs) for j, b in enumerate(pairs) if i != j])

    def reach(a, b):
        p = hypergeom.sf(min(a, b) - 1, a + b, a, b) / hypergeom.sf(0, a + b, a, b)
        return min(1.0, -np.log10(p) / -np.log10(0.05))
    total = sum(s * reach(*hit.shared[c][1:]) for c, s in hit.column_scores.items())
    assert reach(2, 2) == pytest.approx(np.log10(5) / -np.log10(0.05))
    assert hit.score == pytest.approx(total / 2 * differ)


@pytest.mark.spark
def test_a_query_of_one_row_is_not_scaled(info_lake):
    """A query of one row (or of equal rows) tells no rows apart on any columns: its
    alignments keep their score, and its table is listed."""
    engine, tables, _ = info_lake
    row = tables["stations.csv"].iloc[[5]]
    for q in (row, pd.concat([row] * 3, ignore_index=True)):
        res = engine.search_unionable(q, k=5)
        hit = next(h for h in res if h.table == "stations")
        by_values = [s for c, s in hit.column_scores.items() if c not in hit.named]
        assert by_values and hit.score == pytest.approx(sum(by_values) / q.shape[1])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40), st.integers(1, 4), st.integers(0, 2**31 - 1))
def test_row_information_is_the_chance_two_rows_differ(n, m, seed):
    """Against every pair of two rows compared by hand (no row with itself), nulls equal,
    on random column subsets of frames of few values, integers, texts and nulls."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({f"c{j}": pd.Series(rng.choice(
        [None, "a", "b", 1, 2.5][: int(rng.integers(1, 6))], n), dtype=object)
        for j in range(m)})
    cols = sorted(rng.permutation(m)[: int(rng.integers(1, m + 1))].tolist())
    rows = [tuple("<null>" if v is None else v for v in frame.iloc[r, cols]) for r in range(n)]
    differ = np.mean([a != b for i, a in enumerate(rows) for j, b in enumerate(rows)
                      if i != j]) if n > 1 else 0.0
    codes = us.FrameCodes(frame)
    assert us.row_information(codes, cols) == pytest.approx(differ)
    assert us.row_information(codes, []) == 0.0


def test_row_codes_of_a_list_column_number_its_cells_by_their_text():
    """Cells that cannot be hashed (a JSON-lines list column) are told apart by their text."""
    c = us.row_codes(pd.Series([[1, 2], [1, 2], None, [3]]))
    assert c[0] == c[1] and len({c[1], c[2], c[3]}) == 3


def test_the_readme_name_rule_example_text_written_otherwise_does_not_align():
    """README, "The name rule": a column of values such as "new one" is not aligned by name
    with a same-named column of values such as "NAME 01" (no shape in common); values
    written alike are."""
    from lakejoin_jupyter.index import union_profile as up
    q = up.format_histogram(["new one", "old two", "red six"])
    assert us.contradicts("text", q, up.format_histogram(["NAME 01", "NAME 02", "NAME 17"]))
    assert not us.contradicts("text", q, up.format_histogram(["blue car", "green van"]))
