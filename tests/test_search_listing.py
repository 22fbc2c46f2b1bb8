"""How a search lists its hits, on the demo index: the query's own table is last and marked
"(your table)" under either ranking, in the API's text and the widget's table alike; an
empty multi-column search names the query columns none of whose values the lake holds; the
columns a hit says its join adds are the columns the joined frame gains."""
import pandas as pd
import pytest

from lakejoin_jupyter.demo import demo_query

pytestmark = pytest.mark.spark


@pytest.mark.parametrize("rank", ["overlap", "useful"])
def test_own_table_is_last_and_marked_under_either_ranking(demo_engine, rank):
    fifa = demo_query()           # read from the demo lake's fifa table, without attrs
    res = demo_engine.search(fifa, "country", k=None, rank=rank)
    own = [h for h in res if h.is_query_table]
    assert len(own) == 1 and res[-1] is own[0], [(h.table, h.is_query_table) for h in res]
    assert [h.rank for h in res] == list(range(1, len(res) + 1))
    assert "(your table)" in res.text_table()["table"].iloc[-1]
    others = [h for h in res if not h.is_query_table]     # the rest keep the method's order
    if rank == "overlap":
        assert [h.overlap for h in others] == sorted((h.overlap for h in others), reverse=True)


@pytest.mark.parametrize("rank", ["overlap", "useful"])
def test_own_table_takes_no_place_of_k_under_either_ranking(demo_engine, rank):
    """newuser20 D3: under "overlap" the frame's own table shares every value and ranks
    first, so k=1 answered with it alone. The k places go to the other tables, the first k
    of the whole list's others in its order, and the own table is named (own_left_out, the
    "Also matching" line) instead."""
    fifa = demo_query()
    whole = list(demo_engine.search(fifa, "country", k=None, rank=rank))
    order = [h.column_ids for h in whole if not h.is_query_table]   # the oracle
    assert len(order) >= 2 and whole[-1].is_query_table
    own = f"{whole[-1].table} (your table)"
    for k in (1, 2):
        res = demo_engine.search(fifa, "country", k=k, rank=rank)
        assert [h.column_ids for h in res] == order[:k], (rank, k)
        assert res.own_left_out == [own] and res.also_matching().startswith(
            f"Also matching: {own}, not counted")
    bare = demo_engine.search(fifa, "country", k=1, annotate=False)   # the method's first
    assert bare[0].table == whole[-1].table and bare[0].overlap == bare.query.size


def test_widget_marks_the_own_table(demo_engine):
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    fifa = demo_query()
    w = DiscoveryWidget(demo_engine, session=Session(), namespace={"fifa": fifa},
                        frame="fifa", columns=["country"], auto_insert=False)
    w.k_box.value = 100
    w.search().wait()
    shown = next(c for c in w.results.columns if c["label"] == "table")["key"]
    labels = [r[shown] for r in w.results.rows]
    assert labels[-1].endswith("(your table)"), labels
    assert not any("(your table)" in x for x in labels[:-1])
    assert w.results.rows[-1]["table"] == w._hits[-1].table          # the row's table name


def test_empty_multi_column_search_names_the_column_without_values(demo_engine):
    gdp = demo_engine.table("reference/gdp").head(20)
    both = demo_engine.search(gdp, ["Country Code", "Year"], k=3)
    assert len(both) > 0
    bogus = gdp.assign(bogus="zz-not-in-the-lake")
    res = demo_engine.search(bogus, ["Country Code", "Year", "bogus"], k=3)
    assert len(res) == 0 and res.absent_columns == ["bogus"]
    for text in (res.empty_message, res.empty_text(widget=True), repr(res), res._repr_html_()):
        assert "'bogus'" in text or "&#x27;bogus&#x27;" in text, text
    # every column has values in the lake, but no row holds them together: no column named
    apart = pd.DataFrame({"Country Code": ["USA", "FRA"], "Year": ["Germany", "Japan"]})
    res = demo_engine.search(apart, ["Country Code", "Year"], k=3)
    assert len(res) == 0 and res.absent_columns == []
    assert "no lake column holds" not in res.empty_message


def test_adds_counts_the_columns_the_join_adds(demo_engine):
    fifa = demo_query()
    for h in demo_engine.search(fifa, "country", k=5, rank="useful"):
        if "program_json" in h.details or "tau" in h.details:
            continue
        joined = h.join(fifa)
        gained = [c for c in joined.columns if c not in fifa.columns]
        assert [a.name for a in h.added_columns] == gained, h.table
        assert h.to_dict()["added_columns"] == len(gained), h.table
    gdp = demo_engine.table("reference/gdp").head(20)[["Country Code", "Year"]]
    for h in demo_engine.search(gdp, ["Country Code", "Year"], k=3, include_own=False):
        gained = [c for c in h.join(gdp).columns if c not in gdp.columns]
        assert [a.name for a in h.added_columns] == gained and \
            h.to_dict()["added_columns"] == len(gained), h.table
