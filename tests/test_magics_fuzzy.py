"""``%lakejoin fuzzy``: the bound frame and the printed estimate are the engine's
``fuzzy_join`` on a hand-checked case (typed country names against the demo lake's
official names), from a lake column and from a saved search's hit; its --help; one clear
line for each bad input."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import magic_error
from lakejoin_jupyter.join.plan import default_variable

TABLE, COLUMN = "reference/country-codes", "official_name_en"
TYPED = ["Frnace", "Germany", "Itlay", "Brazl", "Japan", "Atlantis", "Argentna", "Canada",
         "Mexco", "Norway"]
# by hand: the official name each typed name means, where the lake has it ("Atlantis":
# none); at target 0.9 "Frnace" and "Itlay" are too far to join, at 0.8 "Frnace" joins
AT_90 = {"Germany": "Germany", "Brazl": "Brazil", "Japan": "Japan", "Argentna": "Argentina",
         "Canada": "Canada", "Mexco": "Mexico", "Norway": "Norway"}
AT_80 = {**AT_90, "Frnace": "France"}


@pytest.fixture
def ip(ip_inserting):
    ip_inserting.user_ns["places"] = pd.DataFrame({"where": TYPED, "n": range(len(TYPED))})
    return ip_inserting


def magic(ip, line):
    return ip.run_line_magic("lakejoin", line)


def joined_names(frame) -> dict:
    """{typed name: the official name it joined} of the rows that joined one."""
    hit = frame[frame[COLUMN].notna()]
    return dict(zip(hit["where"], hit[COLUMN]))


@pytest.mark.spark
def test_fuzzy_magic_is_the_engines_fuzzy_join(ip, demo_index_path, demo_engine, capsys):
    places = ip.user_ns["places"]
    magic(ip, f"open '{demo_index_path}'")
    capsys.readouterr()
    assert magic(ip, f"fuzzy places.where '{TABLE}.{COLUMN}'") is None
    out = capsys.readouterr().out
    want = demo_engine.fuzzy_join(TABLE, places, on=(COLUMN, "where"), precision_target=0.9)
    name = default_variable("places", TABLE, "fuzzy")          # the widget's Fuzzy join name
    got = ip.user_ns[name]
    pd.testing.assert_frame_equal(got, want.join(places))
    assert joined_names(got) == AT_90 and len(got) == len(places)
    assert f"Fuzzy join of places.where with {TABLE}.{COLUMN}: {want.summary()}" in out
    assert f"Bound to {name}: 10 rows, 7 with a partner." in out
    assert "estimated precision 100.0% on 7 matched value pairs" in out
    # run again: its own variable back; another target and --how inner, into a given name
    magic(ip, f"fuzzy places.where '{TABLE}.{COLUMN}'")
    assert name + "_2" not in ip.user_ns
    magic(ip, f"fuzzy places '{TABLE}' --column where --lake-column {COLUMN} -p 0.8 --how inner "
              f"--into eighty --as eighty_fj --insert")
    want = demo_engine.fuzzy_join(TABLE, places, on=(COLUMN, "where"), precision_target=0.8)
    got = ip.user_ns["eighty"]
    pd.testing.assert_frame_equal(got, want.join(places, how="inner"))
    assert joined_names(got) == AT_80 and len(got) == 8
    assert ip.user_ns["eighty_fj"].configs == want.configs
    ns = {"places": places}                       # the inserted cell, in a fresh namespace
    exec(compile(ip.inserted[-1], "<inserted cell>", "exec"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["eighty"], got)


@pytest.mark.spark
def test_fuzzy_magic_joins_a_saved_searchs_hit(ip, demo_index_path, demo_engine, capsys):
    places = ip.user_ns["places"]
    magic(ip, f"open '{demo_index_path}'")
    hits = magic(ip, "search places.where --all --save ph")
    rank = next(i for i, h in enumerate(hits, 1) if (h.table, h.column) == (TABLE, COLUMN))
    magic(ip, f"fuzzy {rank} --from ph --into from_hit")
    want = demo_engine.fuzzy_join(TABLE, places, on=(COLUMN, "where"))
    pd.testing.assert_frame_equal(ip.user_ns["from_hit"], want.join(places))
    assert joined_names(ip.user_ns["from_hit"]) == AT_90
    assert magic_error(ip, f"fuzzy {len(hits) + 1} --from ph") == \
        f"ph has {len(hits)} hit(s); pick a rank from 1 to {len(hits)}."
    assert "not a search result" in magic_error(ip, "fuzzy 1 --from places")
    assert "give only the hit's rank N" in magic_error(ip, f"fuzzy 1 '{TABLE}.x' --from ph")
    assert "give the rank of a hit, not 'places.where'" in \
        magic_error(ip, "fuzzy places.where --from ph")


@pytest.mark.spark
def test_fuzzy_magic_bad_lake_names(ip, demo_index_path):
    magic(ip, f"open '{demo_index_path}'")
    assert magic_error(ip, "fuzzy places.where 'reference/nosuch.name'").startswith(
        "No table 'reference/nosuch' in the index")
    said = magic_error(ip, f"fuzzy places.where '{TABLE}.nosuch'")
    assert said.startswith(f"The lake table '{TABLE}' has no column 'nosuch'; its columns: [")
    assert "'FIFA', 'Dial'" in said
    assert magic_error(ip, f"fuzzy places.where '{TABLE}'") == (
        f"Name the column of the lake table '{TABLE}': '{TABLE}.COLUMN' or '{TABLE}' "
        f"--lake-column COLUMN.")


def test_fuzzy_magic_bad_frames_and_targets(ip):
    """Checked before the index is read: no index needs to be open."""
    ip.user_ns["not_a_frame"] = [1, 2]
    assert magic_error(ip, "fuzzy ghost.where t.c") == (
        "No DataFrame 'ghost' in the notebook: give DF.COLUMN of a pandas DataFrame variable.")
    assert magic_error(ip, "fuzzy not_a_frame.x t.c") == \
        "'not_a_frame' is a list, not a pandas DataFrame."
    assert magic_error(ip, "fuzzy places.nosuch t.c") == \
        "places has no column 'nosuch'; its columns: ['where', 'n']."
    assert magic_error(ip, "fuzzy places t.c").startswith("Name the column of places:")
    for p in ("0", "1.5", "-0.2", "0.3"):
        assert magic_error(ip, f"fuzzy places.where t.c -p {p}") == (
            f"--precision-target {float(p):g}: the share of the joined values that should be "
            f"right, from 0.5 to 1; default 0.9.")
    assert magic_error(ip, "fuzzy places.where t.c --precision-target 90") == (
        "--precision-target 90: the share of the joined values that should be right, from "
        "0.5 to 1 (a fraction: 0.9 for 90%); default 0.9.")
    from lakejoin_jupyter.magics import MagicError
    with pytest.raises(MagicError, match="invalid float value: 'high'"):    # argparse's usage
        magic(ip, "fuzzy places.where t.c -p high")
    assert magic_error(ip, "fuzzy places.where").startswith("Name the lake column to join with")


def test_fuzzy_magic_help(ip, capsys):
    magic(ip, "--help")
    assert "    fuzzy " in capsys.readouterr().out
    assert magic(ip, "fuzzy --help") is None
    out = capsys.readouterr().out
    assert out.startswith("usage: %lakejoin fuzzy [-h]")
    for text in ("DF.COLUMN", "TABLE.COLUMN", "--precision-target P", "--from HITS",
                 "--lake-column COL", "--into VAR", "--how {left,inner}", "examples:",
                 "%lakejoin fuzzy sales.country 'reference/country-codes.official_name_en'",
                 "%lakejoin fuzzy 2 --from hits", "default 0.9"):
        assert text in out, text
