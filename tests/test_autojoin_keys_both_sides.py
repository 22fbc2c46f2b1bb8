"""Auto-Join's "joins ..." (repr and HTML) counts the keys joined against both tables' keys,
the left table's (the query) first, whichever table the program transforms (newuser17 D11:
"joins 10/5158 keys" for a complete join of 10 query rows when the program maps the query,
the query's share "joins 23/25 keys" when it maps the lake table). Hand-checked counts."""
from __future__ import annotations

import re

import pandas as pd

import lakejoin_jupyter as lj
from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program
from lakejoin_jupyter.join.autojoin.result import AutoJoin

FIRST = [f"First{i}" for i in range(40)]
LAST = [f"Last{i}" for i in range(40)]
LAKE_LASTFIRST = pd.DataFrame({"player": [f"{l}, {f}" for f, l in zip(FIRST, LAST)]})
LAKE_PARTS = pd.DataFrame({"first": FIRST, "last": LAST})


def test_query_mapped_to_the_lake_counts_the_query_keys_too():
    """10 query rows, all in the 40-row lake table: 10 of the query's 10 keys, 10 of 40."""
    q = pd.DataFrame({"first": FIRST[:10], "last": LAST[:10]})
    program = Program((Column("last"), Constant(", "), Column("first")))
    aj = AutoJoin(found=True, message="", left=q, right=LAKE_LASTFIRST, left_name="pl",
                  right_name="nba/players_lastfirst", source="left", program=program,
                  source_column="last", target_column="player").with_right(LAKE_LASTFIRST)
    assert aj.coverage == 10 and aj.joined_rows == 10
    said = "joins 10 of the 10 keys of pl, 10 of the 40 of nba/players_lastfirst"
    assert said in repr(aj), repr(aj)
    assert said in aj._repr_html_()


def test_query_rows_the_program_gives_no_key_count_as_keys_not_joined():
    """12 query rows, 2 without a last name (no key from the program): 10 of the 12."""
    q = pd.DataFrame({"first": FIRST[:12], "last": LAST[:10] + [None, None]})
    program = Program((Column("last"), Constant(", "), Column("first")))
    aj = AutoJoin(found=True, message="", left=q, right=LAKE_LASTFIRST, left_name="pl",
                  right_name="lake", source="left", program=program,
                  source_column="last", target_column="player").with_right(LAKE_LASTFIRST)
    assert "joins 10 of the 12 keys of pl, 10 of the 40 of lake" in repr(aj), repr(aj)


def test_lake_mapped_to_the_query_says_the_same_things_in_the_same_order():
    """12 query names "First Last", 10 of them in the lake: 10 of the query's 12 keys first,
    then 10 of the lake's 40 (the program's outputs on it)."""
    q = pd.DataFrame({"player": [f"{f} {l}" for f, l in zip(FIRST[:10], LAST[:10])]
                      + ["Nobody Here", "Someone Else"]})
    program = Program((Column("first"), Constant(" "), Column("last")))
    aj = AutoJoin(found=True, message="", left=q, right=LAKE_PARTS, left_name="pl",
                  right_name="nba/players", source="right", program=program,
                  source_column="first", target_column="player").with_right(LAKE_PARTS)
    assert aj.coverage == 10
    assert "joins 10 of the 12 keys of pl, 10 of the 40 of nba/players" in repr(aj), repr(aj)


def test_learned_join_of_a_complete_query_reads_complete():
    """The user's case end to end: every one of the 10 query rows joins; the repr says 10 of
    the query's 10 keys (whatever direction the learner took) and 10 of the lake's 40."""
    q = pd.DataFrame({"first_name": FIRST[3:13], "last_name": LAST[3:13]})
    aj = lj.autojoin(q, ["first_name", "last_name"], LAKE_LASTFIRST, "player", fuzzy=False)
    assert len(aj.join(q)) == 10
    said = re.search(r"joins (\d+) of the (\d+) keys of .*, (\d+) of the (\d+) of ", repr(aj))
    assert said and said.groups() == ("10", "10", "10", "40"), repr(aj)


def test_explain_counts_the_keys_as_the_repr_does():
    """explain() says the keys joined of both tables, the query first, as the repr does:
    10 of the query's 10 keys, 10 of the lake's 40 (not "10 of 40 distinct keys")."""
    q = pd.DataFrame({"first": FIRST[:10], "last": LAST[:10]})
    program = Program((Column("last"), Constant(", "), Column("first")))
    aj = AutoJoin(found=True, message="", left=q, right=LAKE_LASTFIRST, left_name="pl",
                  right_name="nba/players_lastfirst", source="left", program=program,
                  source_column="last", target_column="player").with_right(LAKE_LASTFIRST)
    said = "It joins 10 of the 10 keys of pl, 10 of the 40 of nba/players_lastfirst and 10 "
    assert said in aj.explain(), aj.explain()
    assert "distinct keys" not in aj.explain()


def test_a_spark_query_autojoin_saved_and_loaded_writes_the_same_pyspark_code():
    """The flag that the query was a Spark frame survives to_json/from_json: the reloaded
    Auto-Join writes the same (PySpark) code; one of a pandas query stays pandas."""
    q = pd.DataFrame({"first_name": FIRST[3:13], "last_name": LAST[3:13]})
    for spark in (True, False):
        aj = lj.autojoin(q, ["first_name", "last_name"], LAKE_LASTFIRST, "player", fuzzy=False)
        aj.spark_query = spark
        code = aj.code("pl", "out", other="lake")
        assert ("(PySpark;" in code.splitlines()[0]) == spark, code
        again = AutoJoin.from_json(aj.to_json(), left=q, right=LAKE_LASTFIRST)
        assert again.spark_query == spark
        assert again.code("pl", "out", other="lake") == code


def test_the_action_summary_without_the_query_column_counts_both_tables_keys():
    """The Find-transformation summary's fallback (the rows learned from lack the query
    column) says the keys joined of both tables, as the repr and explain() do, not the
    target's alone."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import _query_keys_joined
    aj = SimpleNamespace(pairs=lambda fuzzy: [], coverage=3, target_keys=40,
                         target_column="code",
                         keys_text=lambda: "3 of the 3 keys of q, 3 of the 40 of lake/t")
    text = _query_keys_joined(aj, pd.DataFrame({"other": [1]}), "missing", False, "q", False)
    assert text == "It joins 3 of the 3 keys of q, 3 of the 40 of lake/t"
