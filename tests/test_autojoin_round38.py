"""Auto-Join deviation 72 (round 38, fresh38's pymupdf_fonts_descriptors_modules): a
``Words`` split at case changes may keep a run of capitals that ends the value with the word
before it ("FiraGO" stays whole), offered beside the plain split when an example value ends
so. Hand-checked splits and programs, its JSON form and generated code, and the learner on
the case's ground truth."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Program, ProgramFormatError,
                                                SelectK, Split, Substring, Words, join_words,
                                                split_words)
from lakejoin_jupyter.join.autojoin.learn import Example, LearnSettings, try_learn_transform

CASE = Path(__file__).resolve().parents[1] / "bench/data/autojoin-fresh38" / \
    "pymupdf_fonts_descriptors_modules"


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(CASE / f"{name}.csv", dtype=str, keep_default_na=False)


def test_split_keeping_a_final_capitals_run_hand_checked():
    assert split_words("FiraGO", "") == ["Fira", "GO"]
    assert split_words("FiraGO", "", caps_end=True) == ["FiraGO"]
    assert split_words("userID", "", caps_end=True) == ["userID"]
    # only a run that ends the value: elsewhere the split is the plain one
    for v in ["CascadiaMono", "HTTPServerX2Value", "NotoSansSymbols2", "FiraGOBold", "X", "AB"]:
        assert split_words(v, "", caps_end=True) == split_words(v, "")
    assert split_words("NotoSansGO", "", caps_end=True) == ["Noto", "SansGO"]
    assert join_words("FiraGO", "", "same", " ", True) == "FiraGO"
    assert join_words("NotoSansGO", "", "lower", "-", True) == "noto-sansgo"


def test_program_describe_json_and_code():
    family = Words(SelectK(Split(Column("module file"), "_"), 0), "", "same", " ", True)
    p = Program((Substring(family), Constant(" "), Substring(Words(
        SelectK(Split(SelectK(Split(Column("module file"), "_"), 1), "."), 0), "", "same", " "))))
    cases = {"FiraGO_BoldItalic.py": "FiraGO Bold Italic",
             "CascadiaMono_Regular.py": "Cascadia Mono Regular",
             "NotoSansSymbols2_Regular.py": "Noto Sans Symbols2 Regular"}
    for v, want in cases.items():
        assert p({"module file": v}) == want
    assert "split at case changes, a run of capitals at the end kept" in p.describe()
    assert Program.from_json(p.to_json()) == p
    assert p.to_dict() != Program((Substring(Words(family.of, "", "same", " ")),)).to_dict()
    scope: dict = {}
    exec(p.python_code("f"), scope)        # the program's own generated code, not lake data
    for v, want in cases.items():
        assert scope["f"](v) == want
    words = Program((Substring(Words(Column("a"), "", "same", " ", True)),)).to_dict()
    assert '"caps_end": true' in p.to_json()
    for wrong in ("yes", 1):
        broken = _replace_words(words, {"caps_end": wrong})
        with pytest.raises(ProgramFormatError, match="caps_end"):
            Program.from_dict(broken)
    with pytest.raises(ProgramFormatError, match="caps_end"):
        Program.from_dict(_replace_words(words, {"sep": "_"}))


def _replace_words(d, change: dict):
    """``d`` with every words node's fields updated by ``change``."""
    if isinstance(d, dict):
        out = {k: _replace_words(v, change) for k, v in d.items()}
        return {**out, **change} if d.get("op") == "words" else out
    if isinstance(d, list):
        return [_replace_words(x, change) for x in d]
    return d


def test_learner_writes_every_font_name_from_its_module():
    # main: the family split at case changes writes "Fira GO", so no program fits the
    # FiraGO example together with a family of two words
    truth = _read("ground_truth")
    rows = [(m, f) for m, f in zip(truth["module file"], truth["font name"])]
    chosen = [r for r in rows if r[0] in ("CascadiaMono_BoldItalic.py", "FiraGO_Bold.py",
                                          "Ubuntu_Italic.py", "NotoSansMath_Regular.py")]
    examples = [Example((m,), f, i, i) for i, (m, f) in enumerate(chosen)]
    program = try_learn_transform(examples, ["module file"], LearnSettings(), {})
    assert program is not None
    for m, f in rows:                      # the hand-paired truth, all 30 fonts
        assert program({"module file": m}) == f


def test_case_joins_all_thirty_fonts():
    src, tgt, truth = _read("source"), _read("target"), _read("ground_truth")
    row_s = {v: i for i, v in enumerate(src["font name"])}
    row_t = {v: i for i, v in enumerate(tgt["module file"])}
    want = {(row_s[a], row_t[b]) for a, b in zip(truth["font name"], truth["module file"])}
    aj = autojoin(src, tgt, fuzzy=False)
    assert set(aj.pairs(fuzzy=False)) == want
