"""The Auto-Join language: each operator, the interpreter against an independent reference
evaluator, the generated Python against the interpreter, JSON round trips and refusals."""
from __future__ import annotations

import ast
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin.dsl import (CASINGS, Column, Concat, Constant, Guard, Pad,
                                                Program, ProgramFormatError, ProgramSet,
                                                Replace, SelectK, Split, Substring, Trim,
                                                apply_frame, cell_pattern, cell_text, extract)

COLUMNS = ["Name", "last name", "it's \"quoted\"\n"]


# ------------------------------------------------------------------ reference evaluator

def ref(node, row: dict):
    """Independent reading of the operator semantics (module docstring of dsl.py)."""
    if isinstance(node, Column):
        v = row.get(node.name)
        return v if isinstance(v, str) else None
    if isinstance(node, Constant):
        return node.text
    if isinstance(node, Split):
        v = ref(node.of, row)
        return None if v is None else v.split(node.sep)
    if isinstance(node, SelectK):
        parts = ref(node.of, row)
        if parts is None:
            return None
        k = node.k if node.k >= 0 else len(parts) + node.k
        return parts[k] if 0 <= k < len(parts) else None
    if isinstance(node, Substring):
        v = ref(node.of, row)
        if v is None:
            return None
        piece = v[node.start:node.stop]
        return {"same": piece, "lower": piece.lower(), "upper": piece.upper(),
                "title": piece.title()}[node.casing]
    if isinstance(node, Replace):
        v = ref(node.of, row)
        return None if v is None else new_join(v.split(node.old), node.new)
    if isinstance(node, Trim):
        v = ref(node.of, row)
        if v is None:
            return None
        words, word = [], ""
        for c in v + " ":
            if c in " \t\n\r\x0b\x0c":
                if word:
                    words.append(word)
                word = ""
            else:
                word += c
        return " ".join(words)
    if isinstance(node, Pad):
        v = ref(node.of, row)
        if v is None or not v or any(c not in "0123456789" for c in v):
            return v
        return "0" * max(node.width - len(v), 0) + v
    if isinstance(node, Concat):
        out = [ref(p, row) for p in node.parts]
        return None if any(p is None for p in out) else "".join(out)
    raise TypeError(node)


def new_join(parts, new):
    out = parts[0]
    for p in parts[1:]:
        out = out + new + p
    return out


UPPER, LOWER, DIGITS = set("ABCÉ"), set("abcé北京"), set("0123456789")


def ref_pattern(text, kind):
    """The guard patterns for the test alphabet, from explicit character classes."""
    if text is None:
        return None
    if kind == "delimiters":
        return "".join(c for c in text if c not in UPPER | LOWER | DIGITS)
    if kind == "last word":      # the last run of letters and digits, from its last cut
        runs = "".join(c if c in UPPER | LOWER | DIGITS else " " for c in text).split()
        word = runs[-1] if runs else ""
        cuts = [i for i in range(1, len(word)) if word[i] in "ABC" and (
            word[i - 1] in "abc0123456789"
            or (word[i - 1] in "ABC" and word[i + 1:i + 2] in set("abc") - {""}))]
        return word[cuts[-1]:] if cuts else word
    classes = ["A" if c in UPPER else "a" if c in LOWER else "0" if c in DIGITS else c
               for c in text]
    out = []
    for c in classes:
        if out and c in "Aa0" and out[-1] == c:
            continue
        out.append(c)
    return "".join(out)


def ref_set(program_set, row: dict):
    """A program set by its definition: the first branch whose guard holds and whose
    program gives a key."""
    for guard, program in program_set.branches:
        if guard is not None and ref_pattern(row.get(guard.column), guard.kind) \
                not in guard.patterns:
            continue
        out = ref(program.expr, row)
        if out is not None:
            return out
    return None


def run(program: Program, row: dict):
    return program.compile(COLUMNS)(tuple(row.get(c) for c in COLUMNS))


def generated(program: Program):
    ns: dict = {}
    exec(compile(program.python_code("f"), "<generated>", "exec"), ns)   # our own output
    return ns["f"]


