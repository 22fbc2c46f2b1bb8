"""A frame read with ``engine.table(name)`` keeps ``attrs["lakejoin_table"]`` through head(),
column selections and copies (pandas carries attrs): the searches decide its own table on
its rows, as for the same rows read otherwise, never by that name (newuser18 D2: such a
frame, even a 3-of-6-row cut, silently lost its table's columns, and the empty result said
"No column of the lake shares a value with the query"). A query named as a lake table still
leaves its own column out, and an empty result says so, in Python, the magic and the CLI.
Hand-checked lake: shops (code, name, city) and regions (city, region); only shops.name
holds the shop names, shops.city and regions.city the cities."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.cli import main as cli
from lakejoin_jupyter.errors import QueryError

pytestmark = pytest.mark.spark

SHOPS = pd.DataFrame({"code": ["S01", "S02", "S03", "S04", "S05", "S06"],
                      "name": ["Acme Tools", "Bolt Hardware", "Crate Supply", "Dowel Depot",
                               "Epoxy Emporium", "Fathom Fasteners"],
                      "city": ["Lyon", "Nice", "Lyon", "Brest", "Nice", "Dijon"]})
REGIONS = pd.DataFrame({"city": ["Lyon", "Nice", "Brest", "Dijon", "Lille"],
                        "region": ["ARA", "PACA", "BRE", "BFC", "HDF"]})


@pytest.fixture(scope="module")
def shops_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "own_table_frame",
                       {"shops.csv": SHOPS, "regions.csv": REGIONS}, components=["union"])


def _hits(res):
    return [(h.table, h.column, h.overlap, h.is_query_table) for h in res]


def _plain(frame):
    """The same rows without attrs: what the rows alone decide."""
    out = pd.DataFrame({c: frame[c].tolist() for c in frame.columns})
    assert not out.attrs
    return out


def test_a_table_frame_and_its_cuts_are_decided_on_their_rows(shops_engine):
    """By hand: t (all of shops), t.head(3) and t[["name", "city"]].head(3) are shops' rows:
    its name column is listed, marked (your table), last; include_own=False leaves it out
    and the empty result says what was left out. A key-only cut t[["code"]].head(3) is a
    list of keys (README): shops.code listed unmarked. Each as its rows without attrs."""
    t = shops_engine.table("shops")
    assert t.head(3).attrs["lakejoin_table"] == "shops"       # pandas carries it
    for frame in (t, t.head(3), t[["name", "city"]].head(3).copy()):
        res = shops_engine.search(frame, "name", k=5)
        assert _hits(res) == [("shops", "name", len(frame), True)]
        assert _hits(res) == _hits(shops_engine.search(_plain(frame), "name", k=5))
        city = shops_engine.search(frame, "city", k=5)
        assert [(h.table, h.is_query_table) for h in city] == [("regions", False),
                                                              ("shops", True)]
        gone = shops_engine.search(frame, "name", k=5, include_own=False)
        assert len(gone) == 0
        assert "No column of the lake" not in gone.empty_message
        assert gone.empty_message.startswith(
            "Left out as asked (include_own=False, --no-own): shops (your table). No other "
            "column of the lake shares a value with the query.")
    keys = shops_engine.search(t[["code"]].head(3).copy(), "code", k=5)
    assert _hits(keys) == [("shops", "code", 3, False)]


def test_union_search_of_a_table_frame_lists_its_table(shops_engine):
    """search_unionable of t.head(3) lists shops (your table), last, as for the rows
    without attrs; include_own=False leaves it out."""
    t = shops_engine.table("shops")
    res = shops_engine.search_unionable(t.head(3), k=5)
    assert [h.table for h in res if h.is_query_table] == ["shops"] and res[-1].table == "shops"
    plain = shops_engine.search_unionable(_plain(t.head(3)), k=5)
    assert [(h.table, h.is_query_table) for h in res] == \
        [(h.table, h.is_query_table) for h in plain]
    mine = shops_engine.search_unionable(t.head(3)[["name"]], k=5, include_own=False)
    assert len(mine) == 0
    assert mine.empty_message == ("No other lake table aligns with the query's columns: the "
                                  "table its rows come from, shops, is left out as asked "
                                  "(include_own=False, --no-own).")


def test_a_lake_table_query_says_its_own_column_was_left_out(shops_engine, ip, capsys):
    """search("shops", "name"): shops.name, the query's own column, is left out (by name);
    no other column holds a shop name, so the result is empty, and the message says the own
    column was left out instead of "No column of the lake shares a value" (false: it does).
    The same text in %lakejoin search and lakejoin search; the union of the lake table
    named, on its name column, likewise (Python and lakejoin union)."""
    res = shops_engine.search("shops", "name", k=3)
    assert len(res) == 0
    want = ("The query is the lake table shops: its own column 'name' left out of its "
            "results. No other column of the lake shares a value with the query.")
    assert res.empty_message.startswith(want)
    ip.run_line_magic("lakejoin", f"open {shops_engine.index.path}")
    magic = ip.run_line_magic("lakejoin", "search shops -c name -k 3")
    assert len(magic) == 0 and magic.empty_message.startswith(want)
    assert want in magic._repr_html_().replace("&#x27;", "'")
    capsys.readouterr()
    assert cli(["search", str(shops_engine.index.path), "-t", "shops", "-c", "name"]) == 0
    assert want in capsys.readouterr().out
    union = shops_engine.search_unionable("shops", columns=["name"], k=3)
    assert len(union) == 0 and union.left_out == "shops"
    assert union.empty_message == ("No other lake table aligns with the query's columns: "
                                   "the query is the lake table shops, left out of its "
                                   "own results.")
    capsys.readouterr()
    assert cli(["union", str(shops_engine.index.path), "-t", "shops", "-c", "name"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("No other lake table aligns with the columns of shops (")
    assert said.rstrip().endswith("ms): it is the lake table shops, left out of its own "
                                  "results.")


def test_query_table_leaves_the_frames_own_column_out(shops_engine):
    """search(t, col, query_table="shops"): the frame is shops by the caller's word, so its
    query column is left out as for search("shops", col) (the benchmarks' seeds), by hand:
    city finds regions.city alone, name finds nothing and says its own column was left
    out. Only a DataFrame takes it; a column the table lacks is refused by name."""
    t = shops_engine.table("shops")
    city = shops_engine.search(t, "city", k=5, query_table="shops")
    assert _hits(city) == [("regions", "city", 4, False)]
    assert _hits(city) == _hits(shops_engine.search("shops", "city", k=5))
    for frame in (t, t.head(3)):
        res = shops_engine.search(frame, "name", k=5, query_table="shops")
        assert len(res) == 0
        assert res.empty_message.startswith(
            "The query is the lake table shops: its own column 'name' left out of its "
            "results. No other column of the lake shares a value with the query.")
    with pytest.raises(QueryError, match="query_table names the lake table a DataFrame"):
        shops_engine.search(["Lyon", "Nice"], k=5, query_table="shops")
    added = t.assign(town=t["city"])
    with pytest.raises(QueryError, match="query_table='shops'.*'town'"):
        shops_engine.search(added, "town", k=5, query_table="shops")
