"""Auto-Join deviation 38: a guard on a value's last word, and a branch that joins more
source rows onto keys the set already joins (N:1). Hand-built case: widget classes
("Slider", "SliderEvent", "SliderHandler") against the widgets they belong to ("slider");
main's learner joins the plain classes only (30 of 70 rows), since every key is already
joined and a branch had to add keys."""
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import (Constant, Guard, Program, ProgramSet,
                                                cell_pattern, extract)
from lakejoin_jupyter.join.autojoin.programset import _guard, _widens

BASES = ["Slider", "ScrollBar", "TextField", "Button", "CheckBox", "ComboBox", "Dialog",
         "Label", "ListView", "Menu", "MenuBar", "ProgressBar", "RadioButton", "SpinBox",
         "Splitter", "TabBar", "TableView", "ToolBar", "ToolTip", "TreeView", "Window",
         "Frame", "Canvas", "ColorPicker", "DatePicker", "FileDrop", "Icon", "Image",
         "Link", "Panel"]


def _last_word(text: str) -> str:
    """Brute force: the last run of letters and digits, cut before every capital that
    follows a small letter or digit and before the last capital of a run followed by a
    small letter; its last piece."""
    runs = re.findall(r"[A-Za-z0-9]+", text)
    if not runs:
        return ""
    run, cuts = runs[-1], [0]
    for i in range(1, len(run)):
        a, b = run[i - 1], run[i]
        nxt = run[i + 1] if i + 1 < len(run) else ""
        if b.isupper() and (a.islower() or a.isdigit() or (a.isupper() and nxt.islower())):
            cuts.append(i)
    return run[cuts[-1]:]


def test_last_word_hand_checked():
    assert cell_pattern("StrokeDashValue", "last word") == "Value"
    assert cell_pattern("XError2Value", "last word") == "Value"
    assert cell_pattern("HTTPServer", "last word") == "Server"
    assert cell_pattern("Latitude2", "last word") == "Latitude2"
    assert cell_pattern("Board Jr.", "last word") == "Jr"
    assert cell_pattern("ERRCODE_NO_DATA", "last word") == "DATA"
    assert cell_pattern("7/1/2014", "last word") == "2014"
    assert cell_pattern("...", "last word") == ""
    assert cell_pattern(None, "last word") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZbY09_ ./-xQ", max_size=16))
def test_last_word_against_brute_force(text):
    assert cell_pattern(text, "last word") == _last_word(text)


def test_last_word_guard_describe_json_and_code():
    g = Guard("class", "last word", frozenset({"Value", "Datum"}))
    assert g.describe() == 'if `class` ends with the word "Datum" or "Value"'
    drop = Program((extract("class", [], None, -5, "lower"),))
    whole = Program((extract("class", casing="lower"),))
    ps = ProgramSet(((g, drop), (None, whole)))
    assert ProgramSet.from_json(ps.to_json()) == ps
    ns: dict = {}
    exec(compile(ps.python_code("f"), "<generated>", "exec"), ns)   # our own output
    for value, want in [("XValue", "x"), ("StrokeDashDatum", "strokedash"),
                        ("StrokeDash", "strokedash"), ("Values", "values"), (None, None)]:
        assert ps({"class": value}) == want
        assert ns["f"](value) == want


def test_guard_word_needs_two_rows():
    cells = ["AValue", "BValue", "CDatum", "D", "EThing"]
    # "Datum" is wanted by one row only: not a word the guard learns from
    assert _guard("c", "last word", cells, [0, 1, 2], [4]).patterns == frozenset({"Value"})
    assert _guard("c", "last word", cells, [0, 2], [1]) is None


def test_widens_only_when_every_joined_row_keeps_its_key():
    keys = {"a", "b"}
    cur = ["a", "b", "x", None, "y", "z"]
    pairs = [{"a"}, {"b"}, {"a"}, {"b", "a"}, {"a"}, set()]    # step 1's partners per row
    assert _widens(cur, ["a", "b", "a", "b", "y", "z"], keys, set(), pairs) == 2
    assert _widens(cur, ["a", "b", "a", "b", "y", "z"], keys, {2}, pairs) == 1   # taught
    assert _widens(cur, ["a", "a", "a", "b", "y", "z"], keys, set(), pairs) == 0  # re-keys
    assert _widens(cur, ["a", None, "a", "b", "b", "z"], keys, set(), pairs) == 0  # loses
    # rows 2-5 given keys, 2 of them partners of their key: not more than half confirmed
    assert _widens(cur, ["a", "b", "a", "b", "b", "a"], keys, set(), pairs) == 0
    # rows 2-4, 2 of 3 confirmed: the confirmed ones count
    assert _widens(cur, ["a", "b", "a", "b", "b", "z"], keys, set(), pairs) == 2


def _tables(suffixes):
    rows = []
    for i, b in enumerate(BASES):
        rows.append((b, b))
        for k, s in enumerate(suffixes):
            if (i + k) % 3 != 2:
                rows.append((b + s, b))
    src = pd.DataFrame({"widget class": [r[0] for r in rows],
                        "size": [str(len(r[0]) * 7 % 13) for r in rows]})
    tgt = pd.DataFrame({"widget": [b[0].lower() + b[1:] for b in reversed(BASES)],
                        "since": [f"v{i % 5}.{i}" for i in range(len(BASES))]})
    want = {(a, b[0].lower() + b[1:]) for a, b in rows}
    return src, tgt, want


@pytest.mark.parametrize("suffixes", [("Event", "Handler"), ("Props", "State")])
def test_learner_joins_every_variant_onto_its_widget(suffixes):
    # main: `lower(first letter) + widget class from letter 2` (30 of 70 rows; with
    # "Props"/"State", of equal length, `[1:-5]`, 40 of 70)
    src, tgt, want = _tables(suffixes)
    res = autojoin(src, tgt, fuzzy=False)
    assert res.found
    j = res.join()
    assert set(zip(j["widget class"], j["widget"])) == want, res.program.describe()
    assert "ends with the word" in res.program.describe()
