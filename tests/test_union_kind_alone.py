"""Union search: pairs and tables aligned by the columns' kind alone (the nineteenth user's
report, D3, D6 and D7).

D3: a table none of whose pairs shares values beyond chance or a name (2-letter postal codes
against 3-letter ISO codes, none shared; a count of persons against 3-digit ISO numbers, one
shared) ranked above the tables holding the query's values; `persons` and `isonumeric` had
header evidence 1.0 from one shared 3-gram ("son"). Now names sharing one 3-gram inside
longer words are not alike (``names_alike``) and such a table ranks after every table with a
pair of set or header evidence (``by_kind``). D7: in a table aligned by its codes, a numeric
query column (populations) aligned with a column sharing no value and no name (GeoNames ids
of the same size), and the union stacked ids as populations (``values_unshared``). D6: the
text repr printed every pair of a 299-column alignment on one line.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.index import union_profile as up
from lakejoin_jupyter.join.union import UnionHit, UnionResult
from lakejoin_jupyter.search import union as un

CITIES = ["New York", "Los Angeles", "Chicago", "Houston", "Phoenix", "Philadelphia",
          "San Antonio", "San Diego", "Dallas", "Jacksonville", "Austin", "Fort Worth",
          "San Jose", "Columbus", "Charlotte", "Indianapolis", "San Francisco", "Seattle",
          "Denver", "Oklahoma City", "Nashville", "Washington", "El Paso", "Las Vegas",
          "Boston", "Detroit", "Portland", "Louisville", "Memphis", "Baltimore",
          "Milwaukee", "Albuquerque", "Tucson", "Fresno", "Sacramento", "Mesa",
          "Kansas City", "Atlanta", "Omaha", "Colorado Springs", "Raleigh", "Long Beach",
          "Virginia Beach", "Miami", "Oakland", "Minneapolis", "Tulsa", "Bakersfield",
          "Wichita", "Arlington"]
# (name, alpha-2, alpha-3, ISO numeric) of 40 countries
COUNTRIES = [
    ("Afghanistan", "AF", "AFG", 4), ("Albania", "AL", "ALB", 8), ("Algeria", "DZ", "DZA", 12),
    ("Andorra", "AD", "AND", 20), ("Angola", "AO", "AGO", 24), ("Argentina", "AR", "ARG", 32),
    ("Armenia", "AM", "ARM", 51), ("Australia", "AU", "AUS", 36), ("Austria", "AT", "AUT", 40),
    ("Azerbaijan", "AZ", "AZE", 31), ("Bahamas", "BS", "BHS", 44), ("Bahrain", "BH", "BHR", 48),
    ("Bangladesh", "BD", "BGD", 50), ("Barbados", "BB", "BRB", 52), ("Belarus", "BY", "BLR", 112),
    ("Belgium", "BE", "BEL", 56), ("Belize", "BZ", "BLZ", 84), ("Benin", "BJ", "BEN", 204),
    ("Bhutan", "BT", "BTN", 64), ("Bolivia", "BO", "BOL", 68), ("Botswana", "BW", "BWA", 72),
    ("Brazil", "BR", "BRA", 76), ("Brunei", "BN", "BRN", 96), ("Bulgaria", "BG", "BGR", 100),
    ("Burundi", "BI", "BDI", 108), ("Cambodia", "KH", "KHM", 116), ("Cameroon", "CM", "CMR", 120),
    ("Canada", "CA", "CAN", 124), ("Chad", "TD", "TCD", 148), ("Chile", "CL", "CHL", 152),
    ("China", "CN", "CHN", 156), ("Colombia", "CO", "COL", 170), ("Comoros", "KM", "COM", 174),
    ("Croatia", "HR", "HRV", 191), ("Cuba", "CU", "CUB", 192), ("Cyprus", "CY", "CYP", 196),
    ("Denmark", "DK", "DNK", 208), ("Djibouti", "DJ", "DJI", 262), ("Dominica", "DM", "DMA", 212),
    ("Ecuador", "EC", "ECU", 218)]


def test_names_sharing_one_3gram_inside_words_are_not_alike():
    """Hand-counted 3-grams (words padded with #): "persons" (#pe per ers rso son ons ns#)
    and "isonumeric" (#is iso son onu num ume mer eri ric ic#) share one, "son": Jaccard
    1/16 before, now 0, as "state" and "postal" ("sta"). "household_size" holds all four of
    "size" (4/13); "pop_k" and "population" share "#po" and "pop" (2/12); two names of one
    letter share their one 3-gram (1.0), as "x" and "x_axis" (1/5)."""
    g = up.header_grams
    assert up.header_similarity(g("persons"), g("isonumeric")) == 0.0
    assert up.header_similarity(g("state"), g("postal")) == 0.0
    assert up.header_similarity(g("household_size"), g("size")) == pytest.approx(4 / 13)
    assert up.header_similarity(g("pop_k"), g("population")) == pytest.approx(2 / 12)
    assert up.header_similarity(g("x"), g("x")) == 1.0
    assert up.header_similarity(g("x"), g("x_axis")) == pytest.approx(1 / 5)   # #x# of 5


def test_header_similarities_of_the_lake_say_the_same():
    """The lake-wide similarities (counted from the 3-grams' columns) apply the same rule."""
    from types import SimpleNamespace
    names = ["isonumeric", "household_size", "population", "postal", "x", "persons"]
    m, grams = un.header_matrix([up.header_grams(c) for c in names])
    lp = SimpleNamespace(gram_columns=m.T.tocsr(), header_len=np.diff(m.indptr), grams=grams)
    for q in ("persons", "pop_k", "x", "size"):
        want = [up.header_similarity(up.header_grams(q), up.header_grams(c)) for c in names]
        np.testing.assert_array_equal(un.header_similarities(up.header_grams(q), lp), want)
    assert un.header_similarities(up.header_grams("persons"), lp)[0] == 0.0


def test_values_unshared_and_by_kind_by_hand():
    num = un.profile_column(pd.Series(range(10), name="n"), 50)[0]
    text = un.profile_column(pd.Series([f"w{i}" for i in range(10)], name="t"), 50)[0]
    one = un.profile_column(pd.Series([2022] * 10, name="yr"), 50)[0]    # one value
    shared = np.array([[0, 3, 0, 0, 1, 1]] * 3)
    set_u = np.array([[0.0, 0.7, 0.0, 0.0, 0.0, 0.6]] * 3)      # 1 shared, beyond chance?
    header = np.array([[0.0, 0.0, 0.4, np.nan, 0.0, 0.0]] * 3)
    same_name = np.array([[False, False, True, False, False, False]] * 3)
    got = un.values_unshared([num, text, one], shared, set_u, header, same_name)
    # text as numbers (the twenty-first user's cities under country names: test_union_partners.py)
    assert got.tolist() == [[True, False, False, True, True, False],
                            [True, False, False, True, True, False],
                            [True, False, False, True, False, False]]
    u = {0: {"set": np.array([0.0, 0.0, 0.9]), "header": np.array([0.0, 0.3, 0.0])},
         1: {"set": np.array([0.0, 0.0, 0.0]), "header": np.array([0.0, 0.0, 0.0])}}
    assert un.by_kind(u, [(0, 0), (1, 1)])
    assert not un.by_kind(u, [(0, 1), (1, 0)])          # a name alike
    assert not un.by_kind(u, [(0, 2)])                  # values beyond chance


def test_union_repr_cuts_a_long_alignment():
    """D6: 299 pairs printed whole (one line of ~30,000 characters); now the first three
    and how many more."""
    wide = tuple((f"indicator_{i:03d}_share", f"indicator_{i:03d}_share", 0.57) for i in range(299))
    hits = [UnionHit(rank=1, table="wide", table_id=0, score=0.5, alignment=wide, rows=60),
            UnionHit(rank=2, table="narrow", table_id=1, score=0.4,
                     alignment=(("a", "a", 0.9), ("b", "b", 0.8)), rows=6)]
    text = repr(UnionResult(hits, [a for a, _, _ in wide], 0.01))
    assert max(len(line) for line in text.splitlines()) < 400
    assert "indicator_003_share" not in text
    assert ("indicator_002_share <- indicator_002_share (0.57) and 296 more "
            "(hit.alignment_frame())") in text
    assert "a <- a (0.90), b <- b (0.80)" in text and "narrow" in text


@pytest.fixture(scope="module")
def places_lake(spark, tmp_path_factory):
    """The user's two lakes in miniature: a country table (names, ISO codes, ISO numbers,
    populations), a table of US cities, a households table (sizes 1..6), and a table of
    country codes with GeoNames ids in the range of populations (never one of them)."""
    rng = np.random.default_rng(19)
    names, a2, a3, num = map(list, zip(*COUNTRIES))
    n = len(COUNTRIES)
    population = rng.integers(60_000, 9_000_000, n)
    geoname = rng.integers(50_000, 8_000_000, n)
    geoname = np.where(np.isin(geoname, population), geoname + 1, geoname)
    countries = pd.DataFrame({"name": names, "iso3": a3, "isonumeric": num,
                              "population": population,
                              "areakm2": rng.integers(400, 9_000_000, n)})
    cities = pd.DataFrame({"name": CITIES, "countrycode": "US",
                           "elevation": rng.integers(0, 2000, len(CITIES))})
    households = pd.DataFrame({"household_size": rng.choice([1, 2, 2, 3, 3, 4, 5, 6], 120),
                               "weight": np.round(rng.uniform(0.2, 3, 120), 2)})
    households.loc[:5, "household_size"] = [1, 2, 3, 4, 5, 6]
    codes = pd.DataFrame({"display_name": names, "alpha_2": a2, "alpha_3": a3,
                          "geoname_id": geoname})
    engine = lake_engine(spark, tmp_path_factory, "placeslake", {
        "world/countries.csv": countries, "world/cities.csv": cities,
        "misc/households.csv": households, "reference/codes.csv": codes},
        components=["-josie", "-mate", "-lshensemble", "union"])
    return engine, countries, codes


@pytest.mark.spark
def test_a_table_aligned_by_kind_alone_ranks_after_those_holding_the_values(places_lake):
    """D3 in miniature: 30 city names, a count of persons 1..6 and land areas (none a
    value of the lake). The city table holds all 30 names, the households table all six
    sizes; the country table none of the names or areas and one ISO number (4). It ranked
    first (0.455: `persons <- isonumeric` with header 1.0, `city <- name`, `land <-
    areakm2` by vectors, formats and quantiles), the codes table second (`land <-
    geoname_id`); now both after the two tables holding the values, marked and named in a
    note, and the persons pair without header evidence."""
    engine, _, _ = places_lake
    rng = np.random.default_rng(5)
    q = pd.DataFrame({"persons": rng.integers(1, 7, 30), "city": CITIES[:30],
                      "land": np.random.default_rng(3).integers(400, 9_000_000, 30)})
    hits = engine.search_unionable(q, k=10)
    order = [h.table for h in hits]
    assert order[:2] == ["world/cities", "misc/households"], order
    assert set(order[2:]) == {"world/countries", "reference/codes"}, order
    assert all(h.by_kind for h in hits[2:]) and not any(h.by_kind for h in hits[:2])
    assert all("land" not in h.mapping for h in hits[:2]), [h.mapping for h in hits]
    countries = hits[order.index("world/countries")]
    assert countries.mapping.get("persons") in (None, "isonumeric")
    assert all(e["header"] == 0 for e in countries.evidence.values())
    assert any("world/countries" in n and "ranked after" in n for n in hits.notes)


@pytest.mark.spark
def test_populations_are_not_stacked_as_geoname_ids(places_lake):
    """D7: countries by name, alpha-2, alpha-3 and population; the codes table holds the
    names and codes and GeoNames ids of the populations' size, none equal to one. The codes
    align; `population` stays unaligned (no value shared, no name alike), so the union adds
    no value to it, and "only new rows" adds the rows the query lacks (by hand: the five
    countries left out of it), not all 40 again with made-up populations."""
    engine, countries, codes = places_lake
    q = countries.iloc[5:][["name", "iso3", "population"]].copy()
    q.insert(1, "iso", codes["alpha_2"].iloc[5:].to_numpy())
    hits = engine.search_unionable(q, k=5)
    h = [h for h in hits if h.table == "reference/codes"][0]
    assert h.mapping == {"name": "display_name", "iso": "alpha_2", "iso3": "alpha_3"}, h.mapping
    out = h.union(q)
    added = out[out["source_table"] != "query"]
    assert sorted(added["name"]) == sorted(codes["display_name"].iloc[:5])
    assert added["population"].isna().all()
    assert len(h.union(q, distinct=False)) == len(q) + len(codes)


@pytest.fixture(scope="module")
def long_table_lake(spark, tmp_path_factory):
    """verify28's variation of D7 in miniature: a country-year table (every country's name
    in 500 rows, a value per row of the size of the countries' areas) that shares one value
    with the query's areas by chance (20,000 values over 400..9,000,000)."""
    rng = np.random.default_rng(28)
    names, a2, a3, num = map(list, zip(*COUNTRIES))
    areas = rng.integers(400, 9_000_000, len(COUNTRIES))
    years = np.arange(1523, 2023)
    values = rng.integers(400, 9_000_000, len(COUNTRIES) * len(years))
    values = np.where(np.isin(values, areas), values + 1, values)
    values[3] = areas[7]                                      # the one coincidence
    long = pd.DataFrame({"country": np.repeat(names, len(years)),
                         "year": np.tile(years, len(COUNTRIES)), "value": values})
    engine = lake_engine(spark, tmp_path_factory, "longlake", {
        "reference/population.csv": long,
        "world/iso.csv": pd.DataFrame({"alpha_3": a3, "numeric": num})},
        components=["-josie", "-mate", "-lshensemble", "union"])
    return engine, pd.DataFrame({"name": names, "iso3": a3, "areakm2": areas})


@pytest.mark.spark
def test_areas_are_not_stacked_as_one_coincidence_of_a_long_table(long_table_lake):
    """verify28's D7 variation: the query's areas and a country-year table's values share
    one value, no more than the table's 20,000 values over the same range share by chance
    (set likelihood 0), and no name: `areakm2 <- value` stacked 20,000 yearly values as
    areas. It stays unaligned as a pair sharing none does; the names still align."""
    engine, q = long_table_lake
    hits = engine.search_unionable(q, k=5)
    h = [h for h in hits if h.table == "reference/population"][0]
    assert h.mapping.get("name") == "country", h.mapping
    assert "areakm2" not in h.mapping, h.mapping
    assert h.union(q, distinct=False)["areakm2"].iloc[len(q):].isna().all()


@pytest.mark.spark
def test_populations_are_not_stacked_when_the_key_repeats_in_a_few_rows(places_lake):
    """The twentieth user's D11: the D7 query with three of its countries entered twice
    (two rows repeated, one under another spelling of the name), as real frames are: the
    codes still make the table hold the query's entities (``is_key``: 35 codes in 38 rows),
    so `population` stays unaligned and "only new rows" adds the five countries left out."""
    engine, countries, codes = places_lake
    q = countries.iloc[5:][["name", "iso3", "population"]].copy()
    q.insert(1, "iso", codes["alpha_2"].iloc[5:].to_numpy())
    again = q.iloc[:3].copy()
    again.iloc[2, 0] = again.iloc[2, 0] + " (the)"
    q = pd.concat([q, again], ignore_index=True)
    hits = engine.search_unionable(q, k=5)
    h = [h for h in hits if h.table == "reference/codes"][0]
    assert "population" not in h.mapping, h.mapping
    out = h.union(q)
    added = out[out["source_table"] != "query"]
    assert sorted(added["name"]) == sorted(codes["display_name"].iloc[:5])
    assert added["population"].isna().all()


def test_is_key_allows_a_few_duplicates():
    """A key repeating in 3 of 254 rows is a key (251 distinct >= 0.9 * 254); a column of
    categories is not; two values at least."""
    def col(values):
        s = pd.Series(values, dtype=object)
        return un.is_key(s, un.QueryColumn("c", list(dict.fromkeys(s.dropna().astype(str))),
                                           None, 0.0, 0, None, None, frozenset()))
    assert col([f"k{i}" for i in range(251)] + ["k0", "k1", "k2"])
    assert col([f"k{i}" for i in range(20)] + [None] * 5)
    assert not col([f"k{i % 100}" for i in range(254)])
    assert not col(["a"]) and not col([None, None])


@pytest.mark.spark
def test_a_pair_added_by_name_does_not_lift_a_table_of_kind_alone(places_lake):
    """The twenty-third user's second report, E2: `reference/gdp` against police killings
    (city as Country Name, state as Country Code, a census tract as Value, none shared) was
    listed 4th, not last: `Year <- year`, added by the name rule, has a name. Names complete
    an alignment and never rank a table, so only the pairs that give the score say whether
    it is aligned by kind alone. Here: the D3 query plus `population` far out of every lake
    column's range (no pair scores), which the name rule aligns with the countries'
    `population`; the countries table still ranks after the two holding the values."""
    engine, _, _ = places_lake
    rng = np.random.default_rng(5)
    q = pd.DataFrame({"persons": rng.integers(1, 7, 30), "city": CITIES[:30],
                      "land": np.random.default_rng(3).integers(400, 9_000_000, 30),
                      "population": np.arange(30) * 7 + 10**13})
    hits = engine.search_unionable(q, k=10)
    order = [h.table for h in hits]
    assert order[:2] == ["world/cities", "misc/households"], order
    countries = hits[order.index("world/countries")]
    assert countries.mapping.get("population") == "population", countries.mapping
    assert "population" in countries.named
    assert countries.by_kind
    from lakejoin_jupyter.errors import LakeJoinWarning
    with pytest.warns(LakeJoinWarning, match="world/countries is aligned by its columns' kind"):
        countries.union(q)
