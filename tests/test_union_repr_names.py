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
