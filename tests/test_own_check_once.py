"""A frame's own-table check (Engine.own_tables: does this lake table hold the frame's
rows?) is made once per table and frame: a search whose pool grows (the own table took a
place of k, fixd3) asks own_tables again over the grown pool, and a second search of the
same frame asks it again; neither checks a table already checked. A frame changed in place
is checked again. Hand-checked lake: sales/orders holds the frame's rows (its own table),
sales/orders_2022 and sales/orders_2021 share 4 and 3 of its cities."""
from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest

from conftest import lake_engine
from test_own_takes_no_place import ORDERS, Y2021, Y2022   # the same hand-checked lake

pytestmark = pytest.mark.spark

@pytest.fixture(scope="module")
def sales(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "own_check_once",
                       {"sales/orders.csv": ORDERS, "sales/orders_2022.csv": Y2022,
                        "sales/orders_2021.csv": Y2021})


@pytest.fixture
def spied(sales, monkeypatch):
    """The engine with its column checks (_holds: a lake column's set holds a frame
    column's values), row checks (_holds_rows) and own_tables calls counted, and no check
    remembered from another test."""
    calls = {"holds": Counter(), "rows": Counter(), "own_tables": 0}
    holds, rows, own = sales._holds, sales._holds_rows, sales.own_tables

    def count_holds(cid, tokens, *args, **kwargs):
        calls["holds"][int(cid), tuple(tokens)] += 1
        return holds(cid, tokens, *args, **kwargs)

    def count_rows(t, *args, **kwargs):
        calls["rows"][int(t)] += 1
        return rows(t, *args, **kwargs)

    def count_own(*args, **kwargs):
        calls["own_tables"] += 1
        return own(*args, **kwargs)

    monkeypatch.setattr(sales, "_holds", count_holds)
    monkeypatch.setattr(sales, "_holds_rows", count_rows)
    monkeypatch.setattr(sales, "own_tables", count_own)
    sales.forget_own_checks()
    return sales, calls


def test_a_grown_pool_and_a_search_again_check_each_table_once(spied):
    """k=1: orders (the frame's own, first by overlap) takes no place, so the method is asked
    again and own_tables runs a second time over orders and orders_2022 (at least): each
    lake column is checked against each frame column once, each table's rows once; a
    second search of the frame checks nothing."""
    engine, calls = spied
    res = engine.search(ORDERS, "city", k=1)
    assert [h.table for h in res] == ["sales/orders_2022"]
    assert res.own_left_out == ["sales/orders (your table)"]
    assert calls["own_tables"] >= 2              # the pool grew: asked again
    assert calls["holds"] and max(calls["holds"].values()) == 1, calls
    assert calls["rows"] and max(calls["rows"].values()) == 1, calls
    first = (sum(calls["holds"].values()), sum(calls["rows"].values()))
    again = engine.search(ORDERS.copy(), "city", k=1)     # the same content: remembered
    assert [h.table for h in again] == ["sales/orders_2022"]
    assert again.own_left_out == ["sales/orders (your table)"]
    assert (sum(calls["holds"].values()), sum(calls["rows"].values())) == first


def test_a_frame_changed_in_place_is_checked_again(spied):
    """The same frame object, its first row's amount changed to another of orders' amounts
    ("40": no row of orders is O01, Lyon, 40): its rows are no longer the table's, so
    orders is no longer its own (listed first, unmarked); the check ran again. Put back,
    it is its own again (from the first check, remembered)."""
    engine, calls = spied
    frame = ORDERS.copy()
    res = engine.search(frame, "city", k=3)
    assert [(h.table, h.is_query_table) for h in res][-1] == ("sales/orders", True)
    before = sum(calls["rows"].values()) + sum(calls["holds"].values())
    frame.loc[0, "amount"] = "40"
    changed = engine.search(frame, "city", k=3)
    assert [(h.table, h.is_query_table) for h in changed][0] == ("sales/orders", False)
    assert not any(h.is_query_table for h in changed)
    assert sum(calls["rows"].values()) + sum(calls["holds"].values()) > before
    frame.loc[0, "amount"] = "12"
    back = engine.search(frame, "city", k=3)
    assert [(h.table, h.is_query_table) for h in back][-1] == ("sales/orders", True)
