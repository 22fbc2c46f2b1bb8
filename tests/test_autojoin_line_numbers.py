"""Auto-Join deviation 87 (fresh44's glfw case): a join on integers that a dense sequence of
the target holds whatever they are (line numbers cut to three digits against another
file's line numbers 1..200) is chance, not a key: a text program wins over it, and its own
estimate reads chance. The miniature: 60 functions ``get_window_size`` (each with the line
it is defined on, 940 + 13 i) against 48 C-style names ``libGetWindowSize`` among 152
constants, each with its line 1..200. Checked against the truth by construction (the name
a function is given) and a brute-force count of the line program's chance hits."""
from __future__ import annotations

import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin

VERBS = ["get", "set", "create", "destroy", "show", "hide", "poll", "swap", "make", "focus"]


def _word(rng) -> str:
    return "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou")
                   for _ in range(rng.randint(2, 4)))


def _c_name(function: str) -> str:
    return "lib" + "".join(w.title() for w in function.split("_"))


def _tables(seed: int, names: bool = True):
    rng = random.Random(seed)
    functions: list = []
    while len(functions) < 60:
        words = [rng.choice(VERBS)] + [_word(rng) for _ in range(rng.randint(1, 2))]
        if "_".join(words) not in functions:
            functions.append("_".join(words))
    named = rng.sample(functions, 48)
    constants = set()
    while len(constants) < 152:
        constants.add("LIB_" + "".join(rng.choice("QXZKJVW") for _ in range(6)))
    c_names = [_c_name(f) for f in named] + sorted(constants)
    rng.shuffle(c_names)
    source = pd.DataFrame({"function": functions,
                           "line": [str(940 + 13 * i) for i in range(len(functions))]})
    target = pd.DataFrame({"C-style name": c_names,
                           "C line": [str(i + 1) for i in range(len(c_names))]})
    if not names:
        source, target = source[["line"]], target[["C line"]]
    return source, target, {(f, _c_name(f)) for f in named}


@pytest.mark.parametrize("seed", [1, 2])
def test_name_program_wins_over_line_numbers(seed):
    source, target, truth = _tables(seed)
    # brute force: the first three digits of 55 lines meet a target line (100..172)
    lines = {str(i + 1) for i in range(len(target))}
    assert sum(v[:3] in lines for v in source["line"]) == 55 > len(truth)
    aj = autojoin(source, target, left_name="functions", right_name="names", fuzzy=False)
    assert aj.found
    # either direction: the names, never the lines
    assert set(aj.program.columns) in ({"function"}, {"C-style name"}), aj.program.describe()
    joined = aj.join().dropna(subset=["C-style name"])
    # main: "first 3 letters of line" into `C line`, 55 rows, none right
    assert set(zip(joined["function"], joined["C-style name"])) == truth, aj.program


@pytest.mark.parametrize("seed", [1, 2])
def test_line_numbers_alone_are_estimated_at_chance(seed):
    source, target, _ = _tables(seed, names=False)
    aj = autojoin(source, target, left_name="functions", right_name="names", fuzzy=False)
    if aj.found:            # every output is in 1..200: the hits are all chance
        assert aj.estimated_precision is not None and aj.estimated_precision < 0.5
