"""Union search in a small lake of one domain (the twenty-first user's D3): a frame of 12
time-zone ids, their country codes and office cities, against a lake where many tables hold
all 12 ids. Each such column was beaten by the others on every measure (the background is
the lake), so a pair sharing 12 of 12 values read 0.86-0.95 everywhere and fell under
``min_column`` once sharpened: `zone_tab` aligned `tz <- TZ` only "by name", the tables of
zone offsets were not listed, and a table of country names aligned the cities (sharing
none) and ranked second. Now a background column sharing a query column's values beyond
chance is left out of its background (``partners_out``), a lake column holding the query's
values counts as written alike up to what the normalization folds (``written_as_held``),
and in a table holding the query's entities a text pair sharing nothing beyond chance does
not align either (``values_unshared``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine
from lakejoin_jupyter.search import union as un

AREAS = ["Europe", "America", "Asia", "Africa", "Pacific", "Australia"]
PLACES = ["Paris", "Berlin", "New_York", "Los_Angeles", "Tokyo", "Sydney", "Sao_Paulo",
          "Windhoek", "Kolkata", "Auckland", "London", "Santiago"]
QUERY_TZ = [f"{AREAS[i % len(AREAS)]}/{p}" for i, p in enumerate(PLACES)]
SYLLABLES = ["ka", "lo", "mi", "ber", "san", "to", "ri", "va", "nel", "do", "pu", "gra",
             "she", "win", "ton", "ma", "lin", "ro", "cas", "te"]


def word(i: int) -> str:
    """A made-up place name of 2-3 syllables, capitalized (the i-th; distinct)."""
    n = len(SYLLABLES)
    parts = [SYLLABLES[i % n], SYLLABLES[i // n % n]] + ([SYLLABLES[i // (n * n) % n]]
                                                          if i % 3 else [])
    return "".join(parts).capitalize()


OTHER_TZ = [f"{AREAS[i % len(AREAS)]}/{word(i)}" + ("_" + word(i + 7) if i % 5 == 0 else "")
            for i in range(400)]
CODES = ["FR", "DE", "US", "MX", "JP", "AU", "BR", "NA", "IN", "NZ", "GB", "CL"]
OTHER_CODES = [f"{a}{b}" for a in "QVXYZOH" for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"][:180]
CITIES = ["Paris", "Berlin", "New York", "Los Angeles", "Tokyo", "Sydney", "Sao Paulo",
          "Windhoek", "Kolkata", "Auckland", "London", "Santiago"]


def zones(n: int, seed: int) -> list:
    """The 12 query ids among n - 12 others, shuffled."""
    rng = np.random.default_rng(seed)
    out = QUERY_TZ + OTHER_TZ[:n - len(QUERY_TZ)]
    return [out[i] for i in rng.permutation(len(out))]


def country_names(n: int) -> list:
    """Country names: made-up words of the cities' shape, none a query city."""
    return [word(1000 + 3 * i) + ("ia" if i % 2 else "") + (" " + word(i) if i % 4 == 0 else "")
            for i in range(n)]


def frame() -> pd.DataFrame:
    return pd.DataFrame({"office": CITIES, "tz": QUERY_TZ, "country": CODES,
                         "meeting_date": [f"2026-0{1 + i % 9}-1{i % 10}" for i in range(12)]})


def zone_tables() -> dict:
    """The lake: {path: frame}."""
    rng = np.random.default_rng(21)
    codes = CODES + OTHER_CODES
    tables = {
        # a key column shared 12/12 in a table with another column sharing the countries
        "tzdb/zone_tab.csv": pd.DataFrame({
            "country_code": [codes[i % len(codes)] for i in range(300)],
            "coordinates": [f"+{rng.integers(1000, 9999)}+{rng.integers(10000, 99999)}"
                            for _ in range(300)],
            "TZ": zones(300, 1)}),
        # the same, written otherwise: lower-case country codes (format 0 before)
        "pytz/country_timezones.csv": pd.DataFrame({
            "country": [codes[i % len(codes)].lower() for i in range(300)],
            "timezone": zones(300, 2)}),
        # country codes and country names: the names share no value with the cities
        "cldr/territories.csv": pd.DataFrame({"territory": codes[:190],
                                              "name_en": country_names(190)}),
        "tzdb/iso3166.csv": pd.DataFrame({"code": codes[:190], "country": country_names(190)}),
    }
    for k in range(2):
        tables[f"tzdb/links_{k}.csv"] = pd.DataFrame({"target": zones(150, 30 + k),
                                                     "alias": [f"{word(2000 + i)}/{word(i)}"
                                                               for i in range(150)]})
    for k in range(12):      # many tables holding all 12 ids: the lake's one domain
        tables[f"offsets/offsets_{k}.csv"] = pd.DataFrame({
            "zone": zones(300 + 10 * k, 10 + k),
            "hours": rng.integers(-12, 14, 300 + 10 * k)})
    for k in range(3):
        tables[f"cldr/names_{k}.csv"] = pd.DataFrame({
            "tz": zones(320, 20 + k), "long_name": [f"Zone time {i} v{k}" for i in range(320)]})
    # unrelated tables: the rest of the background
    for k in range(4):
        tables[f"misc/items_{k}.csv"] = pd.DataFrame({
            "sku": [f"SKU-{k}{i:05d}" for i in range(200)],
            "label": [f"item {chr(97 + i % 26)}{i}" for i in range(200)],
            "price": np.round(rng.uniform(1, 500, 200), 2)})
    return tables