# ------------------------------------------------------------------ operators

def test_split_selectk_counts_from_both_ends_and_fails_out_of_range():
    row = {"Name": "Obama, Barack(1961-)"}
    first = Program((extract("Name", [("(", 0), (", ", 1)]),))
    assert run(first, row) == "Barack"
    last = Program((extract("Name", [(", ", -1)]),))
    assert run(last, row) == "Barack(1961-)"
    assert run(Program((extract("Name", [(", ", 2)]),)), row) is None
    assert run(Program((extract("Name", [(", ", -3)]),)), row) is None
    # a separator the value lacks leaves one part: index 0 / -1 is the whole value
    assert run(Program((extract("Name", [("#", 0)]),)), row) == row["Name"]


def test_column_wise_parts_match_a_full_split():
    """apply_frame splits only as far as the part it needs; a separator overlapping itself
    ("--" in "a---b") must still give the parts of a full split from the front."""
    frame = pd.DataFrame({"Name": ["a---b", "x--y--z", "--", "q", None]})
    for sep in ("--", "-", "---"):
        for k in (-3, -2, -1, 0, 1, 2):
            p = Program((extract("Name", [(sep, k)]),))
            assert apply_frame(p, frame) == [ref(p.expr, {"Name": v}) for v in frame["Name"]]
    assert apply_frame(Program((extract("Name", [("--", -1)]),)), frame)[0] == "-b"


def test_substring_bounds_and_casing():
    row = {"Name": "Suhela Chowdhury"}
    assert run(Program((extract("Name", [(" ", 0)], None, 1, "lower"),)), row) == "s"
    assert run(Program((extract("Name", [], -4, None),)), row) == "hury"
    assert run(Program((extract("Name", [], 2, -3, "upper"),)), row) == "HELA CHOWDH"
    assert run(Program((extract("Name", [], None, None, "title"),)), {"Name": "mcDONALD x"}) \
        == "Mcdonald X"
    assert run(Program((extract("Name", [], 40, None),)), row) == ""   # Python slice clamps


def test_constant_concat_and_nulls():
    p = Program((extract("Name", [(" ", 0)], None, 1, "lower"),
                 extract("Name", [(" ", 1)], casing="lower"), Constant("@school.edu")))
    assert run(p, {"Name": "Missy Payne"}) == "mpayne@school.edu"
    assert run(p, {"Name": "Cher"}) is None            # no word 2: no key
    assert run(p, {"Name": None}) is None
    assert run(p, {}) is None
    assert run(Program((Constant("x"),)), {}) == "x"


def test_describe_reads_like_the_issue():
    p = Program((extract("Name", [(" ", 0)], None, 1, "lower"),
                 extract("Name", [(" ", 1)], casing="lower"), Constant("@school.edu")))
    assert p.describe() == ('lower(first letter of word 1 of `Name`) + lower(word 2 of `Name`)'
                            ' + "@school.edu"')
    assert p.describe(show_columns=False) == ('lower(first letter of word 1) + lower(word 2) + '
                                              '"@school.edu"')
    q = Program((extract("President", [("(", 0), (",", -1)], 1, None), Constant(" "),
                 extract("President", [(",", 0)])))
    assert q.describe() == ('last part (split at ",") of part 1 (split at "(") of `President` '
                            'from letter 2 + " " + part 1 (split at ",") of `President`')
    assert Program((extract("c", [], -4, None),)).describe() == "last 4 letters of `c`"
    assert Program((extract("c", [], None, -2),)).describe() == "`c` without its last 2 letters"
    assert Program((extract("c", [], 2, 5),)).describe() == "letters 3-5 of `c`"
    assert Program((extract("State", [(" (", 0)], replace=(" ", "")),)).describe() == \
        'part 1 (split at " (") of `State` without " "'
    assert Program((Constant("/wiki/"), extract("name", replace=(" ", "_")))).describe() == \
        '"/wiki/" + `name` with " " as "_"'


