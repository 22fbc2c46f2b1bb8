"""Auto-Join deviation 73 (round 39, fresh38's glyphsets_archive_definitions): a split at
any of several characters (the part before the first of "_", "." / after the last of them)
and the parts after the first two / before the last two of a split, as operands. The split
against a brute-force oracle, a program's description, JSON form, refused bad input and
generated code, and the learner on hand-paired archive files against their ground truth."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Program, ProgramFormatError,
                                                SelectK, Split, Substring, Words,
                                                evaluate_columns)
from lakejoin_jupyter.join.autojoin.learn import Example, LearnSettings, try_learn_transform

CASE = Path(__file__).resolve().parents[1] / "bench/data/autojoin-fresh38" / \
    "glyphsets_archive_definitions"

VALUES = ["a-b.c_d", "x_y.z", "plain", "_lead", "trail.", "a..b", "", "-_.", "p.q-r_s.t"]


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(CASE / f"{name}.csv", dtype=str, keep_default_na=False)


def _oracle_parts(v: str, chars: str) -> list:
    """Brute force: walk the value, cutting at every character of ``chars``."""
    parts, cur = [], ""
    for ch in v:
        if ch in chars:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def test_split_at_any_of_against_oracle():
    col = Column("v")
    for chars in ("_.", "._", "-_", "-._"):
        split = Split(col, chars, any_of=True)
        for v in VALUES:
            assert split.parts(v) == _oracle_parts(v, chars)
            for k in range(-4, 4):
                node = SelectK(split, k)
                parts = _oracle_parts(v, chars)
                want = parts[k] if -len(parts) <= k < len(parts) else None
                got = Program((Substring(node),))({"v": v})
                assert got == want, (chars, v, k)
                assert evaluate_columns(node, {"v": [v]}, 1) == [want]
    # hand-checked: the part before the first of "_" and "."
    first = SelectK(Split(col, "._", any_of=True), 0)
    assert Program((Substring(first),))({"v": "GF-latin-plus_unique-glyphs.nam"}) == \
        "GF-latin-plus"
    assert Program((Substring(first),))({"v": "Greek/GF-greek-core.nam"}) == "Greek/GF-greek-core"


def test_program_describe_json_code_and_bad_input():
    col = Column("archive file")
    level = Words(SelectK(Split(SelectK(Split(col, "._", any_of=True), 0), "-"), 1, "after"),
                  "-", "title", "")
    p = Program((Constant("GF_"), Substring(SelectK(Split(col, "-"), 1), casing="title"),
                 Constant("_"), Substring(level)))
    cases = {"Greek/GF-greek-ancient-musical-symbols.nam": "GF_Greek_AncientMusicalSymbols",
             "GF-latin-plus_unique-glyphs.nam": "GF_Latin_Plus",
             "Arabic/GF-arabic-core.nam": "GF_Arabic_Core",
             "GF-latin": None}
    for v, want in cases.items():
        assert p({"archive file": v}) == want
    text = p.describe()
    assert 'the part before the first of ".", "_"' in text
    assert 'all after part 2 (split at "-")' in text
    assert Program.from_json(p.to_json()) == p
    assert '"any_of": true' in p.to_json()
    scope: dict = {}
    exec(p.python_code("f"), scope)        # the program's own generated code, not lake data
    for v, want in cases.items():
        assert scope["f"](v) == want
    with pytest.raises(ValueError, match="two or more distinct"):
        Split(col, "__", any_of=True)
    with pytest.raises(ValueError, match="not taken"):
        SelectK(Split(col, "._", any_of=True), 0, "after")
    d = Program((Substring(SelectK(Split(col, "._", any_of=True), 0)),)).to_dict()
    for change, match in (({"any_of": "yes"}, "any_of"), ({"sep": "."}, "two or more")):
        with pytest.raises(ProgramFormatError, match=match):
            Program.from_dict(_replace_split(d, change))
    rest = Program((Substring(SelectK(Split(col, "."), 0, "after")),)).to_dict()
    with pytest.raises(ProgramFormatError, match="rest"):
        Program.from_dict(_replace_split(rest, {"sep": "._", "any_of": True}))


def _replace_split(d, change: dict):
    """``d`` with every split node's fields updated by ``change``."""
    if isinstance(d, dict):
        out = {k: _replace_split(v, change) for k, v in d.items()}
        return {**out, **change} if d.get("op") == "split" else out
    if isinstance(d, list):
        return [_replace_split(x, change) for x in d]
    return d


def test_learner_writes_every_glyph_set_of_the_truth():
    # main: no program fits these four (the level ends at "_" in some files and at "." in
    # others, and has one word or three); here every one of the truth's 15 is written
    truth = _read("ground_truth")
    rows = list(zip(truth["archive file"], truth["glyph set"]))
    chosen = ["Arabic/GF-arabic-core.nam", "Cyrillic/GF-cyrillic-historical_unique-glyphs.nam",
              "GF-latin-plus_unique-glyphs.nam", "Greek/GF-greek-ancient-musical-symbols.nam"]
    pairs = [r for r in rows if r[0] in chosen]
    assert len(pairs) == 4
    # all four, and the three that keep a file outside a folder and the three-word level
    for leave in (None, chosen[0], chosen[1]):
        examples = [Example((a,), g, i, i) for i, (a, g) in enumerate(pairs) if a != leave]
        program = try_learn_transform(examples, ["archive file"], LearnSettings(), {})
        assert program is not None
        for a, g in rows:                  # the hand-paired truth, all 15 files
            assert program({"archive file": a}) == g, (leave, program.describe())


def test_case_joins_only_right_pairs_and_more_of_them():
    src, tgt, truth = _read("source"), _read("target"), _read("ground_truth")
    row_s = {v: i for i, v in enumerate(src["archive file"])}
    row_t = {v: i for i, v in enumerate(tgt["glyph set"])}
    want = {(row_s[a], row_t[b]) for a, b in zip(truth["archive file"], truth["glyph set"])}
    aj = autojoin(src, tgt, fuzzy=False)
    got = set(aj.pairs(fuzzy=False))
    # main: 6 pairs, 5 right ("first 4 letters" of the level: "Plus" from "plus-locl")
    assert got <= want
    assert len(got) >= 11
