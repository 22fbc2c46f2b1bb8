"""Union search: pairs without value evidence that a name contradicts or does not make
(the twenty-third user's second report, E1 and E2).

E1: ids of one shape, `vendor_id` sharing the query's vendor ids and `device_id` none: the
crossed pairs `vendor_id <- device_id`, `device_id <- vendor_id` (no shared value, names
alike by `_id`) outscored `vendor_id <- vendor_id`, and the union stacked device ids as
vendors (``names_crossed``). E2: in a table holding the query's countries, `units <-
currency_minor_unit` (two small integers shared by chance, names sharing `unit`) aligned
and ranked the table first; a table whose score comes from pairs of kind alone was lifted
from last by a pair the name rule added (``by_kind``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.search import union as un


def test_names_crossed_by_hand():
    """Query (vendor_id, device_id, name) x table (host, vendor_id, device_id): the pairs
    without set evidence whose query or lake column has a same-named partner yield; the
    same-named pairs, a pair with set evidence, and columns without a namesake stay."""
    same = np.array([[False, True, False], [False, False, True], [False, False, False]])
    has_set = np.array([[False, True, False], [False, False, False], [False, True, False]])
    got = un.names_crossed(has_set, same)
    assert got.tolist() == [[True, False, True],      # vendor_id: host, device_id yield
                            [True, True, False],      # device_id: host, vendor_id yield
                            [False, False, True]]     # name <- vendor_id: set evidence stays


def test_the_users_inventory_aligns_straight():
    """E1 with the scores of the user's index (query vendor_id, device_id, device_name x
    inventory_ts host, vendor_id, device_id, installed): `vendor_id <- vendor_id` 0.92 with
    set evidence, the crossed pairs 0.50 and 0.53 without, `device_id <- device_id` 0.35.
    The matching took the crossed pairs (1.03 > 0.92); with names_crossed, the straight one,
    `device_id` left to the name rule."""
    S = np.array([[0.0, 0.922, 0.505, 0.0], [0.0, 0.529, 0.354, 0.076],
                  [0.0, 0.146, 0.205, 0.101]])
    has_set = np.array([[False, True, False, False], [False, False, False, False],
                        [False, False, False, False]])
    same = np.array([[False, True, False, False], [False, False, True, False],
                     [False, False, False, False]])
    assert un.best_alignment(S)[0] == [(0, 2), (1, 1)]             # before: crossed
    yields = un.names_crossed(has_set, same)
    assert un.best_alignment(np.where(yields, 0.0, S))[0] == [(0, 1)]


def test_values_unshared_a_name_sharing_a_word_is_not_the_name():
    """`units` against `currency_minor_unit`: no value beyond chance; the names share a
    word (header likelihood > 0 before), not the name: unshared now; the same name stays."""
    units = un.profile_column(pd.Series([3, 5, 2, 7, 4], name="units"), 50)[0]
    got = un.values_unshared([units], np.array([[2, 2]]), np.array([[0.0, 0.0]]),
                             np.array([[1.0, 1.0]]), np.array([[False, True]]))
    assert got.tolist() == [[True, False]]
    ver = un.profile_column(pd.Series(["1.2-1", "2.0-3", "0.9-1", "3.1-2", "1.0-1"],
                                      name="ver"), 50)[0]       # text: a name alike is a name
    got = un.values_unshared([ver], np.array([[0, 0]]), np.array([[0.0, 0.0]]),
                             np.array([[0.6, 0.0]]), np.array([[False, False]]))
    assert got.tolist() == [[False, True]]


def hexes(rng, n, exclude=()):
    out = []
    while len(out) < n:
        h = f"{int(rng.integers(0x1000, 0xffff)):04x}"
        if h not in exclude and h not in out and not h.isdigit():
            out.append(h)
    return out


@pytest.fixture(scope="module")
def ids_lake(spark, tmp_path_factory):
    """An inventory (host, vendor_id, device_id: 4-hex ids, 40 vendors, 400 devices), a
    vendor table (vendor_id, vendor_name); countries with their currency's minor unit, and
    a list of countries."""
    rng = np.random.default_rng(23)
    vendors = hexes(rng, 40)
    devices = hexes(rng, 400, exclude=vendors)
    inv = pd.DataFrame({"host": [f"host{i:03d}" for i in range(600)],
                        "vendor_id": rng.choice(vendors, 600),
                        "device_id": rng.choice(devices, 600)})
    vend = pd.DataFrame({"vendor_id": vendors, "vendor_name": [f"Vendor {v.upper()} Inc."
                                                               for v in vendors]})
    countries = [f"Country{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(120)]
    cur = pd.DataFrame({"country_name": countries,
                        "currency_minor_unit": rng.choice([0, 2, 2, 2, 3], 120)})
    top = pd.DataFrame({"country": countries[:30]})
    engine = lake_engine(spark, tmp_path_factory, "idslake", {
        "inventory/inv.csv": inv, "pci/vendors.csv": vend,
        "reference/currencies.csv": cur, "reference/top.csv": top},
        components=["-josie", "-mate", "-lshensemble", "union"])
    return engine, vendors, devices, countries


@pytest.mark.spark
def test_ids_do_not_align_crosswise(ids_lake):
    """E1 in a small lake (a guard: here the crossed pairs score under min_column on main
    too, the lake's background being small): the query's vendor ids are the inventory's (4
    of 6), its device ids none of them; `vendor_id <- vendor_id` aligns by values,
    `device_id` by its name or not at all, never the crossed pairs."""
    engine, vendors, devices, _ = ids_lake
    rng = np.random.default_rng(7)
    q = pd.DataFrame({"vendor_id": vendors[:4] + hexes(rng, 2, exclude=vendors + devices),
                      "device_id": hexes(np.random.default_rng(8), 6, exclude=vendors + devices),
                      "device_name": [f"Device model {i}" for i in range(6)]})
    hits = engine.search_unionable(q, k=10)
    h = [h for h in hits if h.table == "inventory/inv"][0]
    assert h.mapping.get("vendor_id") == "vendor_id", h.mapping
    assert h.mapping.get("device_id") in (None, "device_id"), h.mapping


@pytest.mark.spark
def test_units_are_not_stacked_as_currency_minor_units(ids_lake):
    """E2 (the README's quickstart): countries and units sold; the currencies table holds
    the countries and a minor unit (0, 2, 3) sharing two of the units by chance, its name
    sharing `unit`. `units` stays unaligned, so the country-only tables tie on the country
    column and the currencies table is not first by the units."""
    engine, _, _, countries = ids_lake
    q = pd.DataFrame({"country": countries[:5], "units": [3, 5, 2, 7, 4]})
    hits = engine.search_unionable(q, k=5)
    h = [h for h in hits if h.table == "reference/currencies"][0]
    assert h.mapping == {"country": "country_name"}, h.mapping
    assert h.union(q, distinct=False)["units"].iloc[len(q):].isna().all()


def test_by_kind_a_word_in_common_is_not_the_name():
    """`Country Name <- state_name` (header likelihood > 0: the word `name`) and `Country
    Code <- state_abb`, no value beyond chance: aligned by kind alone, given the same-name
    matrix; a same-named pair or one with set evidence is not."""
    u = {0: {"set": np.array([0.0, 0.0, 0.9]), "header": np.array([0.8, 1.0, 0.0])},
         1: {"set": np.array([0.0, 0.0, 0.0]), "header": np.array([0.0, 0.0, 0.0])}}
    same = np.array([[False, True, False], [False, False, False]])
    assert un.by_kind(u, [(0, 0), (1, 1)], same)
    assert not un.by_kind(u, [(0, 0), (1, 1)])           # header alone (no matrix)
    assert not un.by_kind(u, [(0, 1)], same) and not un.by_kind(u, [(0, 2)], same)


def test_names_within_by_hand():
    """A number column sharing no value aligns by a name whose words hold the other's: the
    demo's `gdp_trillion_usd` under top-economies' `gdp_trillion` (the browser test's union
    of 10 + 230 rows), never `units` under `currency_minor_unit` (the README's sales)."""
    from lakejoin_jupyter.search.union import names_within
    got = names_within(["gdp_trillion_usd", "units", "Year"],
                       ["gdp_trillion", "currency_minor_unit", "year", "Country Name"])
    assert got.tolist() == [[True, False, False, False],
                            [False, False, False, False],
                            [False, False, True, False]]