def test_replace_removes_or_swaps_whitespace():
    nospace = Program((extract("Name", [(" (", 0)], replace=(" ", "")),))
    assert run(nospace, {"Name": "North Dakota (ND)"}) == "NorthDakota"
    assert run(nospace, {"Name": "Texas (TX)"}) == "Texas"
    slug = Program((Constant("/wiki/"), extract("Name", replace=(" ", "_"))))
    assert run(slug, {"Name": "Batman (Bruce Wayne)"}) == "/wiki/Batman_(Bruce_Wayne)"
    assert run(slug, {"Name": None}) is None
    assert generated(nospace)("North Dakota (ND)") == "NorthDakota"


def test_trim_strips_ends_and_makes_inner_runs_one_space():
    """Hand-checked: a part cut at "," keeps the spaces around the comma; Trim drops them."""
    last = Program((extract("Name", [(",", 0)], trim=True),))
    assert run(last, {"Name": "Van Buren ,  Martin"}) == "Van Buren"
    assert run(last, {"Name": "Lloyd   George,David"}) == "Lloyd George"
    assert run(last, {"Name": None}) is None
    first = Program((extract("Name", [(",", 1)], trim=True), Constant(" "),
                     extract("Name", [(",", 0)], trim=True)))
    assert first.describe() == ('part 2 (split at ",") of `Name` with spaces trimmed + " " + '
                                'part 1 (split at ",") of `Name` with spaces trimmed')
    assert run(first, {"Name": "Van Buren ,  Martin"}) == "Martin Van Buren"
    assert run(first, {"Name": "Obama"}) is None            # no part 2: no key
    assert generated(first)("Ten Hag,\n Erik ") == "Erik Ten Hag"
    frame = pd.DataFrame({"Name": ["de la Cruz ,Ana", None]}, dtype=object)
    assert apply_frame(first, frame) == ["Ana de la Cruz", None]
    assert Program.from_json(first.to_json()) == first


def test_pad_left_pads_digit_runs_with_zeros():
    """Hand-checked: the Bob Ross episode code and the M49 code (round 4)."""
    code = Program((Constant("S"), extract("season", pad=2), Constant("E"),
                    extract("episode", pad=2)))
    assert code({"season": "1", "episode": "12"}) == "S01E12"
    assert code({"season": "31", "episode": "3"}) == "S31E03"
    assert code({"season": "123", "episode": "3"}) == "S123E03"     # never cut
    assert code({"season": "x1", "episode": "3"}) == "Sx1E03"       # not a number: as it is
    assert code({"season": None, "episode": "3"}) is None
    assert code.describe() == '"S" + `season` padded with zeros to 2 + "E" + `episode` padded with zeros to 2'
    m49 = Program((extract("m49", pad=3),))
    frame = pd.DataFrame({"m49": ["4", "12", "123", 8, None, "", "٣"]}, dtype=object)
    assert apply_frame(m49, frame) == ["004", "012", "123", "008", None, "", "٣"]
    f = generated(m49)
    assert [f(v) for v in ("4", "12", "123", "", "٣")] == ["004", "012", "123", "", "٣"]
    assert Program.from_json(code.to_json()) == code


def test_cell_pattern():
    assert cell_pattern("7/1/2014", "delimiters") == "//"
    assert cell_pattern("2014-7-1", "delimiters") == "--"
    assert cell_pattern("Board Jr. John A.", "shape") == "Aa Aa. Aa A."
    assert cell_pattern("ab12", "shape") == "a0"
    assert cell_pattern("a  b", "shape") == "a  a"          # separators are kept one by one
    assert cell_pattern(None, "shape") is None


