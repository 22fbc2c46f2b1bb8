"""Union search on numbers of a common range (the twentieth user's report, D1, D2, D4, D7).

D1: 158 of a query's 300 ZIP codes (01001..02061) in a lake column of 900 reaching 06906
got set evidence 0: the domain was the disjoint union (1,200), where 225 shared values are
expected; only values inside both spans can be shared (``common_range``). With the ZIP
codes read as integers the matching traded `zip_code <- PLZ` for two pairs of kind alone
(`zip_code <- Einwohner`, `population <- PLZ`); pairs of kind alone now yield to a pair
with set or header evidence of either column (``kind_yields``). D2: a table of 300 other
ZIP codes (none shared, a name alike) stacked its ZIP codes as populations: numbers apart
with a name alike keep the other measures (``numbers_apart``), and the name chooses among
pairs without set evidence (``name_over_kind``). D4: a counter holding every integer 0..29
shares by chance every count of a column 1..82 that falls there. D7: a union under Python
integers beyond int64 stacked the lake's values as text.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.search import union as un

TOWNS = ["Agawam", "Amherst", "Barre", "Belchertown", "Blandford", "Brimfield", "Chester",
         "Chesterfield", "Chicopee", "Cummington", "Easthampton", "Granby", "Granville",
         "Hadley", "Hampden", "Hatfield", "Holyoke", "Huntington", "Ludlow", "Monson",
         "Northampton", "Palmer", "Russell", "Southampton", "Southwick", "Springfield",
         "Westfield", "Wilbraham", "Worthington", "Ware"]


@pytest.fixture(scope="module")
def zip_lake(spark, tmp_path_factory):
    """A query of 300 ZIP codes in 1001..2061 with towns and populations; `geo/plz` (a
    German-style list: 158 of the query's codes, 8 others in its span, 734 in 2062..6906,
    populations with one decimal), `geo/zip_more` (300 zero-padded codes of 2062..3086,
    none the query's), `geo/counties` (33 counts of ZIP codes, 1..82, 20 of them under 30),
    `misc/accounts` (ids 2**70 + 7919 i, written as text by the CSV)."""
    rng = np.random.default_rng(20)
    span = np.arange(1001, 2062)
    zips = np.sort(rng.choice(span, 300, replace=False))
    shared = rng.choice(zips, 158, replace=False)
    others = rng.choice(np.setdiff1d(span, zips), 8, replace=False)
    beyond = rng.choice(np.arange(2062, 6907), 734, replace=False)
    plz = rng.permutation(np.concatenate([shared, others, beyond]))
    query = pd.DataFrame({"zip_code": [f"{z:05d}" for z in zips],
                          "city": rng.choice(TOWNS, 300), "state": "MA",
                          "population": rng.integers(1_000, 60_000, 300)})
    einwohner = np.round(rng.uniform(12.9, 5996.9, 900), 1)
    plz_table = pd.DataFrame({"PLZ": plz, "Ort": rng.choice(TOWNS, 900),
                              "Bundesstaat": rng.choice(["MA", "NH", "VT", "ME", "CT", "RI"], 900),
                              "Einwohner": einwohner})
    more = pd.DataFrame({"ZIP": [f"{z:05d}" for z in np.sort(rng.choice(np.arange(2062, 3087), 300,
                                                                       replace=False))],
                         "City": rng.choice(TOWNS, 300), "ST": "NH"})
    counts = np.array([1, 3, 5, 7, 8, 10, 12, 13, 14, 15, 16, 18, 20, 21, 23, 24, 25, 26, 28,
                       29, 30, 31, 33, 34, 35, 37, 38, 42, 43, 50, 56, 78, 82])
    names = [f"{t} County" for t in TOWNS] + ["Essex County", "Kent County", "Suffolk County"]
    counties = pd.DataFrame({"county": names, "state": "MA", "n_zips": counts})
    ids = [2**70 + 7919 * i for i in range(200)]
    accounts = pd.DataFrame({"account_id": [str(x) for x in ids],
                             "zip": [f"{z:05d}" for z in rng.choice(zips, 200)]})
    engine = lake_engine(spark, tmp_path_factory, "ziplake", {
        "geo/plz.csv": plz_table, "geo/zip_more.csv": more, "geo/counties.csv": counties,
        "misc/accounts.csv": accounts}, components=["-josie", "-mate", "-lshensemble", "union"])
    return engine, query, plz_table, more, ids


def test_common_range_by_hand():
    """The population of the common range: query 0..29 (every integer) against a lake
    column 1..82 of 33 values, 20 in 1..29 (all shared): na' = 29, nb' = 20, p' = the 29
    integers there; p' na nb / (na' nb') = 29 * 30 * 33 / (29 * 20) = 49.5, where chance
    puts 30 * 33 / 49.5 = 20 values in common, the 20 seen: no evidence. ZIP codes: 300 in
    1001..2061 against 900 in 1001..6906, 170 inside the span by the quantiles."""
    q = un.QueryColumn("snow", [str(i) for i in range(30)], None, 1.0, 30, None, None, frozenset())
    quant = np.linspace(1.0, 82.0, 21)[None, :]
    quant[0, :8] = np.linspace(1, 29, 8)          # 8 of 21 quantiles (35%) inside 1..29
    got = un.common_range(q, (0.0, 29.0, 1.0), np.array([1.0]), np.array([82.0]),
                          np.array([1.0]), quant, np.array([33.0]), np.array([20.0]))
    # nb' = max(33 * share, 20) with share = 7/20 (the 8th quantile at 29): 20
    assert got[0] == pytest.approx(29 * 30 * 33 / (29 * 20))
    from lakejoin_jupyter.index.union_profile import set_statistic
    assert set_statistic(20, 30, 33, got[0]) == 0
    assert un.common_range(q, (0.0, 29.0, 1.0), np.array([40.0]), np.array([82.0]),
                           np.array([1.0]), quant, np.array([33.0]))[0] == np.inf


@pytest.mark.spark
@pytest.mark.parametrize("as_int", [False, True])
def test_zip_codes_align_with_the_list_sharing_them(zip_lake, as_int):
    """D1: `zip_code <- PLZ` by set evidence (158 shared, about 55 expected on the common
    range), zero-padded text or integers alike; no ZIP code stacked as a population."""
    engine, query, _, _, _ = zip_lake
    q = query.assign(zip_code=query.zip_code.astype(int)) if as_int else query
    hits = engine.search_unionable(q, k=10)
    h = [h for h in hits if h.table == "geo/plz"][0]
    assert h.mapping.get("zip_code") == "PLZ", h.mapping
    assert h.evidence["zip_code"]["set"] > 0.5, h.evidence
    assert "PLZ" not in [h.mapping.get("population")]
    assert not h.by_kind
    assert not any("geo/plz " in n for n in hits.notes), hits.notes


@pytest.mark.spark
@pytest.mark.parametrize("as_int", [False, True])
def test_other_zip_codes_are_not_stacked_as_populations(zip_lake, as_int):
    """D2: `geo/zip_more` holds 300 other ZIP codes (none shared): `zip_code <- ZIP` by the
    name, `population` unaligned, so the added rows have their ZIP codes under `zip_code`
    and no population (by hand: the 300 codes of the table). The query's codes read as
    integers (1001 for 01001) align too: their format is read as the zero-padded codes of
    one length they were (``padded_formats``; before, the format evidence was 0 and
    `zip_code` stayed unaligned)."""
    engine, query, _, more, _ = zip_lake
    q = query.assign(zip_code=query.zip_code.astype(int)) if as_int else query
    hits = engine.search_unionable(q, k=10)
    h = [h for h in hits if h.table == "geo/zip_more"][0]
    assert h.mapping.get("zip_code") == "ZIP", h.mapping
    assert "population" not in h.mapping, h.mapping
    out = h.union(q)
    added = out[out["source_table"] != "query"]
    assert added["population"].isna().all()
    want = more["ZIP"].astype(int) if as_int else more["ZIP"]
    assert sorted(added["zip_code"]) == sorted(want)


def test_integer_codes_are_also_read_as_zero_padded_codes():
    """By hand: 1001..2061 (4 digits) padded to 4 and 5 digits; the 5-digit spelling is the
    pattern of "02062" (N+), so the format evidence against zero-padded ZIP codes is 1, as
    the text "01001" gives; codes with a leading zero or a word are not integers."""
    from lakejoin_jupyter.index.union_profile import format_histogram, format_similarity
    ints = [str(z) for z in range(1001, 2062, 7)]
    padded = un.padded_formats(ints)
    assert padded.shape[0] == 2
    lake = format_histogram([f"{z:05d}" for z in range(2062, 3087, 3)])[None]
    assert format_similarity(format_histogram(ints)[None], lake)[0, 0] == 0.0
    assert format_similarity(padded, lake)[:, 0].tolist() == [0.0, pytest.approx(1.0)]
    assert un.padded_formats([f"{z:05d}" for z in range(1001, 1100)]) is None
    assert un.padded_formats(ints + ["12a"]) is None
    assert un.padded_formats(["1", "2", "3"]) is None         # a few values: no format


@pytest.mark.spark
def test_a_counter_does_not_align_with_counts_in_its_range(zip_lake):
    """D4: days with a snow depth 0..29 (every integer, each repeated): the counties' 20
    counts under 30 are what any column holding 0..29 shares; no table aligns `snow_cm`."""
    engine, _, _, _, _ = zip_lake
    days = pd.date_range("2024-01-01", "2024-12-31", freq="D")
    snow = pd.DataFrame({"day": days, "snow_cm": np.arange(len(days)) % 30})
    hits = engine.search_unionable(snow, k=10)
    assert all("snow_cm" not in h.mapping for h in hits), [(h.table, h.mapping) for h in hits]


@pytest.mark.spark
def test_a_union_under_python_integers_stacks_integers(zip_lake):
    """D7: 30 account ids beyond int64 as Python ints; the union adds the table's other 170
    ids as Python ints too (by hand: the ids 2**70 + 7919 i), so equality finds them."""
    engine, _, _, _, ids = zip_lake
    big = pd.DataFrame({"acct": ids[100:130]})
    hits = engine.search_unionable(big, k=5)
    h = [h for h in hits if h.table == "misc/accounts"][0]
    assert h.mapping == {"acct": "account_id"}
    out = h.union(big)
    assert out["acct"].map(type).eq(int).all(), out["acct"].map(type).value_counts()
    assert sorted(out["acct"]) == sorted(ids)
    assert (out["acct"] == ids[0]).sum() == 1
    code = h.code("big", "stacked", df=big)
    # the conversion is written out (as a join's Auto-Join program is), not imported from
    # the union's internals: the cell imports what the equality join's cells import
    assert "join.execute" not in code and "def exact_integer(value):" in code, code
    scope = {"big": big}                 # a fresh namespace: the query frame alone
    exec(code, scope)                    # the written code: the same frame
    pd.testing.assert_frame_equal(scope["stacked"], out)
