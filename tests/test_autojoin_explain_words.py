"""explain()'s words on how Auto-Join found its row pairs and why one direction won
(verify27's checks): the columns whose rare shared substrings paired the rows are named one
by one, apart from the columns the program reads; a tie between the directions names the
rule that decided it. Cases from bench/data with hand-checked sentences."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin

DATA = Path(__file__).resolve().parent.parent / "bench" / "data"


def _case(path: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    d = DATA / path
    return (pd.read_csv(d / "source.csv", dtype=str, keep_default_na=False),
            pd.read_csv(d / "target.csv", dtype=str, keep_default_na=False))


def test_pairs_found_over_several_columns_are_named_one_by_one():
    """The nonvoters' income brackets: the pairs are found over five source columns taken
    together (their joined name), the program reads income_cat alone."""
    aj = autojoin(*_case("autojoin-fresh7/nonvoters_income_dollars"))
    assert aj.found and aj.source == "left"
    assert aj.source_column == "RespId & weight & ppage & educ & income_cat"
    assert aj.program.columns == ["income_cat"]
    text = aj.explain()
    assert ("Learned from 2 example row pairs found through rare shared substrings of the left "
            "table's columns 'RespId', 'weight', 'ppage', 'educ' and 'income_cat' taken "
            "together; the program reads `income_cat`:") in text
    assert "'RespId & weight" not in text


def test_pairs_found_over_one_column_keep_their_sentence():
    aj = autojoin(*_case("autojoin-fresh8/html_numeric_references"))
    assert aj.found and aj.source_column == "reference"
    assert ("Learned from 3 example row pairs found through rare shared substrings of "
            "'reference':") in aj.explain()


def test_joined_columns_read_back_by_the_frames_names():
    from lakejoin_jupyter.join.autojoin.result import _joined_columns
    frame = pd.DataFrame(columns=["a & b", "x", "c", "d"])
    assert _joined_columns("a & b & c", frame) == ["a & b", "c"]
    assert _joined_columns("a & b", frame) == ["a & b"]           # one column of that name
    assert _joined_columns("c & d", frame) == ["c", "d"]
    assert _joined_columns("c & e", frame) == ["c & e"]           # not the frame's: as given