def test_program_set_first_branch_that_applies_wins():
    day = "day"
    us = Program((extract(day, [("/", 2)]), Constant("-"), extract(day, [("/", 0)]),
                  Constant("-"), extract(day, [("/", 1)])))
    iso = Program((extract(day),))
    plain = ProgramSet(((None, us), (None, iso)))
    # the US program gives no key for an ISO date (no third part), so the next branch runs
    assert plain({"day": "7/1/2014"}) == "2014-7-1"
    assert plain({"day": "2014-7-1"}) == "2014-7-1"
    assert plain({"day": None}) is None
    guarded = ProgramSet(((Guard(day, "delimiters", frozenset({"//"})), us), (None, iso)))
    assert guarded({"day": "7/1/2014"}) == "2014-7-1"
    assert guarded({"day": "7-1/2014"}) == "7-1/2014"          # guard fails: next branch
    assert guarded.columns == ["day"] and guarded.size == 6
    assert guarded.describe().startswith('first that applies of (1) if `day` has the '
                                         'delimiters "//": part 3 (split at "/") of `day`')
    frame = pd.DataFrame({"day": ["7/1/2014", "2014-7-2", None, "7-1/2014"]})
    assert apply_frame(guarded, frame) == ["2014-7-1", "2014-7-2", None, "7-1/2014"]
    assert guarded.apply(frame) == apply_frame(guarded, frame)


def test_cell_text_renders_numbers_like_a_spreadsheet():
    assert cell_text(1974.0) == "1974"
    assert cell_text(np.float64(2.5)) == "2.5"
    assert cell_text(np.int64(7)) == "7"
    assert cell_text(float("nan")) is None
    assert cell_text(pd.NA) is None
    assert cell_text(None) is None
    assert cell_text("  x ") == "  x "


def test_apply_frame_matches_rows_and_numeric_columns():
    df = pd.DataFrame({"year": [1974, 2001, None], "month": ["01", "12", "05"]})
    p = Program((extract("year"), Constant("-"), extract("month")))
    assert apply_frame(p, df) == ["1974-01", "2001-12", None]
    df2 = df.set_axis([0, 1], axis=1)
    p2 = Program((extract("0"), Constant("/"), extract("1")))
    assert apply_frame(p2, df2, {"0": 0, "1": 1}) == ["1974/01", "2001/12", None]
    with pytest.raises(KeyError, match="does not have"):
        apply_frame(Program((extract("nope"),)), df)


# ------------------------------------------------------------------ random programs

ALPHABET = "abcAB ,-;.()'\"\\\nÉé北京017"
SEPS = [" ", ",", "-", "--", "; ", "'", '"', "\\", "\n"]   # "--" overlaps itself


@st.composite
def extracts(draw):
    col = draw(st.sampled_from(COLUMNS))
    splits = draw(st.lists(st.tuples(st.sampled_from(SEPS), st.integers(-3, 3)), max_size=2))
    bound = st.one_of(st.none(), st.integers(-4, 4))
    replace = draw(st.one_of(st.none(), st.tuples(st.sampled_from([" ", "\n"]),
                                                  st.sampled_from(["", "_", "-", " "]))))
    if replace is not None and replace[0] == replace[1]:
        replace = None
    pad = draw(st.one_of(st.none(), st.integers(1, 5)))
    return extract(col, splits, draw(bound), draw(bound), draw(st.sampled_from(CASINGS)),
                   replace, pad, draw(st.booleans()))


programs = st.lists(st.one_of(extracts(), st.builds(Constant, st.text(ALPHABET, max_size=6))),
                    min_size=1, max_size=5).map(lambda ps: Program(tuple(ps)))
rows = st.fixed_dictionaries({c: st.one_of(st.none(), st.text(ALPHABET, max_size=14))
                              for c in COLUMNS})


@settings(max_examples=150, deadline=None)
@given(programs, rows)
def test_interpreter_and_generated_code_agree_with_reference(program, row):
    expected = ref(program.expr, row)
    assert run(program, row) == expected
    f = generated(program)
    assert f(*(row.get(c) for c in program.columns)) == expected
    # the column-wise evaluator (apply_frame) on a frame holding the row three times
    frame = pd.DataFrame({c: [row[c], row[c], None] for c in COLUMNS}, dtype=object)
    assert apply_frame(program, frame)[:2] == [expected, expected]


PATTERNS = ["", " ", ",", "-", "a", "A", "Aa", "a a", "a, a", "a-a", "Aa Aa", "0", "Ab",
            "b", "Cab"]
