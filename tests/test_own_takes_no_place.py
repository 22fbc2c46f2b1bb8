"""The query's own table and the tables already joined take none of the k places while
another hit qualifies (newuser20 D3: search(df, k=1) answered with the user's own table
alone): the k best others are listed, those two kinds last only where fewer than k others
qualify, and one passed over is named (``own_left_out``, "Also matching: ..." under the
list), under either ranking, in the join and the union search, the widget, the repr, the
HTML and the CLI. A query naming a lake table keeps its listing (test_engine.py,
test_josie_spark.py). Hand-checked lake: sales/orders (the query's rows: 6 cities),
sales/orders_2022 (4 of them), sales/orders_2021 (3 of them), same columns."""
from __future__ import annotations

import html

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import lake_engine
from lakejoin_jupyter.cli import main as cli

pytestmark = pytest.mark.spark

CITIES = ["Lyon", "Nice", "Brest", "Dijon", "Lille", "Metz"]
ORDERS = pd.DataFrame({"order_id": [f"O{i:02d}" for i in range(1, 9)],
                       "city": CITIES + ["Lyon", "Nice"],
                       "amount": ["12", "40", "7", "19", "33", "25", "8", "61"]})
Y2022 = pd.DataFrame({"order_id": [f"P{i:02d}" for i in range(1, 7)],
                      "city": ["Lyon", "Nice", "Brest", "Dijon", "Paris", "Tours"],
                      "amount": ["5", "14", "22", "9", "30", "17"]})
Y2021 = pd.DataFrame({"order_id": [f"Q{i:02d}" for i in range(1, 6)],
                      "city": ["Lyon", "Nice", "Brest", "Rouen", "Caen"],
                      "amount": ["11", "3", "28", "16", "21"]})
OWN = "sales/orders (your table)"


@pytest.fixture(scope="module")
def sales(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "own_no_place",
                       {"sales/orders.csv": ORDERS, "sales/orders_2022.csv": Y2022,
                        "sales/orders_2021.csv": Y2021}, components=["union"])


def _listed(res):
    return [(h.table, h.is_query_table) for h in res]


@pytest.mark.parametrize("rank", ["overlap", "useful"])
def test_k1_lists_the_best_other_table_and_names_the_own_one(sales, rank):
    """By hand: orders.city shares all 6 cities (first by overlap), orders_2022.city 4,
    orders_2021.city 3. k=1 -> orders_2022 alone, orders named; k=2 -> both others; k=3
    and more -> both others, then orders (your table), counted in the 3."""
    bare = sales.search(ORDERS, "city", k=None, annotate=False)
    assert [(h.table, h.overlap) for h in bare] == [
        ("sales/orders", 6), ("sales/orders_2022", 4), ("sales/orders_2021", 3)]
    for k in (1, 2):
        res = sales.search(ORDERS, "city", k=k, rank=rank)
        assert _listed(res) == [("sales/orders_2022", False),
                                ("sales/orders_2021", False)][:k]
        assert res.own_left_out == [OWN] and len(res) == k
        assert repr(res).startswith(f"{k} hit(s) for city")
        # the text states its ranking, as the HTML, the widget and the CLI do (newuser23 D3)
        words = {"overlap": "overlap", "useful": "usefulness"}[rank]
        assert repr(res).splitlines()[0].endswith(f"; ranked by {words})")
        assert f"<b>{k}</b> joinable column(s)" in res._repr_html_()
        also = (f"Also matching: {OWN}, not counted: listed only when fewer than {k} other "
                f"columns qualify; include_own=False (--no-own) leaves it out.")
        assert res.also_matching() == also and also in repr(res)
        assert html.escape(also) in res._repr_html_()
        assert res.also_matching(widget=True) == also.split(";")[0] + "."
    for k in (3, 5):
        res = sales.search(ORDERS, "city", k=k, rank=rank)
        assert _listed(res) == [("sales/orders_2022", False), ("sales/orders_2021", False),
                                ("sales/orders", True)]
        assert res.own_left_out == [] and res.also_matching() == ""
        assert "Also matching" not in repr(res) + res._repr_html_()
    gone = sales.search(ORDERS, "city", k=1, rank=rank, include_own=False)
    assert _listed(gone) == [("sales/orders_2022", False)]
    assert gone.own_left_out == [OWN] and gone.also_matching() == ""   # left out as asked


