"""Issue 26 round 9: the parts before / after a part (``SelectK(..., rest)``), for values
whose number of parts varies ("George H.W. Bush" beside "Bill Clinton"). Hand-built
tables with hand-checked programs and outputs."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Program, ProgramFormatError,
                                                SelectK, Split, Substring, select_rest)
from lakejoin_jupyter.join.autojoin.learn import Example, LearnSettings, try_learn_transform

NAMES = ["George H.W. Bush", "Bill Clinton", "George W. Bush", "Barack Obama",
         "Jimmy Carter", "Lyndon B. Johnson", "Gerald Ford", "John F. Kennedy",
         "Richard Nixon", "Ronald Reagan", "Harry S. Truman", "Dwight D. Eisenhower"]
LAST_FIRST = ["Bush, George H.W.", "Clinton, Bill", "Bush, George W.", "Obama, Barack",
              "Carter, Jimmy", "Johnson, Lyndon B.", "Ford, Gerald", "Kennedy, John F.",
              "Nixon, Richard", "Reagan, Ronald", "Truman, Harry S.", "Eisenhower, Dwight D."]

WORDS = Split(Column("name"), " ")
# hand-written: last word + ", " + all before the last word
EXPECTED = Program((Substring(SelectK(WORDS, -1)), Constant(", "),
                    Substring(SelectK(WORDS, -1, "before"))))


def test_select_rest_semantics():
    parts = "George H.W. Bush".split(" ")
    assert select_rest(parts, -1, "before", " ") == "George H.W."
    assert select_rest(parts, 0, "after", " ") == "H.W. Bush"
    assert select_rest(parts, 1, "before", " ") == "George"
    assert select_rest(parts, -2, "after", " ") == "Bush"
    assert select_rest(["Cher"], -1, "before", " ") is None     # nothing before the last
    assert select_rest(["Cher"], 0, "after", " ") is None
    assert select_rest(parts, 3, "before", " ") is None         # no part 3
    assert select_rest(parts, -4, "after", " ") is None


def test_rest_program_interpreter_python_and_json_agree():
    f = EXPECTED.compile(["name"])
    ns: dict = {}
    exec(compile(EXPECTED.python_code("g"), "<generated>", "exec"), ns)   # our own output
    for name, want in zip(NAMES + ["Cher", None], LAST_FIRST + [None, None]):
        assert f((name,)) == want
        assert ns["g"](name) == want
    assert EXPECTED.evaluate({"name": NAMES + ["Cher"]}, len(NAMES) + 1) == LAST_FIRST + [None]
    assert Program.from_json(EXPECTED.to_json()) == EXPECTED
    assert EXPECTED.describe() == ("last word of `name` + \", \" + all before the last word "
                                   "of `name`")
    bad = EXPECTED.to_dict()
    bad["pieces"][2]["of"]["rest"] = "middle"
    with pytest.raises(ProgramFormatError, match="rest"):
        Program.from_dict(bad)


def test_learner_finds_all_but_the_last_word():
    """Examples with two and three words: no fixed word index gives the first names; the
    part before the last word does."""
    ex = [Example((NAMES[i],), LAST_FIRST[i]) for i in (0, 1, 3)]
    p = try_learn_transform(ex, ["name"], LearnSettings())
    assert p == EXPECTED


def test_president_names_join_all_rows():
    """N:1 speeches -> presidents: every speech joins its president, middle initials and
    all; a date column that also joins every president once (its first speech) must not
    win over the name program that joins every speech."""
    rows = [(n, f"6/{d}/{60 + i}") for i, n in enumerate(NAMES) for d in (3, 9, 14)]
    left = pd.DataFrame({"president_name": [r[0] for r in rows], "date": [r[1] for r in rows]})
    right = pd.DataFrame({"president": LAST_FIRST,
                          "first speech": [f"6/3/{60 + i}" for i in range(len(NAMES))]})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.found
    assert aj.joined_rows == len(rows)


def test_equal_coverage_goes_to_the_program_joining_more_rows():
    """Two programs joining the same 12 keys: a 1-piece one joining 12 source rows (a date
    equal to a key's first date) and a 3-piece one joining all 36 rows. MaxByCoverage ties;
    the rows joined break it before size (deviation 27)."""
    from lakejoin_jupyter.join.autojoin.learn import Candidate
    from lakejoin_jupyter.join.autojoin.pipeline import _ranked
    small = Candidate(Program((Substring(Column("date")),)), 0, "first speech", [])
    small.coverage, small.joined_rows = 12, 12
    names = Candidate(EXPECTED, 0, "president", [])
    names.coverage, names.joined_rows = 12, 36
    fewer = Candidate(Program((Substring(Column("name")),)), 0, "president", [])
    fewer.coverage, fewer.joined_rows = 11, 36
    found = {("a",): small, ("b",): names, ("c",): fewer}
    assert [c.program for c in _ranked(found)] == [EXPECTED, small.program, fewer.program]


def test_a_leading_word_with_its_punctuation_is_dropped():
    """Hosts with and without "www.": no fixed cut fits both "www.nfl.com" -> "nfl.com" and
    "espn.go.com" -> "espn.go.com"; dropping the first word with the punctuation after it
    where that is what the output lacks does (deviation 28). A first word followed by a
    space is not dropped this way (a first name is not a prefix to strip)."""
    from lakejoin_jupyter.join.autojoin.dsl import Replace
    urls = ["http://www.nfl.com/news/a", "http://espn.go.com/nfl/b", "http://www.cbssports.com/c",
            "http://sports.yahoo.com/d"]
    hosts = ["nfl.com", "espn.go.com", "cbssports.com", "sports.yahoo.com"]
    ex = [Example((u,), h) for u, h in zip(urls[:3], hosts[:3])]
    p = try_learn_transform(ex, ["source"], LearnSettings())
    want = Program((Substring(Replace(SelectK(Split(Column("source"), "/"), 2), "www.", "")),))
    assert p == want
    assert [p.compile(["source"])((u,)) for u in urls] == hosts
    ex = [Example((n,), o) for n, o in (("Steven Smith", "Smith"), ("Ann Lee", "Ann Lee"),
                                         ("Bo Diaz", "Bo Diaz"))]
    p = try_learn_transform(ex, ["name"], LearnSettings())
    assert p is None or "Replace" not in repr(p)