guards = st.one_of(st.none(), st.builds(
    Guard, st.sampled_from(COLUMNS), st.sampled_from(["delimiters", "shape", "last word"]),
    st.frozensets(st.sampled_from(PATTERNS), min_size=1, max_size=4)))
program_sets = st.lists(st.tuples(guards, programs), min_size=1, max_size=3).map(
    lambda bs: ProgramSet(tuple(bs)))


@settings(max_examples=150, deadline=None)
@given(program_sets, rows)
def test_program_sets_agree_with_reference(program_set, row):
    expected = ref_set(program_set, row)
    assert program_set.compile(COLUMNS)(tuple(row.get(c) for c in COLUMNS)) == expected
    assert program_set(row) == expected
    f = generated(program_set)
    assert f(*(row.get(c) for c in program_set.columns)) == expected
    frame = pd.DataFrame({c: [row[c], None, row[c]] for c in COLUMNS}, dtype=object)
    got = apply_frame(program_set, frame)
    assert got[0] == got[2] == expected
    back = Program.from_json(program_set.to_json())       # a set reads back as a set
    assert back == program_set and isinstance(back, ProgramSet)
    assert ProgramSet.from_json(program_set.to_json()) == program_set
    assert back.describe() == program_set.describe()


def test_program_set_code_keeps_hostile_and_clashing_names_data():
    evil = "x'); import os #"
    inner = Program((extract(evil, [("'", 0)]), Constant("'''\\")))
    clash = Program((extract("key"), extract("derive_key_branch1"), extract("cell_pattern")))
    ps = ProgramSet(((Guard(evil, "shape", frozenset({"a'a"})), inner), (None, clash)))
    ast.parse(ps.python_code("derive_key"))
    ns: dict = {}
    exec(compile(ps.python_code("derive_key"), "<generated>", "exec"), ns)   # our own output
    f = ns["derive_key"]
    args = dict(zip(ps.columns, ["ab'cd", "K", "D", "C"]))
    assert f(*args.values()) == "ab'''\\"
    args[evil] = "abcd"                                     # guard fails: second branch
    assert f(*args.values()) == "KDC"
    with pytest.raises(ValueError):
        ps.python_code("not an identifier")


def test_two_program_sets_in_one_module_keep_their_own_branches():
    """The join code defines one function per program key (derive_key, derive_key_1, ...):
    a set's branch functions must not collide with the next key's function."""
    a = ProgramSet(((None, Program((extract("x", [("/", 1)]),))), (None, Program((Constant("A"),)))))
    b = ProgramSet(((None, Program((extract("y", [("-", 0)]),))), (None, Program((Constant("B"),)))))
    ns: dict = {}
    exec(compile(a.python_code("derive_key") + "\n" + b.python_code("derive_key_1"),
                 "<generated>", "exec"), ns)                              # our own output
    assert ns["derive_key"]("p/q") == "q" and ns["derive_key"]("pq") == "A"
    assert ns["derive_key_1"]("p-q") == "p" and ns["derive_key_1"](None) == "B"


@pytest.mark.parametrize("bad, message", [
    ('{"format": "lakejoin-autojoin-program-set", "version": 1, "branches": []}', "non-empty"),
    ('{"format": "lakejoin-autojoin-program-set", "version": 2, "branches": []}', "version 2"),
    ('{"format": "lakejoin-autojoin-program-set", "version": 1, "branches": [{"guard": null, '
     '"program": {"format": "lakejoin-autojoin-program-set", "version": 1, "branches": []}}]}',
     "not a set"),
    ('{"format": "lakejoin-autojoin-program-set", "version": 1, "branches": [{"guard": '
     '{"column": "a", "kind": "regex", "patterns": []}, "program": {}}]}', "guard kind"),
    ('{"format": "lakejoin-autojoin-program-set", "version": 1, "branches": [{"guard": '
     '{"column": "a", "kind": "shape", "patterns": "a"}, "program": {}}]}', "list of strings"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "replace", '
     '"of": {"op": "column", "name": "a"}, "old": "", "new": "x"}]}', "cannot be empty"),
])
def test_malformed_program_sets_are_refused(bad, message):
    with pytest.raises(ProgramFormatError, match=message):
        Program.from_json(bad)


