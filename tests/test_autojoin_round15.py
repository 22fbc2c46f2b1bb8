"""Auto-Join deviation 35: ``Words`` (every word of a value cased and joined), hand-checked
programs, its JSON form and generated code, and the learner finding it (CSS colour names
written in CamelCase against UPPER_SNAKE constants, one to four words)."""
import ast

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import (CASINGS, Column, Constant, Program,
                                                ProgramFormatError, SelectK, Split, Substring,
                                                Words, join_words, split_words)

COLOURS = ["AliceBlue", "AntiqueWhite", "Aqua", "Aquamarine", "Azure", "Beige", "Bisque",
           "BlanchedAlmond", "BlueViolet", "BurlyWood", "CadetBlue", "Chartreuse",
           "CornflowerBlue", "Cornsilk", "Crimson", "DarkCyan", "DarkGoldenRod",
           "DarkOliveGreen", "DarkSlateGray", "DeepPink", "DeepSkyBlue", "DodgerBlue",
           "FireBrick", "FloralWhite", "ForestGreen", "Gainsboro", "GhostWhite", "Gold",
           "GoldenRod", "GreenYellow", "HoneyDew", "HotPink", "IndianRed", "Indigo", "Ivory",
           "Khaki", "Lavender", "LavenderBlush", "LawnGreen", "LemonChiffon", "LightGoldenRodYellow",
           "LightSeaGreen", "LightSlateGray", "LimeGreen", "MediumAquaMarine",
           "MediumSpringGreen", "MidnightBlue", "MintCream", "MistyRose", "NavajoWhite",
           "OldLace", "PaleVioletRed", "PapayaWhip", "PeachPuff", "PowderBlue", "RosyBrown",
           "SaddleBrown", "SandyBrown", "SeaShell", "SpringGreen", "SteelBlue", "Thistle",
           "WhiteSmoke", "YellowGreen"]


def _snake(name: str) -> str:
    return "_".join(split_words(name, "")).upper()


# ------------------------------------------------------------------ the operator

def test_words_hand_checked():
    v = "ERRCODE_SUCCESSFUL_COMPLETION"
    assert join_words(v, "_", "title", "") == "ErrcodeSuccessfulCompletion"
    assert split_words("HTTPServerX2Value", "") == ["HTTP", "Server", "X2", "Value"]
    assert split_words("strokeDash", "") == ["stroke", "Dash"]
    assert split_words("Aqua", "") == ["Aqua"]
    assert join_words("KeyPressMask", "", "upper", "_") == "KEY_PRESS_MASK"
    assert join_words("KeyPressMask", "", "lower", "-") == "key-press-mask"
    # "all after part 1" title-cased: the psycopg2 exception class of a PostgreSQL macro
    p = Program((Substring(Words(Column("macro"), "_", "title", ""), 7, None),))
    assert p({"macro": v}) == "SuccessfulCompletion"
    assert p({"macro": "ERRCODE_NO_DATA"}) == "NoData"
    assert p({"macro": None}) is None
    q = Program((Constant("XCB_"), Substring(Words(Column("mask"), "", "upper", "_"))))
    assert q({"mask": "KeyPress"}) == "XCB_KEY_PRESS"
    assert p.describe() == ('title-cased words of `macro` (split at "_", joined by "") '
                            'from letter 8')
    assert q.describe() == ('"XCB_" + upper-cased words of `mask` (split at case changes, '
                            'joined by "_")')


def test_words_json_round_trip_and_bad_input():
    p = Program((Substring(Words(SelectK(Split(Column("a b"), "/"), -1), "", "lower", "-"),
                           None, 3), Constant("!")))
    assert Program.from_json(p.to_json()) == p
    d = p.to_dict()
    d["pieces"][0]["of"]["casing"] = "shout"
    with pytest.raises(ProgramFormatError, match="casing"):
        Program.from_dict(d)
    d["pieces"][0]["of"]["casing"] = "lower"
    del d["pieces"][0]["of"]["joiner"]
    with pytest.raises(ProgramFormatError, match="joiner"):
        Program.from_dict(d)


_TEXT = st.text(alphabet="aBcDeZ09_- xY", max_size=14)


@settings(max_examples=200, deadline=None)
@given(v=st.one_of(st.none(), _TEXT), sep=st.sampled_from(["", "_", "-", " "]),
       casing=st.sampled_from(CASINGS), joiner=st.sampled_from(["", "_", "."]),
       start=st.sampled_from([None, 0, 1, -2]))
def test_generated_code_equals_evaluate(v, sep, casing, joiner, start):
    # a column named "re" (the module the generated code imports) and one named "w"
    p = Program((Substring(Words(Column("re"), sep, casing, joiner), start, None),
                 Constant("+"), Substring(Words(Column("w"), "_", "title", joiner), None, -1)))
    src = p.python_code("derive_key")
    ast.parse(src)
    ns: dict = {}
    exec(compile(src, "<generated>", "exec"), ns)     # our own output, a fresh namespace
    other = "x_y" if v is None else v[::-1]
    want = p.evaluate({"re": [v], "w": [other]}, 1)[0]
    assert ns["derive_key"](v, other) == want == p({"re": v, "w": other})


# ------------------------------------------------------------------ the learner

def _tables():
    consts = pd.DataFrame({"constant": ["COLOR_" + _snake(c) for c in COLOURS],
                           "rgb index": [str(100 + i) for i in range(len(COLOURS))]})
    names = list(reversed(COLOURS))
    classes = pd.DataFrame({"class": [f"{c}Swatch" for c in names],
                            "family": [c[:2].lower() for c in names]})
    return consts, classes


def _pairs(res, a, b) -> set:
    j = res.join()
    return set(zip(j[a], j[b]))


def test_learner_title_cases_every_word():
    # "COLOR_DARK_OLIVE_GREEN" -> "DarkOliveGreenSwatch", one to four words: main's learner
    # can only concatenate a fixed number of title-cased parts (one program per word count)
    consts, classes = _tables()
    res = autojoin(consts, classes, fuzzy=False)
    assert res.found
    want = {("COLOR_" + _snake(c), c + "Swatch") for c in COLOURS}
    assert _pairs(res, "constant", "class") == want
    assert "Words" not in str(res.program)      # a readable description, not a repr
    assert "title-cased" in res.program.describe()


def test_learner_splits_at_case_changes():
    # the other way round: "DarkOliveGreenSwatch" -> "COLOR_DARK_OLIVE_GREEN"
    consts, classes = _tables()
    res = autojoin(classes, consts, fuzzy=False)
    assert res.found
    want = {(c + "Swatch", "COLOR_" + _snake(c)) for c in COLOURS}
    assert _pairs(res, "class", "constant") == want
