"""Auto-Join deviation 75 (round 41, fresh39's osgi_api_types_classes): a direction whose
joined row pairs strictly contain the other's (deviation 49) does not win when the other
joins 1:1 and most of its extra pairs join a value lacking a piece the other's program
reads from the pair's own row (a namesake class of another package); a piece written as a
constant refutes nothing. Checked against the case's ground truth and a brute-force oracle
on generated jars."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin import pipeline
from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Replace

BENCH = Path(__file__).resolve().parents[1] / "bench/data"


def _truth(folder: Path):
    read = lambda name: pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False)
    src, tgt, gt = read("source"), read("target"), read("ground_truth")
    row_s = {(p, t): i for i, (p, t) in enumerate(zip(src["package"], src["type"]))}
    row_t = {v: i for i, v in enumerate(tgt["class file"])}
    return src, tgt, {(row_s[p, t], row_t[f])
                      for p, t, f in zip(gt["package"], gt["type"], gt["class file"])}


def test_osgi_api_types_join_their_own_class_files():
    # main: class files -> `type` by the simple name alone (55 rows onto the 51 types: four
    # namesakes in other packages), which won by deviation 49 as its pairs contain the 51
    # of the path built from `package` and `type`
    src, tgt, truth = _truth(BENCH / "autojoin-fresh39/osgi_api_types_classes")
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.source == "left"
    assert aj.program.describe() == '`package` with "." as "/" + "/" + `type` + ".class"'
    assert set(aj.pairs(fuzzy=False)) == truth


def _jar(seed: int):
    """A jar's API types (package, simple name; a few packages, some names shared between
    packages) and its class files: every API type's, and as many other classes, among them
    namesakes of API types in packages the API list does not hold."""
    rng = random.Random(seed)
    words = set()
    while len(words) < 80:
        words.add("".join(rng.choice("abcdefgiklmnoprstuvw") for _ in range(rng.randint(4, 9))))
    words = sorted(words)
    rng.shuffle(words)
    packages = ([f"org.{words[0]}.{w}" for w in words[1:4]]
                + [f"org.{words[0]}.{words[1]}.{w}" for w in words[4:6]])
    hidden = [f"org.{words[0]}.internal.{w}" for w in words[6:9]]
    names = [w.capitalize() + rng.choice(["Service", "Factory", "Handler", "Builder", ""])
             for w in words[9:]]
    api = sorted({(rng.choice(packages), n) for n in rng.sample(names, 30)})
    others = [(rng.choice(hidden), n) for n in names if all(n != t for _, t in api)][:25]
    namesakes = [(rng.choice(hidden), t) for _, t in rng.sample(api, 5)]
    files = [p.replace(".", "/") + "/" + t + ".class" for p, t in api + others + namesakes]
    rng.shuffle(files)
    src = pd.DataFrame(api, columns=["package", "type"])
    tgt = pd.DataFrame({"class file": files, "bytes": [str(rng.randint(300, 9000))
                                                       for _ in files]})
    return src, tgt


@pytest.mark.parametrize("seed", range(4))
def test_generated_jars_join_by_package_and_name(seed):
    src, tgt = _jar(seed)
    # the oracle: every (API type, class file) whose path is the type's package and name
    want = {(i, j) for i, (p, t) in enumerate(zip(src["package"], src["type"]))
            for j, f in enumerate(tgt["class file"])
            if f == p.replace(".", "/") + "/" + t + ".class"}
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found
    assert set(aj.pairs(fuzzy=False)) == want


def _direction(source: str, program, target_column: str, pairs):
    best = SimpleNamespace(program=program, target_column=target_column)
    return SimpleNamespace(source=source, best=best, target_parts={}, joined_pairs=pairs)


def _table(frame):
    return SimpleNamespace(cells=lambda c: [None if v is None else str(v) for v in frame[c]])


def test_a_piece_read_from_the_row_refutes_a_constant_does_not():
    left = pd.DataFrame({"package": ["a.b", "a.c"], "type": ["Log", "Map"]})
    right = pd.DataFrame({"file": ["a/b/Log.class", "x/y/Log.class", "a/c/Map.class",
                                   "a/c/Map-2.class"]})
    path = Program((Replace(Column("package"), ".", "/"), Constant("/"), Column("type"),
                    Constant(".class")))
    narrow = (_direction("left", path, "file", frozenset({(0, 0), (1, 2)})),
              _table(left), _table(right))
    # (0, 1): "x/y/Log.class" lacks the row's "a/b"; (1, 3): "a/c/Map-2.class" holds both
    # "a/c" and "Map", only the constant ".class" is not where the program writes it
    assert pipeline._lacking_own_pieces(narrow, frozenset({(0, 1), (1, 3)})) == 1
    # a row the 1:1 direction joins to no other row is no namesake: its pair counts nothing
    alone = (_direction("left", path, "file", frozenset({(1, 2)})), _table(left),
             _table(right))
    assert pipeline._lacking_own_pieces(alone, frozenset({(0, 1), (1, 3)})) == 0
    # right -> left pairs are read from the program's side: (left row, right row) stay
    flipped = (_direction("right", Program((Constant("a/c/"), Column("file"))), "type",
                          frozenset({(3, 0)})), _table(right), _table(left))
    assert pipeline._lacking_own_pieces(flipped, frozenset({(1, 3)})) == 1
    # a program whose only read piece the extra value holds: its constant says nothing
    name = Program((Column("type"), Constant("-1.class")))
    by_name = (_direction("left", name, "file", frozenset()), _table(left), _table(right))
    assert pipeline._lacking_own_pieces(by_name, frozenset({(0, 1), (1, 3)})) == 0


@pytest.mark.parametrize("folder, program", [
    # the 1:1 direction's program reads a column the wider one does not: the first speech
    ("autojoin-fresh6/commencement_president_names",
     'last word of `president_name` + ", " + all before the last word of `president_name`'),
    # the extra pairs' rows the 1:1 direction joins to no other row (its summary, its
    # "Bold Italic" with a space, do not meet the target's value): not namesakes
    ("autojoin-fresh20/coreutils_info_sections_man_pages",
     'part 1 (split at "’: ") of part 2 (split at "‘") of `heading`'),   # upper(): 83
    ("autojoin-fresh38/pymupdf_fonts_descriptors_modules",
     'words of part 1 (split at "_") of `module file` (split at case changes, a run of '
     'capitals at the end kept, joined by " ") + " " + words of part 1 (split at ".") of '
     'part 2 (split at "_") of `module file` (split at case changes, joined by " ")'),
])
def test_containing_direction_kept_outside_the_bounds(folder, program):
    # each program joins every pair of its case's ground truth (F1 1.000, hand-checked)
    read = lambda name: pd.read_csv(BENCH / folder / f"{name}.csv", dtype=str,
                                    keep_default_na=False)
    aj = autojoin(read("source"), read("target"), fuzzy=False)
    assert aj.program.describe() == program