@pytest.fixture(scope="module")
def zone_lake(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "zonelake", zone_tables(), components=UNION_ONLY)


@pytest.mark.spark
def test_a_key_held_whole_aligns_by_values_in_a_lake_of_its_domain(zone_lake):
    hits = zone_lake.search_unionable(frame(), k=30)
    by = {h.table: h for h in hits}
    tab = by["tzdb/zone_tab"]
    assert tab.mapping["tz"] == "TZ"
    assert "tz" not in tab.named                          # values, not the name
    assert tab.shared["tz"][:2] == (12, 12)
    assert tab.column_scores["tz"] >= un.MIN_COLUMN
    assert tab.mapping.get("country") == "country_code"
    # every table holding the 12 ids is listed, its id column aligned by values
    for t in [f"offsets/offsets_{k}" for k in range(12)] + ["pytz/country_timezones"]:
        assert t in by, (t, list(by))
        got = by[t].mapping
        assert got["tz"] in ("zone", "timezone") and "tz" not in by[t].named
    # lower-case country codes holding the query's 12 codes align by values too
    ct = by["pytz/country_timezones"].mapping
    assert ct.get("country") == "country" and "country" not in by["pytz/country_timezones"].named


@pytest.mark.spark
def test_a_column_sharing_nothing_does_not_outrank_a_key_held_whole(zone_lake):
    hits = zone_lake.search_unionable(frame(), k=30)
    rank = {h.table: i for i, h in enumerate(hits)}
    for t in ("cldr/territories", "tzdb/iso3166"):
        if t in rank:
            aligned = hits[rank[t]].mapping
            assert "office" not in aligned, aligned        # cities under country names
            assert rank[t] > rank["tzdb/zone_tab"]
    # the two-column zone_tab outranks every table aligning one column
    one = [h.table for h in hits if len(h.alignment) == 1]
    assert one and all(rank["tzdb/zone_tab"] < rank[t] for t in one)


def test_partners_out_by_hand():
    bg = {"set": np.array([[0.0, 5.0, 1.0, np.nan], [2.0, 0.0, 0.0, 0.5]]),
          "semantic": np.array([[0.1, 0.9, 0.2, 0.3], [0.8, 0.1, 0.2, 0.3]]),
          "format": np.array([[0.5, 0.9, 0.5, 0.5], [0.9, np.nan, 0.5, 0.5]])}
    got = un.partners_out(bg)
    out = np.array([[False, True, False, False], [True, False, False, False]])
    for k in bg:
        assert np.isnan(got[k][out]).all()
        np.testing.assert_array_equal(got[k][~out], bg[k][~out])


def test_written_as_held_by_hand():
    u = np.array([[0.0, 0.2, np.nan, 0.9, 0.0]])
    shared = np.array([[11, 6, 11, 11, 11]])
    stat = np.array([[12.0, 4.0, 12.0, 12.0, 1.0]])       # the last: no evidence (p > 0.05)
    got = un.written_as_held(u, shared, np.array([[11]]), stat)
    np.testing.assert_allclose(got, [[1.0, 6 / 11, np.nan, 1.0, 0.0]])


def test_values_unshared_covers_text_by_hand():
    text = un.profile_column(pd.Series([f"w{i}" for i in range(10)], name="t"), 50)[0]
    shared = np.array([[0, 3, 0, 2]])
    set_u = np.array([[0.0, 0.7, 0.0, 0.0]])
    header = np.array([[0.0, 0.0, 0.4, 0.0]])
    same_name = np.zeros((1, 4), dtype=bool)
    assert un.values_unshared([text], shared, set_u, header, same_name).tolist() == \
        [[True, False, False, True]]