@settings(max_examples=100, deadline=None)
@given(programs, rows)
def test_json_round_trip(program, row):
    back = Program.from_json(program.to_json())
    assert back == program
    assert run(back, row) == run(program, row)
    assert back.describe() == program.describe()


@settings(max_examples=100, deadline=None)
@given(programs)
def test_generated_code_quotes_every_string(program):
    src = program.python_code("derive_key")
    tree = ast.parse(src)
    texts = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str)}
    for piece in program.pieces:
        if isinstance(piece, Constant) and piece.text:
            assert piece.text in texts
    # only the function, its parameters and str methods: no name from the data is code
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert names <= {a.arg for a in tree.body[0].args.args} | {"isinstance", "str",
                                                              "IndexError"} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def test_hostile_column_names_and_constants_stay_data():
    evil = "x'); import os; os.system('echo pwned') #"
    p = Program((extract(evil, [("'", 0)]), Constant('"""\n\'\'\'\\'), extract(evil)))
    f = generated(p)
    assert f("a'b") == 'a"""\n\'\'\'\\a\'b'
    assert Program.from_json(p.to_json()) == p


@pytest.mark.parametrize("bad, message", [
    ("not json", "not valid JSON"),
    ('{"format": "x"}', "not a serialized"),
    ('{"format": "lakejoin-autojoin-program", "version": 99, "pieces": []}', "version 99"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": []}', "non-empty"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "eval"}]}',
     "unknown operator"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "substring", '
     '"of": {"op": "select", "of": {"op": "split", "of": {"op": "column", "name": "a"}, '
     '"sep": ""}, "k": 0}}]}', "cannot be empty"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "select", '
     '"of": {"op": "column", "name": "a"}, "k": 0}]}', "must take a split"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "select", '
     '"of": {"op": "split", "of": {"op": "column", "name": "a"}, "sep": " "}, "k": true}]}',
     "wrong type"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "split", '
     '"of": {"op": "column", "name": "a"}, "sep": " "}]}', "string-valued"),
    ('{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": "substring", '
     '"of": {"op": "column", "name": "a"}, "casing": "shout"}]}', "casing"),
])
def test_malformed_programs_are_refused(bad, message):
    with pytest.raises(ProgramFormatError, match=message):
        Program.from_json(bad)


def test_program_json_is_plain_data():
    p = Program((extract("Name", [(" ", 0)], None, 1, "lower"), Constant("@x")))
    d = json.loads(p.to_json())
    assert d["pieces"][1] == {"op": "constant", "text": "@x"}
    assert d["pieces"][0]["of"]["of"] == {"op": "split", "of": {"op": "column", "name": "Name"},
                                         "sep": " "}


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=14), st.sampled_from(["delimiters", "shape", "last word"]))
def test_cell_pattern_agrees_with_reference(text, kind):
    assert cell_pattern(text, kind) == ref_pattern(text, kind)


def test_module_docstring_is_short_with_one_line_per_deviation():
    """dsl.py says what it does and the thesis section, then one line per deviation (the
    details are in docs/algorithms/autojoin.md); every operator the docs mark "not in the
    thesis" has its line."""
    import re
    from pathlib import Path
    from lakejoin_jupyter.join.autojoin import dsl
    head, _, rest = dsl.__doc__.partition("\nDeviations (docs/algorithms/autojoin.md):\n")
    assert rest and len(head.strip().splitlines()) <= 6
    lines = [ln for ln in rest.splitlines() if ln.strip()]
    assert all(ln.startswith("* ") for ln in lines), lines
    named = {re.match(r"\* (?:``|:class:`)(\w+)", ln).group(1) for ln in lines}
    assert all(hasattr(dsl, n) for n in named)
    docs = (Path(__file__).resolve().parents[1] / "docs/algorithms/autojoin.md").read_text()
    outside = set(re.findall(r"^\| `(\w+)\(.*not in the thesis", docs, re.MULTILINE))
    assert outside and outside <= named, outside - named
