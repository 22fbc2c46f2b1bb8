"""Auto-Join deviation 78 (round 42, fresh10's faker_colors_webcolors): learning stops early
only once a program joins as many keys as any target column holds (a hex column fully
joined is not the most a name column can give); and, on unsampled tables, a direction
joining 1:1 at least as many keys wins over one whose outputs reach a key its target column
holds on several rows (colours sharing a hex code, "Aqua" and "Cyan", each joined to both).
Checked against the case's ground truth and against generated colour tables whose truth is
known by construction."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin import pipeline
from lakejoin_jupyter.join.autojoin.dsl import Column, Program, Substring

BENCH = Path(__file__).resolve().parents[1] / "bench/data"


def _truth(folder: Path):
    read = lambda name: pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False)
    src, tgt, gt = read("source"), read("target"), read("ground_truth")
    row_s = {v: i for i, v in enumerate(src["color"])}
    row_t = {v: i for i, v in enumerate(tgt["css name"])}
    return src, tgt, {(row_s[a], row_t[b]) for a, b in zip(gt["color"], gt["css name"])}


def test_faker_colours_join_by_name_not_by_shared_hex_codes():
    # main: css rows -> faker rows by `upper(hex)`, 151 pairs, 11 of them between
    # colours sharing a code (aqua/cyan, gray/grey ...); the name, `lower(color)`, was never
    # learned: the hex column's 138 keys were all joined and learning stopped
    src, tgt, truth = _truth(BENCH / "autojoin-fresh10/faker_colors_webcolors")
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.source == "left"
    assert aj.program.describe() == "`color`"      # lower() folded by the comparison (83)
    assert set(aj.pairs(fuzzy=False)) == truth


def test_a_fully_joined_smaller_column_does_not_stop_learning():
    src, tgt, _ = _truth(BENCH / "autojoin-fresh10/faker_colors_webcolors")
    settings = pipeline._settings(None, {})
    L, R = pipeline.Table(src, "source"), pipeline.Table(tgt, "target")
    d = pipeline.learn_direction(L, R, None, None, settings)
    learned = {(c.program.describe(), c.target_column, c.coverage) for c in d.candidates}
    assert ("lower(`color`)", "css name", 140) in learned
    assert ("lower(`hex code`)", "hex", 138) in learned


def _colours(seed: int, synonyms: int, spellings: int):
    """A palette (CamelCase names, upper-case codes) and a stylesheet's list (lower-case
    names, lower-case codes); ``synonyms`` pairs of palette names share a code, and the
    stylesheet also lists ``spellings`` other spellings of palette colours, with their codes (as
    CSS lists "grey" beside "gray"). The truth: each palette name with its own lower-case
    name."""
    rng = random.Random(seed)
    words = sorted({"".join(rng.choice("abcdeghiklmnoprstuy") for _ in range(rng.randint(3, 7)))
                    for _ in range(200)})
    rng.shuffle(words)
    names = sorted({words[i].capitalize() + words[i + 1].capitalize() for i in range(0, 120, 2)})
    codes = {n: "#%06X" % rng.randrange(1 << 24) for n in names}
    for a, b in zip(names[:synonyms], names[synonyms:2 * synonyms]):
        codes[b] = codes[a]
    spelled = rng.sample(names[2 * synonyms:], spellings)
    extra = [(n.lower() + "ish", codes[n]) for n in spelled]
    src = pd.DataFrame({"color": names, "hex code": [codes[n] for n in names]})
    listed = [(n.lower(), codes[n]) for n in names] + extra
    rng.shuffle(listed)
    tgt = pd.DataFrame({"css name": [n for n, _ in listed],
                        "hex": [c.lower() for _, c in listed]})
    return src, tgt


@pytest.mark.parametrize("seed", range(3))
def test_generated_palettes_join_each_colour_to_its_own_name(seed):
    src, tgt = _colours(seed, synonyms=2, spellings=3)
    want = {(i, j) for i, n in enumerate(src["color"])
            for j, m in enumerate(tgt["css name"]) if n.lower() == m}
    assert len(want) == len(src)
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found
    assert set(aj.pairs(fuzzy=False)) == want


def _direction(program, target_column, src, tgt, parts=None):
    best = SimpleNamespace(program=program, target_column=target_column)
    return (SimpleNamespace(best=best, target_parts=parts or {}), src, tgt)


def test_a_key_held_by_two_target_rows_repeats():
    faker = pipeline.Table(pd.DataFrame({"color": ["Aqua", "Cyan", "Red"],
                                         "hex code": ["#00FFFF", "#00FFFF", "#FF0000"]}), "f")
    css = pipeline.Table(pd.DataFrame({"css name": ["aqua", "red", "cyan", "navy"],
                                       "hex": ["#00ffff", "#ff0000", "#00ffff", "#000080"]}),
                         "c")
    by_hex = Program((Substring(Column("hex"), 0, None, "upper"),))
    by_name = Program((Substring(Column("color"), 0, None, "lower"),))
    # css "aqua" -> "#00FFFF", held by Faker's rows 0 and 1: not a key there
    assert pipeline._repeats_keys(_direction(by_hex, "hex code", css, faker))
    # each name once on the css side: a key
    assert not pipeline._repeats_keys(_direction(by_name, "css name", faker, css))
    # a repeated value no output reaches does not count ("#000080" once; Red's "#FF0000")
    red = pipeline.Table(pd.DataFrame({"color": ["Red"], "hex code": ["#FF0000"]}), "r")
    assert not pipeline._repeats_keys(_direction(by_hex, "hex code", css, red))
    # a key part of the target is not read
    assert not pipeline._repeats_keys(_direction(by_hex, "hex code", css, faker,
                                                 {"hex code": object()}))
