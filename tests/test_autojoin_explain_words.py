"""explain()'s words on how Auto-Join found its row pairs and why one direction won
(verify27's checks): the columns whose rare shared substrings paired the rows are named one
by one, apart from the columns the program reads; a tie between the directions names the
rule that decided it. Cases from bench/data with hand-checked sentences."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from conftest import read_case
from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.pipeline import DirectionResult, _direction


def _case(path: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    return read_case(path, "source", "target")


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


def test_a_tie_of_two_one_to_one_directions_names_the_rule_that_decided():
    """The HTML references: "&#" + code point + ";" joins all 252 references and the
    references' part between "&#" and ";" all 252 code points, both 1:1 on all their target's
    rows; the tie goes to the program of fewer operators (one split against three parts)."""
    aj = autojoin(*_case("autojoin-fresh8/html_numeric_references"))
    assert aj.source == "right"
    assert aj.program.describe() == 'part 1 (split at ";") of part 2 (split at "&#") of `reference`'
    other = aj.stats["directions"]["left"]["accepted"]
    assert (other["coverage"], other["joined_rows"], other["target_rows"]) == (252, 252, 252)
    assert aj.coverage == aj.target_keys == aj.joined_rows == 252
    text = aj.explain()
    assert ("This direction won: both join 1:1 the same 252 keys and the same fraction of "
            "their target's rows, so the program of fewer operators won (1 against 3).") in text


def _found(side, pairs, coverage, joined_rows, target_rows, size=1):
    best = SimpleNamespace(coverage=coverage, joined_rows=joined_rows,
                           program=SimpleNamespace(size=size))
    return (DirectionResult(side, best, [], [], 0, 0, [], target_positions=range(target_rows),
                            joined_pairs=frozenset(pairs)), None, None)


def test_direction_rule_words_hand_checked():
    """Each rule of _direction names itself; the choice is the same with or without words."""
    a = _found("left", [(0, 7), (1, 7), (2, 9), (3, 9)], 2, 4, 300)
    b = _found("right", [(7, 0), (9, 2)], 2, 2, 4)
    why: list = []
    assert _direction([b, a], None, why) is a
    assert why == ["its joined row pairs contain the other direction's"]
    c = _found("right", [(7, 0), (9, 2), (5, 1)], 2, 2, 4)      # 2 / 4 > 2 / 300
    why = []
    assert _direction([a, c], None, why) is c
    assert why == ["it joins a larger fraction of its target's rows"]
    # both 1:1 onto the same 3 keys, each on all 3 of its target's rows (the same pairs)
    left = _found("left", [(0, 5), (1, 6), (2, 7)], 3, 3, 3, size=3)
    right = _found("right", [(5, 0), (6, 1), (7, 2)], 3, 3, 3, size=1)
    why = []
    assert _direction([left, right], "left", why) is left
    assert why == ["both join 1:1 the same 3 keys, and a tie goes to the search's program's "
                   "direction"]
    why = []
    assert _direction([left, right], None, why) is right
    assert why == ["both join 1:1 the same 3 keys and the same fraction of their target's "
                   "rows, so the program of fewer operators won (1 against 3)"]
    more = _found("left", [(0, 5), (1, 6), (3, 8), (4, 9)], 4, 4, 8, size=3)
    why = []
    assert _direction([right, more], None, why) is more         # 4 keys, though 4/8 < 3/3
    assert why == ["both join 1:1, and it joins more keys"]