def test_a_query_naming_the_table_keeps_its_place(sales):
    """search("sales/orders", "city", exclude_self=False): the table named keeps its place
    among the method's k (listed last), as before; nothing is named."""
    res = sales.search("sales/orders", "city", k=1, exclude_self=False)
    assert _listed(res) == [("sales/orders", True)] and res.own_left_out == []
    res = sales.search("sales/orders", "city", k=2, exclude_self=False)
    assert _listed(res) == [("sales/orders_2022", False), ("sales/orders", True)]


def test_union_search_k1_lists_the_best_other_table(sales):
    """The union search of orders' rows: orders itself (every row the query's) ranks first;
    k=1 lists the best other table and names orders; k=5 lists the two others, then orders
    (your table), counted."""
    every = sales.search_unionable(ORDERS, k=5)
    others = [h.table for h in every if not h.is_query_table]
    assert sorted(others) == ["sales/orders_2021", "sales/orders_2022"]
    assert _listed(every)[-1] == ("sales/orders", True) and len(every) == 3
    assert every.own_left_out == [] and every.also_matching() == ""
    one = sales.search_unionable(ORDERS, k=1)
    assert _listed(one) == [(others[0], False)] and one.own_left_out == ["sales/orders"]
    also = ("Also matching: sales/orders (your table), not counted: listed only when fewer "
            "than 1 other tables qualify; include_own=False (--no-own) leaves it out.")
    assert one.also_matching() == also
    assert repr(one).startswith("1 unionable table(s)") and also in repr(one)
    assert "<b>1</b> unionable table(s)" in one._repr_html_()
    assert "Also matching: sales/orders (your table), not counted" in one._repr_html_()
    gone = sales.search_unionable(ORDERS, k=1, include_own=False)
    assert _listed(gone) == [(others[0], False)] and gone.also_matching() == ""
    named = sales.search_unionable(ORDERS, k=1, query_table="sales/orders")
    assert named.left_out == "sales/orders" and named.own_left_out == []


def test_widget_counts_k_and_says_what_else_matched(sales):
    """The widget at k=1: one row, the count line "1 hit(s)", and the line under the list
    naming the own table (without the API's option); the union mode alike."""
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    w = DiscoveryWidget(sales, session=Session(), namespace={"orders": ORDERS.copy()},
                        frame="orders", columns=["city"], auto_insert=False)
    w.k_box.value = 1
    w.search().wait()
    assert [r["table"] for r in w.results.rows] == ["sales/orders_2022"]
    assert w.status_text.startswith("1 hit(s) for orders[city]"), w.status_text
    assert w.results.footnote == (f"Also matching: {OWN}, not counted: listed only when "
                                  f"fewer than 1 other columns qualify.")
    w.k_box.value = 5
    w.search().wait()
    assert [r["table_label"] for r in w.results.rows][-1] == OWN
    assert w.status_text.startswith("3 hit(s)") and w.results.footnote == ""
    u = DiscoveryWidget(sales, session=Session(), namespace={"orders": ORDERS.copy()},
                        frame="orders", auto_insert=False, mode="union")
    u.k_box.value = 1
    u.search().wait()
    assert len(u.results.rows) == 1 and u.status_text.startswith("1 unionable table(s)")
    assert u.results.footnote.startswith("Also matching: sales/orders (your table), not "
                                         "counted: listed only when fewer than 1 other")


