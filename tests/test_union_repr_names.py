"""The text repr of union hits cuts long table names as join search's repr and `lakejoin union`
do (formats.py ``clip_all``; verify27)."""
from lakejoin_jupyter.join.union import UnionHit, UnionResult


def test_union_hits_repr_cuts_long_table_names_as_join_search_does():
    """The repr printed a 100-character table name in full (join search's repr and
    `lakejoin union` cut it): the same cut, "(your table)" after it."""
    long = ("some_long_folder_name_for_the_data/european_capital_cities_population_by_year_"
            "from_the_statistics_office_2024")
    hits = [UnionHit(rank=1, table="short", table_id=0, score=0.6,
                     alignment=(("city", "city", 0.6),), rows=6),
            UnionHit(rank=2, table=long, table_id=1, score=0.5,
                     alignment=(("city", "city", 0.5),), rows=6, is_query_table=True)]
    lines = repr(UnionResult(hits, ["city"], 0.01)).splitlines()
    assert long not in "\n".join(lines)
    assert lines[2].split()[:2] == ["1", "short"]
    assert lines[3].split()[:4] == ["2", "some_long_folder_nam\u2026tistics_office_2024",
                                    "(your", "table)"]


def test_an_empty_unions_text_says_what_was_left_out():
    """newuser19's D2: an empty union's text repr says the table left out, as its HTML does
    (it printed only the count before)."""
    from lakejoin_jupyter.join.union import UnionResult
    res = UnionResult([], ["a", "b"], 0.0125)
    assert repr(res).splitlines() == ["0 unionable table(s) for 2 column(s) (12.5 ms)",
                                      "No lake table aligns with the query's columns."]
    res.own_left_out = ["misc/households"]
    assert repr(res).splitlines()[1] == (
        "No other lake table aligns with the query's columns: the table its rows come from, "
        "misc/households, is left out as asked (include_own=False, --no-own).")
    res.left_out, res.notes = "us/states", ["a note"]
    assert repr(res).splitlines()[1:] == [
        "No other lake table aligns with the query's columns: the query is the lake table "
        "us/states, left out of its own results.", "note: a note"]