def test_magics_and_cli_say_it_too(sales, ip, tmp_path, capsys):
    ip.run_line_magic("lakejoin", f"open {sales.index.path}")
    ip.user_ns["orders"] = ORDERS.copy()
    res = ip.run_line_magic("lakejoin", "search orders.city -k 1")
    assert len(res) == 1 and res.own_left_out == [OWN]
    assert "Also matching: sales/orders (your table)" in ip.display_formatter.format(res)[0][
        "text/plain"]
    union = ip.run_line_magic("lakejoin", "union orders -k 1")
    assert len(union) == 1 and union.own_left_out == ["sales/orders"]
    f = tmp_path / "orders_copy.csv"            # not a lake file: decided on its rows
    ORDERS.to_csv(f, index=False)
    capsys.readouterr()
    assert cli(["search", str(sales.index.path), "-t", str(f), "-c", "city", "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "sales/orders_2022" in out and f"Also matching: {OWN}, not counted" in out
    assert cli(["union", str(sales.index.path), "-t", str(f), "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "Also matching: sales/orders (your table), not counted" in out


# ---------------------------------------------------------------- random lakes

VOCAB = [f"w{i:02d}" for i in range(30)]


@pytest.fixture(scope="module")
def random_lake(spark, tmp_path_factory):
    """Eight tables t0..t7 of random subsets of 30 words (column a, and b), every table's
    rows distinct, so a frame of t0's rows is t0's alone."""
    rng = np.random.default_rng(20)
    tables = {}
    for t in range(8):
        n = int(rng.integers(4, 20))
        a = rng.choice(VOCAB, n, replace=False)
        b = rng.choice(VOCAB, n, replace=True)
        tables[f"r/t{t}.csv"] = pd.DataFrame({"a": a, "b": b, "n": [str(i) for i in range(n)]})
    engine = lake_engine(spark, tmp_path_factory, "own_random", tables)
    return engine, {name[:-4]: df for name, df in tables.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), k=st.integers(1, 8), own=st.booleans(),
       chain=st.sets(st.integers(0, 7), max_size=4))
def test_k_hits_are_brute_forces_k_best_others_then_own_fill(random_lake, data, k, own, chain):
    """Oracle: brute force's bare ranking (annotate=False), the own and joined tables taken
    from the marks of the whole listing. The k hits are brute force's k best others (their
    overlaps: ties may order alike columns otherwise), then the own and joined ones, last,
    in the places left; own_left_out names those that outrank the k-th other."""
    engine, tables = random_lake
    if own:
        frame, col = tables["r/t0"].copy(), "a"
    else:
        frame = pd.DataFrame({"q": data.draw(st.lists(st.sampled_from(VOCAB), min_size=1,
                                                      max_size=12))})
        col = "q"
    frame.attrs["lakejoin_chain"] = [f"r/t{t}" for t in sorted(chain)]
    whole = engine.search(frame, col, k=None, method="bruteforce")
    mine = {h.table for h in whole if h.is_query_table or h.in_chain}
    assert (own and "r/t0" in mine) or not own
    bare = engine.search(frame, col, k=None, method="bruteforce", annotate=False)
    others = [h.overlap for h in bare if h.table not in mine][:k]
    fill = min(k - len(others), sum(h.table in mine for h in bare))
    for rank in ("overlap", "useful"):
        got = engine.search(frame, col, k=k, rank=rank)
        assert len(got) == len(others) + fill <= k
        head, tail = got[:len(others)], got[len(others):]
        assert not any(h.table in mine for h in head) and all(h.table in mine for h in tail)
        if rank == "overlap":
            assert [h.overlap for h in head] == others
        elif len(bare) <= max(2 * k, k + 10):   # every candidate ranked by usefulness:
            useful = engine.search(frame, col, k=None, rank="useful")   # the whole listing's
            assert [h.column_ids for h in head] == [                      # first k others
                h.column_ids for h in useful if h.table not in mine][:k]
        if len(others) < k:
            assert got.own_left_out == []
            continue
        kth = others[-1]
        named = {n.rsplit(" (", 1)[0] for n in got.own_left_out}
        assert named <= mine and not named & {h.table for h in got}
        if rank == "overlap":
            above = {h.table for h in bare if h.table in mine and h.overlap > kth}
            assert above - {h.table for h in got} <= named
            assert all(any(h.table == t and h.overlap >= kth for h in bare) for t in named)
